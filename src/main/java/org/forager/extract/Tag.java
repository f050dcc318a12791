package org.forager.extract;

/**
 * A start or end tag token as {@link HtmlTokenizer} reads it: its lower-cased name, whether it is
 * self-closing, and where each attribute's name and value are in the source. Values are decoded only
 * when asked for; a repeated attribute counts once, the first time (HTML drops later ones). Reused
 * from tag to tag; not thread-safe.
 */
final class Tag {

  private final Markup source;
  private String name = "";
  private boolean selfClosing;
  private int count;
  // Per attribute: name start, name end, value start, value end (-1, -1 when it has no value).
  private int[] ranges = new int[4 * 16];

  Tag(Markup source) {
    this.source = source;
  }

  void reset(String name) {
    this.name = name;
    this.selfClosing = false;
    this.count = 0;
  }

  void add(int nameStart, int nameEnd, int valueStart, int valueEnd) {
    if (4 * count + 4 > ranges.length) ranges = java.util.Arrays.copyOf(ranges, ranges.length * 2);
    int at = 4 * count++;
    ranges[at] = nameStart;
    ranges[at + 1] = nameEnd;
    ranges[at + 2] = valueStart;
    ranges[at + 3] = valueEnd;
  }

  void selfClosing() {
    selfClosing = true;
  }

  /** The tag name, ASCII lower-cased (a NUL in it is U+FFFD). */
  String name() {
    return name;
  }

  boolean isSelfClosing() {
    return selfClosing;
  }

  /** Whether the tag has the attribute {@code lowerCaseName}. */
  boolean has(String lowerCaseName) {
    return find(lowerCaseName) >= 0;
  }

  /** The decoded value of attribute {@code lowerCaseName} ("" when it has none), or null when absent. */
  String value(String lowerCaseName) {
    int at = find(lowerCaseName);
    if (at < 0) return null;
    if (ranges[at + 2] < 0) return "";
    return AttributeDecoder.decode(source, ranges[at + 2], ranges[at + 3]);
  }

  /** The decoded value, or "" when absent. */
  String valueOrEmpty(String lowerCaseName) {
    String value = value(lowerCaseName);
    return value == null ? "" : value;
  }

  private int find(String lowerCaseName) {
    int length = lowerCaseName.length();
    for (int at = 0; at < 4 * count; at += 4) {
      int start = ranges[at];
      if (ranges[at + 1] - start == length && asciiEqualsIgnoreCase(start, lowerCaseName)) return at;
    }
    return -1;
  }

  /** HTML lower-cases ASCII letters only: String.regionMatches(true, …) would also fold 'K' (U+212A) and 'ı'. */
  private boolean asciiEqualsIgnoreCase(int start, String lowerCase) {
    for (int k = 0; k < lowerCase.length(); k++) {
      int c = source.at(start + k);
      if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
      if (c != lowerCase.charAt(k)) return false;
    }
    return true;
  }
}
