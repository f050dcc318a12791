package org.forager.extract;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.SequencedSet;

/**
 * Reads a document's links, base, canonical link, robots meta and srcdoc documents from the
 * tokenizer's stream of tags, without building a tree: the same rules as {@link PageScan} on jsoup's
 * DOM (docs/extraction.md), with just the tree construction they need (WHATWG HTML 13.2.6):
 *
 * <ul>
 *   <li>the insertion modes up to the body (in head, in head noscript with scripting off, after head),
 *       so that a {@code <link rel=canonical>} counts only as a child of the head;
 *   <li>{@code <template>} content, nested ones too, which is not the page;
 *   <li>foreign content: the SVG and MathML elements open ({@code <svg><a>} is an SVG link,
 *       {@code <math><a>} none, {@code <svg><iframe>} no frame), HTML integration points, the HTML
 *       elements that break out of foreign content, and which tokenizer state follows a tag (none but
 *       data in foreign content; CDATA only there);
 *   <li>a {@code <select>} keeps the elements in it, as the HTML Standard and browsers do since the
 *       customizable select of 2025 (jsoup drops them).
 * </ul>
 *
 * <p>A link in a table outside its cells is put before the table, where foster parenting puts it
 * (HTML 13.2.6.1). It gives up, and the caller builds the DOM, where the tree decides more than that:
 * a {@code <frameset>} (it may replace the body, and frames count only there), a {@code <template
 * shadowrootmode>} (a declarative shadow root's host and siblings decide whether it is one), and an
 * {@code iframe srcdoc} foster-parented (srcdoc documents keep their tree order). One instance per
 * document; not thread-safe.
 */
final class StreamScan implements HtmlTokenizer.Handler, DocumentScan {

  /** Links a foster-parented link may be inserted before; past that, the tree reads the page. */
  private static final int MAX_FOSTER_SHIFT = 1024;

  private static final byte HTML = 0;
  private static final byte SVG = 1;
  private static final byte MATH = 2;

  private static final int IN_HEAD = 0; // initial, before html, before head, in head
  private static final int IN_HEAD_NOSCRIPT = 1;
  private static final int AFTER_HEAD = 2;
  private static final int IN_BODY = 3; // and everything after

  private static final byte TABLE_ROWS = 0; // in table, in table body, in row: content is foster-parented
  private static final byte TABLE_CELL = 1; // in cell, in caption

  private final String productToken;
  // Targets in tree order, repeats included: a foster-parented one goes before its table.
  private final List<String> targets = new ArrayList<>();
  private SequencedSet<String> hrefs;
  private final List<String> srcdocs = new ArrayList<>();
  private String baseHref;
  private String canonicalHref;
  private int robots;
  private boolean needsTree;

  private int mode = IN_HEAD;
  private int bodyNoscripts;
  private final TemplateContent templates = new TemplateContent();
  // The elements open since the first foreign (SVG, MathML) element, itself included; empty in plain HTML.
  private String[] names = new String[8];
  private byte[] spaces = new byte[8];
  private boolean[] htmlIntegrationPoints = new boolean[8];
  private int depth;
  private byte[] tables = new byte[4];
  private int[] fosterAt = new int[4]; // per open table: where in targets its foster-parented links go
  private int tableDepth;

  private StreamScan(String productToken) {
    this.productToken = productToken;
  }

  /** The scan of {@code html}, or empty when the page needs a tree to be read right. */
  static Optional<DocumentScan> of(String html, String productToken) {
    StreamScan scan = new StreamScan(productToken);
    new HtmlTokenizer(html, scan).run();
    return scan.needsTree ? Optional.empty() : Optional.of(scan);
  }

  @Override
  public int startTag(Tag tag) {
    if (depth > 0 && !htmlRulesApply(tag.name())) return foreignStartTag(tag);
    return htmlStartTag(tag);
  }

  /** HTML 13.2.6 "tree construction dispatcher": whether a start tag is read by the HTML rules. */
  private boolean htmlRulesApply(String name) {
    int top = depth - 1;
    if (spaces[top] == HTML || htmlIntegrationPoints[top]) return true;
    if (isMathTextIntegrationPoint(top)) return !name.equals("mglyph") && !name.equals("malignmark");
    return spaces[top] == MATH && names[top].equals("annotation-xml") && name.equals("svg");
  }

  /** HTML 13.2.6.5, "any other start tag" in foreign content, and the HTML elements that end it. */
  private int foreignStartTag(Tag tag) {
    String name = tag.name();
    if (breaksOutOfForeignContent(tag) || name.equals("script")) {
      // HTML ends foreign content at these (and an SVG script is no script data); jsoup keeps them in
      // it. Rare in real SVG; the tree's reading stays the reference there.
      needsTree = true;
      return HtmlTokenizer.DATA;
    }
    byte space = spaces[depth - 1];
    if (space == SVG && name.equals("a") && !templates.isOpen()) {
      // SVG 2: href wins over the older xlink:href.
      if (!Tokens.contains(tag.valueOrEmpty("rel"), "nofollow") && !addTarget(tag, "href")) addTarget(tag, "xlink:href");
    }
    if (!tag.isSelfClosing()) push(name, space, isHtmlIntegrationPoint(space, tag));
    return HtmlTokenizer.DATA;
  }

  /** The HTML rules ("in head", "in body", …) as far as links, base, canonical and robots need them. */
  private int htmlStartTag(Tag tag) {
    String name = tag.name();
    boolean live = !templates.isOpen();
    if (live && mode != IN_BODY) enterHead(name);
    if (live && mode == IN_BODY) {
      if (name.equals("noscript")) bodyNoscripts++;
      // jsoup makes a head in a noscript in the body, and a canonical link after it counts.
      else if (name.equals("head")) needsTree |= bodyNoscripts > 0;
    }
    if (live) table(name);
    if (depth > 0) {
      // An HTML element in an SVG integration point; a template there is left to the tree.
      needsTree |= name.equals("template");
      if (!isVoid(name) && !name.equals("svg")) push(name, HTML, false);
    } else if (!live && !name.equals("svg") && !name.equals("template")) {
      needsTree |= !templates.start(name, isVoid(name));
    }
    switch (name) {
      case "a", "area" -> {
        if (live && !Tokens.contains(tag.valueOrEmpty("rel"), "nofollow")) addTarget(tag, "href");
      }
      case "iframe" -> {
        if (live) {
          // A srcdoc document replaces src: the browser never requests it.
          if (!tag.has("srcdoc")) {
            addTarget(tag, "src");
          } else {
            needsTree |= fosterParenting();
            srcdocs.add(tag.value("srcdoc"));
          }
        }
        return HtmlTokenizer.RAWTEXT;
      }
      // A frameset may replace the body, and frames count only in one: the tree decides.
      case "frame", "frameset" -> needsTree |= live;
      case "template" -> {
        needsTree |= live && tag.has("shadowrootmode");
        if (depth == 0) templates.openTemplate();
      }
      case "base" -> {
        if (live && baseHref == null && tag.has("href")) baseHref = tag.value("href");
      }
      case "link" -> {
        // Only a child of the head counts (as for Google): a canonical link in the body may come from
        // user content and would let it claim the page.
        if (live && canonicalHref == null && depth == 0 && (mode == IN_HEAD || mode == AFTER_HEAD)
            && Tokens.contains(tag.valueOrEmpty("rel"), "canonical") && !tag.valueOrEmpty("href").isBlank()) {
          canonicalHref = tag.value("href");
        }
      }
      case "meta" -> {
        if (live) {
          String metaName = tag.valueOrEmpty("name").strip();
          if (metaName.equalsIgnoreCase("robots") || metaName.equalsIgnoreCase(productToken)) {
            robots |= RobotsDirectives.ofMeta(tag.valueOrEmpty("content"));
          }
        }
      }
      case "svg" -> {
        if (!tag.isSelfClosing()) push(name, SVG, false);
      }
      // MathML is rare on web pages, and jsoup reads it unlike browsers in many ways: the tree decides.
      case "math" -> needsTree = true;
      case "title", "textarea" -> {
        return HtmlTokenizer.RCDATA;
      }
      case "style", "xmp", "noembed", "noframes" -> {
        return HtmlTokenizer.RAWTEXT;
      }
      case "script" -> {
        return HtmlTokenizer.SCRIPT;
      }
      case "plaintext" -> {
        return HtmlTokenizer.PLAINTEXT;
      }
      default -> {}
    }
    return HtmlTokenizer.DATA;
  }

  @Override
  public void endTag(String name) {
    if (depth > 0 && !foreignEndTag(name)) return;
    if (templates.isOpen()) {
      needsTree |= !templates.end(name);
      return;
    }
    switch (name) {
      case "head" -> {
        if (mode == IN_HEAD) mode = AFTER_HEAD;
      }
      case "noscript" -> {
        if (mode == IN_HEAD_NOSCRIPT) mode = IN_HEAD;
        else if (bodyNoscripts > 0) bodyNoscripts--;
      }
      case "body", "html" -> {
        if (mode == IN_HEAD || mode == AFTER_HEAD) mode = IN_BODY;
      }
      case "br" -> {
        mode = IN_BODY;
      }
      case "td", "th", "caption", "tr", "tbody", "thead", "tfoot" -> {
        if (tableDepth > 0) tables[tableDepth - 1] = TABLE_ROWS;
      }
      case "table" -> {
        if (tableDepth > 0) tableDepth--;
      }
      default -> {}
    }
  }

  @Override
  public void text() {
    mode = IN_BODY;
  }

  @Override
  public boolean wantsText() {
    return mode != IN_BODY && !templates.isOpen();
  }

  @Override
  public boolean cdataAllowed() {
    return depth > 0 && spaces[depth - 1] != HTML;
  }

  @Override
  public boolean done() {
    return needsTree;
  }

  /**
   * An end tag while foreign content is open (HTML 13.2.6.5): it closes the innermost open element of
   * its name, or is for the HTML rules; returns whether they read it too. Where those would need the
   * HTML elements around (an end tag matching no element open here, or one that would be ignored
   * because an HTML element in an integration point is open), the page needs a tree.
   */
  private boolean foreignEndTag(String name) {
    if ((name.equals("p") || name.equals("br")) && spaces[depth - 1] != HTML) {
      // HTML ends foreign content up to an HTML element or integration point here; jsoup does not.
      needsTree = true;
      return false;
    }
    for (int k = depth - 1; k >= 0; k--) {
      if (names[k].equals(name)) {
        while (depth > k) pop();
        return false;
      }
      if (spaces[k] == HTML) break; // the HTML rules would decide, on elements this scan does not keep
    }
    needsTree = true;
    return false;
  }

  /** The insertion modes before the body (HTML 13.2.6.4.4–13.2.6.4.6), scripting off. */
  private void enterHead(String name) {
    if (mode == IN_HEAD_NOSCRIPT) {
      switch (name) {
        case "html", "basefont", "bgsound", "link", "meta", "noframes", "style", "head", "noscript" -> {
          return;
        }
        default -> mode = IN_HEAD; // the noscript ends; the tag is read again in head
      }
    }
    if (mode == IN_HEAD) {
      switch (name) {
        case "html", "head", "base", "basefont", "bgsound", "link", "meta", "noframes", "script", "style",
            "template", "title" -> {}
        case "noscript" -> mode = IN_HEAD_NOSCRIPT;
        default -> mode = IN_BODY;
      }
    } else if (mode == AFTER_HEAD) {
      switch (name) {
        // Put back into the head (a parse error, but a canonical link there counts).
        case "html", "head", "base", "basefont", "bgsound", "link", "meta", "noframes", "script", "style",
            "template", "title" -> {}
        default -> mode = IN_BODY;
      }
    }
  }

  /**
   * Where in a table the tags are, to see foster parenting coming: a link there goes before the
   * table; any other element (which may hold links, and which table tags after it may close) is left
   * to the tree.
   */
  private void table(String name) {
    switch (name) {
      case "table" -> {
        // A table directly in a table ends it first.
        if (!fosterParenting()) {
          if (tableDepth == tables.length) {
            tables = Arrays.copyOf(tables, tableDepth * 2);
            fosterAt = Arrays.copyOf(fosterAt, tableDepth * 2);
          }
          tables[tableDepth++] = TABLE_ROWS;
        }
        fosterAt[tableDepth - 1] = targets.size();
      }
      case "td", "th", "caption" -> {
        if (tableDepth > 0) tables[tableDepth - 1] = TABLE_CELL;
      }
      case "tr", "tbody", "thead", "tfoot", "colgroup", "col" -> {
        if (tableDepth > 0) tables[tableDepth - 1] = TABLE_ROWS;
      }
      case "a", "area", "iframe", "input", "form", "script", "style", "template" -> {}
      default -> needsTree |= fosterParenting();
    }
  }

  /** Whether an element here goes before the table in the tree (HTML 13.2.6.1, foster parenting). */
  private boolean fosterParenting() {
    return tableDepth > 0 && tables[tableDepth - 1] == TABLE_ROWS;
  }

  private boolean addTarget(Tag tag, String attribute) {
    String value = tag.value(attribute);
    if (value == null) return false;
    if (!fosterParenting()) {
      targets.add(value);
    } else if (targets.size() - fosterAt[tableDepth - 1] > MAX_FOSTER_SHIFT) {
      needsTree = true; // each insertion would move that many: quadratic on a hostile page
    } else {
      targets.add(fosterAt[tableDepth - 1]++, value);
    }
    return true;
  }

  private void push(String name, byte space, boolean htmlIntegrationPoint) {
    if (depth == names.length) {
      names = Arrays.copyOf(names, depth * 2);
      spaces = Arrays.copyOf(spaces, depth * 2);
      htmlIntegrationPoints = Arrays.copyOf(htmlIntegrationPoints, depth * 2);
    }
    names[depth] = name;
    spaces[depth] = space;
    htmlIntegrationPoints[depth] = htmlIntegrationPoint;
    depth++;
  }

  private void pop() {
    depth--;
  }

  private boolean isMathTextIntegrationPoint(int at) {
    if (spaces[at] != MATH) return false;
    return switch (names[at]) {
      case "mi", "mo", "mn", "ms", "mtext" -> true;
      default -> false;
    };
  }

  /** SVG foreignObject, desc, title; MathML annotation-xml holding HTML. */
  private static boolean isHtmlIntegrationPoint(byte space, Tag tag) {
    String name = tag.name();
    if (space == SVG) return name.equals("foreignobject") || name.equals("desc") || name.equals("title");
    if (!name.equals("annotation-xml")) return false;
    String encoding = tag.valueOrEmpty("encoding");
    return encoding.equalsIgnoreCase("text/html") || encoding.equalsIgnoreCase("application/xhtml+xml");
  }

  /** HTML 13.2.6.5: the start tags that end foreign content. */
  private static boolean breaksOutOfForeignContent(Tag tag) {
    return switch (tag.name()) {
      case "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed",
          "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr",
          "ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u",
          "ul", "var" -> true;
      case "font" -> tag.has("color") || tag.has("face") || tag.has("size");
      default -> false;
    };
  }

  private static boolean isVoid(String name) {
    return switch (name) {
      case "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen",
          "link", "meta", "param", "source", "track", "wbr" -> true;
      default -> false;
    };
  }

  @Override
  public SequencedSet<String> hrefs() {
    if (hrefs == null) hrefs = new LinkedHashSet<>(targets);
    return hrefs;
  }

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

  @Override
  public int robots() {
    return robots;
  }
}
