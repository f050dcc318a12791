package org.forager.extract;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.SequencedSet;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.select.NodeVisitor;

/**
 * Collects, in one traversal of a parsed page, everything the extractor reads from the document:
 * link targets as written, the first {@code <base href>}, the first canonical link in the head,
 * and the robots meta directives for us. Resolution happens afterwards, once the base is known,
 * because a {@code <base>} applies to links before it too. One instance per page; not thread-safe.
 */
final class PageScan implements NodeVisitor {

  private final String productToken;
  // Raw hrefs deduplicated before resolution: menus repeat the same href many times.
  private final SequencedSet<String> hrefs = new LinkedHashSet<>();
  private String baseHref;
  private String canonicalHref;
  private int robots;

  PageScan(String productToken) {
    this.productToken = productToken;
  }

  @Override
  public void head(Node node, int depth) {
    if (!(node instanceof Element el)) return;
    switch (el.normalName()) {
      case "a", "area" -> {
        if (!Tokens.contains(el.attr("rel"), "nofollow")) addTarget(el, "href");
      }
      case "frame", "iframe" -> addTarget(el, "src");
      case "base" -> {
        if (baseHref == null && el.hasAttr("href")) baseHref = el.attr("href");
      }
      case "link" -> {
        // Only the head counts (as for Google): a canonical link in the body may come from
        // user content and would let it claim the page.
        if (canonicalHref == null
            && el.parent() != null
            && el.parent().normalName().equals("head")
            && Tokens.contains(el.attr("rel"), "canonical")
            && !el.attr("href").isBlank()) {
          canonicalHref = el.attr("href");
        }
      }
      case "meta" -> {
        String name = el.attr("name").strip();
        if (name.equalsIgnoreCase("robots") || name.equalsIgnoreCase(productToken)) {
          robots |= RobotsDirectives.ofMeta(el.attr("content"));
        }
      }
      default -> {}
    }
  }

  private void addTarget(Element el, String attribute) {
    String target = el.attr(attribute);
    // attr() gives "" when absent; an empty value present is a link to the page itself.
    if (!target.isEmpty() || el.hasAttr(attribute)) hrefs.add(target);
  }

  /** Link targets as written, in document order, each once, rel=nofollow ones left out. */
  SequencedSet<String> hrefs() {
    return hrefs;
  }

  Optional<String> baseHref() {
    return Optional.ofNullable(baseHref);
  }

  Optional<String> canonicalHref() {
    return Optional.ofNullable(canonicalHref);
  }

  /** {@link RobotsDirectives} bits from the robots meta tags for everyone or for us. */
  int robots() {
    return robots;
  }
}
