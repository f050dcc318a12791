package org.forager.extract;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.SequencedSet;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.parser.Parser;
import org.jsoup.select.NodeFilter;

/**
 * Collects, in one traversal of a page parsed by jsoup, everything the extractor reads from the
 * document ({@link DocumentScan}): the reader for the pages {@link StreamScan} cannot read without a
 * tree. One instance per page; not thread-safe.
 *
 * <p>What counts is what a browser shows, as the DOM has it: HTML {@code a}/{@code area}/{@code
 * frame}/{@code iframe}/{@code base}/{@code link}/{@code meta} (an SVG or MathML element of the same
 * name is none of these), SVG {@code a} ({@code href}, else {@code xlink:href}); {@code <template>}
 * content is not the page and is skipped, except a declarative shadow root, whose links are shown
 * but whose {@code <base>} is not the document's.
 */
final class PageScan implements NodeFilter, DocumentScan {

  private final String productToken;
  private final AttributeValues values;
  // Raw hrefs deduplicated before resolution: menus repeat the same href many times.
  private final SequencedSet<String> hrefs = new LinkedHashSet<>();
  private final List<String> srcdocs = new ArrayList<>();
  private String baseHref;
  private String canonicalHref;
  private int robots;
  private final RefreshUrls refreshes = new RefreshUrls();
  private int shadowDepth;
  private boolean headEnded;
  /** A noscript in the head that HTML closed at an element of the head jsoup left in it: what follows is in the head. */
  private Element closedNoscript;

  PageScan(String productToken, AttributeValues values) {
    this.productToken = productToken;
    this.values = values;
  }

  @Override
  public FilterResult head(Node node, int depth) {
    if (!(node instanceof Element el)) {
      // Text in a noscript in the head ends the head too (scripting off), whitespace aside.
      if (!headEnded && node instanceof TextNode text && inHeadNoscript(text) && !text.isBlank()) headEnded = true;
      return FilterResult.CONTINUE;
    }
    String namespace = el.tag().namespace();
    if (namespace.equals(Parser.NamespaceSvg)) {
      if (el.normalName().equals("a") && !Tokens.contains(el.attr("rel"), "nofollow")) {
        // SVG 2: href wins over the older xlink:href.
        if (!addTarget(el, "href")) addTarget(el, "xlink:href");
      }
      return FilterResult.CONTINUE;
    }
    if (!namespace.equals(Parser.NamespaceHtml)) return FilterResult.CONTINUE;
    if (!headEnded && inHeadNoscript(el)) {
      headEnded = endsHead(el.normalName());
      if (closesNoscript(el.normalName())) closedNoscript = el.parent();
    }
    switch (el.normalName()) {
      case "a", "area" -> {
        if (!Tokens.contains(el.attr("rel"), "nofollow")) addTarget(el, "href");
      }
      case "iframe" -> {
        // A srcdoc document replaces src: the browser never requests it.
        if (el.hasAttr("srcdoc")) srcdocs.add(values.of(el, "srcdoc"));
        else addTarget(el, "src");
      }
      case "frame" -> addTarget(el, "src");
      case "template" -> {
        if (!DeclarativeShadowRoot.is(el)) return FilterResult.SKIP_ENTIRELY;
        shadowDepth++;
      }
      case "base" -> {
        // A base in a shadow tree is not in the document tree: it bases nothing.
        if (baseHref == null && shadowDepth == 0 && el.hasAttr("href")) baseHref = values.of(el, "href");
      }
      case "link" -> {
        // Only the head counts (as for Google): a canonical link in the body may come from
        // user content and would let it claim the page.
        if (canonicalHref == null
            && !headEnded
            && (isDocumentHead(el.parent()) || el.parent() == closedNoscript)
            && Tokens.contains(el.attr("rel"), "canonical")
            && !el.attr("href").isBlank()) {
          canonicalHref = values.of(el, "href");
        }
      }
      case "meta" -> {
        String name = el.attr("name").strip();
        if (name.equalsIgnoreCase("robots") || name.equalsIgnoreCase(productToken)) {
          robots |= RobotsDirectives.ofMeta(el.attr("content"));
        }
        // One in a shadow tree is not in the document tree: it refreshes nothing.
        if (shadowDepth == 0 && MetaRefresh.isRefresh(el.attr("http-equiv"))) refreshes.read(values.of(el, "content"));
      }
      default -> {}
    }
    return FilterResult.CONTINUE;
  }

  @Override
  public FilterResult tail(Node node, int depth) {
    if (node instanceof Element el && el.normalName().equals("template") && shadowDepth > 0
        && el.tag().namespace().equals(Parser.NamespaceHtml) && DeclarativeShadowRoot.is(el)) {
      shadowDepth--;
    }
    return FilterResult.CONTINUE;
  }

  /**
   * Whether an element in a noscript in the head ends the head. jsoup keeps all of a {@code <noscript>}
   * in the head inside it; a browser with scripting off (HTML 13.2.6.4.5, "in head noscript") keeps
   * the head's own elements in the head (some after closing the noscript) and ends the head at any
   * other, so what follows, a canonical link too, is in the body (Google reads it so as well).
   */
  private static boolean endsHead(String name) {
    return switch (name) {
      case "basefont", "bgsound", "link", "meta", "noframes", "style", "noscript", "head", "html" -> false;
      default -> !closesNoscript(name);
    };
  }

  /**
   * Whether an element is the document's head, not one jsoup made of a {@code <head>} in a noscript
   * (nor of {@code <html><head>} there: the html element must be the document's own).
   */
  private static boolean isDocumentHead(Element el) {
    return el != null && el.normalName().equals("head") && el.parent() != null
        && el.parent().normalName().equals("html") && el.parent().parent() instanceof Document;
  }

  /** Whether an element in a noscript in the head closes the noscript and stays in the head. */
  private static boolean closesNoscript(String name) {
    return switch (name) {
      case "base", "title", "script", "template" -> true;
      default -> false;
    };
  }

  /**
   * Whether a node is in a noscript in the head: every element above it up to the document's head is
   * a noscript, or a {@code <head>} or {@code <html>} jsoup nests there (HTML ignores those tags in a
   * head noscript; jsoup keeps them as elements), and one of them is a noscript.
   */
  private static boolean inHeadNoscript(Node node) {
    boolean noscript = false;
    for (Node up = node.parent(); up instanceof Element el; up = el.parent()) {
      if (isDocumentHead(el)) return noscript;
      switch (el.normalName()) {
        case "noscript" -> noscript = true;
        case "head", "html" -> {}
        default -> {
          return false;
        }
      }
    }
    return false;
  }

  /** Adds the attribute's value when present; an empty value is a link to the page itself. */
  private boolean addTarget(Element el, String attribute) {
    if (!el.hasAttr(attribute)) return false;
    hrefs.add(values.of(el, attribute));
    return true;
  }

  /** Link targets as written, in document order, each once, rel=nofollow ones left out. */
  @Override
  public SequencedSet<String> hrefs() {
    return hrefs;
  }

  @Override
  public List<String> refreshUrls() {
    return refreshes.urls();
  }

  /** The {@code srcdoc} of each {@code iframe} that has one, in document order: documents of their own. */
  @Override
  public List<String> srcdocs() {
    return srcdocs;
  }

  @Override
  public Optional<String> baseHref() {
    return Optional.ofNullable(baseHref);
  }

  @Override
  public Optional<String> canonicalHref() {
    return Optional.ofNullable(canonicalHref);
  }

  /** {@link RobotsDirectives} bits from the robots meta tags for everyone or for us. */
  @Override
  public int robots() {
    return robots;
  }

  /** Whether a value read may have been decoded unlike a browser (see {@link AttributeValues}). */
  boolean needsExactValues() {
    return values.sawSuspectReference();
  }
}
