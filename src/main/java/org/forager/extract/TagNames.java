package org.forager.extract;

/**
 * Tag names as HTML reads them (ASCII lower-cased, a NUL as U+FFFD), with the names of common elements
 * taken from a table instead of copied: most tags of a page are among them. Stateless.
 */
final class TagNames {

  /** The elements the reader's rules name, and those most pages are made of. */
  private static final String[] NAMES = {
    "a", "abbr", "address", "area", "article", "aside", "audio", "b", "base", "basefont", "bdi", "bdo",
    "bgsound", "big", "blockquote", "body", "br", "button", "canvas", "caption", "center", "circle", "cite",
    "clippath", "code", "col", "colgroup", "data", "datalist", "dd", "defs", "del", "desc", "details", "dfn",
    "dialog", "div", "dl", "dt", "ellipse", "em", "embed", "fieldset", "figcaption", "figure", "font",
    "footer", "foreignobject", "form", "frame", "frameset", "g", "h1", "h2", "h3", "h4", "h5", "h6", "head",
    "header", "hgroup", "hr", "html", "i", "iframe", "image", "img", "input", "ins", "kbd", "keygen", "label",
    "legend", "li", "line", "lineargradient", "link", "listing", "main", "map", "mark", "mask", "math",
    "menu", "meta", "meter", "nav", "nobr", "noembed", "noframes", "noscript", "object", "ol", "optgroup",
    "option", "output", "p", "param", "path", "picture", "plaintext", "polygon", "polyline", "pre",
    "progress", "q", "radialgradient", "rect", "ruby", "s", "samp", "script", "section", "select", "slot",
    "small", "source", "span", "stop", "strike", "strong", "style", "sub", "summary", "sup", "svg", "symbol",
    "table", "tbody", "td", "template", "text", "textarea", "tfoot", "th", "thead", "time", "title", "tr",
    "track", "tspan", "tt", "u", "ul", "use", "var", "video", "wbr", "xmp"
  };

  private static final int MAX_LENGTH = 16;
  private static final int MASK = 511;
  private static final String[] TABLE = new String[MASK + 1];

  static {
    for (String name : NAMES) {
      if (name.length() > MAX_LENGTH) throw new AssertionError(name);
      int i = name.hashCode() & MASK;
      while (TABLE[i] != null) i = (i + 1) & MASK;
      TABLE[i] = name;
    }
  }

  private TagNames() {}

  /** The table's name for the tag name in {@code [from, to)} of {@code markup}, or null when it has none. */
  static String lookup(Markup markup, int from, int to) {
    int length = to - from;
    if (length > MAX_LENGTH) return null;
    int hash = 0;
    for (int i = from; i < to; i++) {
      int c = markup.at(i);
      if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
      else if (c >= 0x80 || c == 0) return null;
      hash = 31 * hash + c; // String.hashCode of the lower-cased name
    }
    for (int i = hash & MASK; TABLE[i] != null; i = (i + 1) & MASK) {
      String name = TABLE[i];
      if (name.hashCode() == hash && name.length() == length && equalsIgnoringCase(markup, from, name)) return name;
    }
    return null;
  }

  /** {@code name} ASCII lower-cased, a NUL as U+FFFD; itself when that changes nothing. */
  static String lowerCase(String name) {
    for (int k = 0; k < name.length(); k++) {
      char c = name.charAt(k);
      if ((c >= 'A' && c <= 'Z') || c == '\0') return copyLowerCased(name);
    }
    return name;
  }

  private static String copyLowerCased(String name) {
    char[] chars = name.toCharArray();
    for (int k = 0; k < chars.length; k++) {
      if (chars[k] >= 'A' && chars[k] <= 'Z') chars[k] += 'a' - 'A';
      else if (chars[k] == '\0') chars[k] = '\uFFFD';
    }
    return new String(chars);
  }

  private static boolean equalsIgnoringCase(Markup markup, int from, String lowerCase) {
    for (int k = 0; k < lowerCase.length(); k++) {
      int c = markup.at(from + k);
      if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
      if (c != lowerCase.charAt(k)) return false;
    }
    return true;
  }
}
