package org.forager.extract;

import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;

/**
 * Whether a parsed {@code <template>} is a declarative shadow root (HTML: "in head" insertion mode,
 * {@code template} start tag): {@code shadowrootmode} is {@code open} or {@code closed} (any case) and
 * the parent is an element that can host a shadow root and has no earlier one. Its content is shown
 * in place of the host's children; any other template's content is not part of the page.
 */
final class DeclarativeShadowRoot {

  private DeclarativeShadowRoot() {}

  static boolean is(Element template) {
    if (!isShadowRootTemplate(template)) return false;
    Element host = template.parent();
    if (host == null || !canHost(host)) return false;
    // Only a host's first declarative shadow root attaches; later ones stay plain templates.
    for (Element sibling = host.firstElementChild(); sibling != null && sibling != template;
        sibling = sibling.nextElementSibling()) {
      if (sibling.normalName().equals("template") && isShadowRootTemplate(sibling)) return false;
    }
    return true;
  }

  private static boolean isShadowRootTemplate(Element template) {
    String mode = template.attr("shadowrootmode");
    return mode.equalsIgnoreCase("open") || mode.equalsIgnoreCase("closed");
  }

  /** DOM "attach a shadow root": valid custom element names and these HTML elements. */
  private static boolean canHost(Element host) {
    if (!host.tag().namespace().equals(Parser.NamespaceHtml)) return false;
    String name = host.normalName();
    return switch (name) {
      case "article", "aside", "blockquote", "body", "div", "footer", "h1", "h2", "h3", "h4", "h5", "h6",
          "header", "main", "nav", "p", "section", "span" -> true;
      default -> name.indexOf('-') > 0 && name.charAt(0) >= 'a' && name.charAt(0) <= 'z';
    };
  }
}
