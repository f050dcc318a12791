package org.forager.extract;

import java.util.Arrays;

/**
 * The elements open inside an {@code <svg>} (HTML 13.2.6.5, foreign content), for {@link StreamScan}:
 * SVG elements, and HTML elements inside the HTML integration points {@code foreignObject}, {@code desc}
 * and {@code title}. It tells which rules read the next start tag (HTML's or foreign content's) and where
 * an end tag leads; where that needs the HTML elements around the SVG, or where jsoup reads foreign content
 * unlike the HTML Standard, it says so and the scan leaves the page to the tree. Not thread-safe.
 */
final class SvgContent {

  private String[] names = new String[8];
  private boolean[] html = new boolean[8]; // an HTML element, in an integration point
  private boolean[] integrationPoints = new boolean[8];
  private int depth;

  /** Whether an {@code <svg>} is open. */
  boolean isOpen() {
    return depth > 0;
  }

  /** HTML 13.2.6 "tree construction dispatcher": whether the HTML rules read a start tag here. */
  boolean htmlRulesApply() {
    return html[depth - 1] || integrationPoints[depth - 1];
  }

  /** Whether {@code <![CDATA[} starts a CDATA section here: the current node is an SVG element. */
  boolean cdataAllowed() {
    return depth > 0 && !html[depth - 1];
  }

  /** An {@code <svg>} start tag read by the HTML rules. */
  void openSvg(Tag tag) {
    if (!tag.isSelfClosing()) push("svg", false, false);
  }

  /**
   * A start tag read by the foreign-content rules; false where the tree must read the page: an HTML
   * element that ends foreign content ({@code <div>}, {@code <p>}, {@code <br>}, …, which jsoup keeps in
   * it) or a {@code <script>} (no script data in SVG; jsoup reads one as script data).
   */
  boolean foreignStart(Tag tag) {
    if (breaksOut(tag) || tag.name().equals("script")) return false;
    String name = tag.name();
    if (!tag.isSelfClosing()) {
      push(name, false, name.equals("foreignobject") || name.equals("desc") || name.equals("title"));
    }
    return true;
  }

  /** An HTML start tag in an integration point; false for a template, which the tree reads. */
  boolean htmlStart(String name, boolean isVoid) {
    if (name.equals("template")) return false;
    if (!isVoid) push(name, true, false);
    return true;
  }

  /**
   * An end tag: it closes the innermost open element of its name, up to the nearest HTML element. False
   * where the tree must read the page: none such (HTML's rules would look at the elements around), or
   * {@code </p>} and {@code </br>} in SVG (HTML ends foreign content there; jsoup does not).
   */
  boolean end(String name) {
    if ((name.equals("p") || name.equals("br")) && !html[depth - 1]) return false;
    for (int k = depth - 1; k >= 0; k--) {
      if (names[k].equals(name)) {
        depth = k;
        return true;
      }
      if (html[k]) return false;
    }
    return false;
  }

  private void push(String name, boolean isHtml, boolean integrationPoint) {
    if (depth == names.length) {
      names = Arrays.copyOf(names, depth * 2);
      html = Arrays.copyOf(html, depth * 2);
      integrationPoints = Arrays.copyOf(integrationPoints, depth * 2);
    }
    names[depth] = name;
    html[depth] = isHtml;
    integrationPoints[depth] = integrationPoint;
    depth++;
  }

  /** HTML 13.2.6.5: the start tags that end foreign content. */
  private static boolean breaksOut(Tag tag) {
    return switch (tag.name()) {
      case "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed",
          "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr",
          "ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u",
          "ul", "var" -> true;
      case "font" -> tag.has("color") || tag.has("face") || tag.has("size");
      default -> false;
    };
  }
}
