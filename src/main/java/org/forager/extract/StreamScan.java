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
 * DOM (docs/extraction.md), with just the tree construction they need (WHATWG HTML 13.2.6): the
 * insertion modes up to the body (in head, in head noscript with scripting off, after head), so that a
 * {@code <link rel=canonical>} counts only as a child of the head; template content ({@link
 * TemplateContent}), which is not the page; SVG foreign content ({@link SvgContent}: {@code <svg><a>} is
 * an SVG link, {@code <svg><iframe>} no frame, no raw text in it, CDATA only there); and foster parenting
 * (HTML 13.2.6.1): a link in a table outside its cells is put before the table. A {@code <select>} keeps
 * the elements in it, as HTML and browsers do since the customizable select (jsoup drops them).
 *
 * <p>Where the tree decides more than that (a frameset, a declarative shadow root, MathML, foreign
 * content HTML ends, other elements foster-parented; the list is in docs/extraction.md), the scan stops
 * and the caller reads the page from jsoup's DOM; or, for a page too large for the tree ({@link #whole}),
 * goes on to the end as well as it can. One instance per document; not thread-safe.
 */
final class StreamScan implements HtmlTokenizer.Handler, DocumentScan {

  /** Links a foster-parented link may be inserted before; past that, the tree reads the page. */
  private static final int MAX_FOSTER_SHIFT = 1024;

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
  private final RefreshUrls refreshes = new RefreshUrls();
  private int robots;
  private boolean needsTree;
  /** Whether to read on where the page needs a tree ({@link #whole}). */
  private final boolean toTheEnd;

  private int mode = IN_HEAD;
  private int openNoscripts; // start tags less end tags, as jsoup keeps them open
  private final TemplateContent templates = new TemplateContent();
  private final SvgContent svg = new SvgContent();
  private byte[] tables = new byte[4];
  private int[] fosterAt = new int[4]; // per open table: where in targets a foster-parented link goes
  private boolean[] fostered = new boolean[4]; // per open table: whether a link went there
  private int tableDepth;

  private StreamScan(String productToken, boolean toTheEnd) {
    this.productToken = productToken;
    this.toTheEnd = toTheEnd;
  }

  /** The scan of {@code html}, or empty when the page needs a tree to be read right. */
  static Optional<DocumentScan> of(String html, String productToken) {
    return of(new StringMarkup(html), productToken);
  }

  /** The scan of a page's {@code markup}, or empty when the page needs a tree to be read right. */
  static Optional<DocumentScan> of(Markup markup, String productToken) {
    StreamScan scan = new StreamScan(productToken, false);
    new HtmlTokenizer(markup, scan).run();
    return scan.needsTree ? Optional.empty() : Optional.of(scan);
  }

  /**
   * The scan of a page's {@code markup} to its end, even where it needs a tree to be read right: for a
   * page too large for jsoup's tree, whose builder is quadratic on some markup. Where the tree would
   * decide, the scan reads on as if it did not: links come in the order they are written, and those the
   * tree would read otherwise (in MathML, in foreign content the tree ends) may differ.
   */
  static DocumentScan whole(Markup markup, String productToken) {
    StreamScan scan = new StreamScan(productToken, true);
    new HtmlTokenizer(markup, scan).run();
    return scan;
  }

  @Override
  public int startTag(Tag tag) {
    if (svg.isOpen() && !svg.htmlRulesApply()) return foreignStartTag(tag);
    return htmlStartTag(tag);
  }

  /** HTML 13.2.6.5, "any other start tag" in foreign content; an SVG {@code a} is a link. */
  private int foreignStartTag(Tag tag) {
    if (!svg.foreignStart(tag)) {
      needsTree = true;
      return HtmlTokenizer.DATA;
    }
    if (tag.name().equals("a") && !templates.isOpen()) {
      // SVG 2: href wins over the older xlink:href.
      if (!Tokens.contains(tag.valueOrEmpty("rel"), "nofollow") && !addTarget(tag, "href")) addTarget(tag, "xlink:href");
    }
    return HtmlTokenizer.DATA;
  }

  /** The HTML rules ("in head", "in body", …) as far as links, base, canonical and robots need them. */
  private int htmlStartTag(Tag tag) {
    String name = tag.name();
    boolean live = !templates.isOpen();
    if (live && mode != IN_BODY) enterHead(name);
    if (live && name.equals("noscript")) openNoscripts++;
    // jsoup makes a head in a noscript in the body, and a canonical link after it counts.
    if (live && mode == IN_BODY && name.equals("head")) needsTree |= openNoscripts > 0;
    if (live) table(name);
    if (svg.isOpen()) {
      if (!name.equals("svg")) needsTree |= !svg.htmlStart(name, isVoid(name));
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
        if (!svg.isOpen()) templates.openTemplate();
      }
      case "base" -> {
        if (live && baseHref == null && tag.has("href")) baseHref = tag.value("href");
      }
      case "link" -> {
        // Only a child of the head counts (as for Google): a canonical link in the body may come from
        // user content and would let it claim the page.
        if (live && canonicalHref == null && !svg.isOpen() && (mode == IN_HEAD || mode == AFTER_HEAD)
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
          if (MetaRefresh.isRefresh(tag.valueOrEmpty("http-equiv"))) refreshes.read(tag.valueOrEmpty("content"));
        }
      }
      case "svg" -> {
        // An SVG in the HTML of an integration point: jsoup reads its CDATA as a bogus comment. One
        // foster-parented in template content: as any element there (TemplateContent).
        if (svg.isOpen() || templates.fosters()) needsTree = true;
        else svg.openSvg(tag);
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
    if (svg.isOpen()) {
      needsTree |= !svg.end(name);
      return;
    }
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
        if (openNoscripts > 0) openNoscripts--;
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
    if (!svg.cdataAllowed()) return false;
    // jsoup reads CDATA in an SVG in a noscript as a bogus comment: the tree keeps that reading.
    needsTree |= openNoscripts > 0;
    return true;
  }

  @Override
  public boolean done() {
    return needsTree && !toTheEnd;
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
            fostered = Arrays.copyOf(fostered, tableDepth * 2);
          }
          tables[tableDepth++] = TABLE_ROWS;
        }
        fosterAt[tableDepth - 1] = targets.size();
        fostered[tableDepth - 1] = false;
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
    addTarget(value);
    return true;
  }

  private void addTarget(String value) {
    if (!fosterParenting()) {
      targets.add(value);
    } else if (fostered[tableDepth - 1] || targets.size() - fosterAt[tableDepth - 1] > MAX_FOSTER_SHIFT) {
      // A second one may be placed by the adoption agency (an open <a> before it), where jsoup and HTML
      // part ways; and a long shift bounds the cost. Read to the end, it is taken where it comes.
      needsTree = true;
      if (toTheEnd) targets.add(value);
    } else {
      targets.add(fosterAt[tableDepth - 1], value);
      fostered[tableDepth - 1] = true;
    }
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
  public List<String> refreshUrls() {
    return refreshes.urls();
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
