package org.forager.extract;

import java.util.Arrays;

/**
 * A document's text as {@link HtmlTokenizer} reads it: the ASCII characters that delimit markup, found
 * by position, and the decoded text of the few ranges it keeps (tag names, attribute values). Two kinds:
 * the page's bytes in an encoding where every byte below 0x80 is that ASCII character ({@link
 * ByteMarkup}), and decoded text ({@link StringMarkup}). Positions are indices into the bytes or the
 * chars; every ASCII character of the decoded text is at a position of its own, in order, and a range
 * bounded by ASCII characters (or the ends) decodes to the same text as that range of the whole page
 * decoded, so both kinds read a page alike. Immutable.
 */
abstract sealed class Markup permits ByteMarkup, StringMarkup {

  // Classes of characters for until(): bit sets, combined with |.
  /** ASCII whitespace (HTML: tab, LF, FF, CR, space; a CR becomes LF, whitespace too). */
  static final int SPACE = 1;
  static final int SOLIDUS = 2;
  static final int GREATER_THAN = 4;
  static final int EQUALS = 8;
  static final int AMPERSAND = 16;
  static final int NUL = 32;
  /** Every character but whitespace, non-ASCII ones too. */
  static final int NON_SPACE = 64;

  /** The classes of each byte value; every char from 0x80 on is in those of 0xFF. */
  static final byte[] CLASSES = new byte[256];

  static {
    Arrays.fill(CLASSES, (byte) NON_SPACE);
    for (char c : new char[] {'\t', '\n', '\f', '\r', ' '}) CLASSES[c] = SPACE;
    CLASSES['/'] |= SOLIDUS;
    CLASSES['>'] |= GREATER_THAN;
    CLASSES['='] |= EQUALS;
    CLASSES['&'] |= AMPERSAND;
    CLASSES[0] |= NUL;
  }

  /** The first position of the document. */
  final int start;

  /** The position after the last. */
  final int end;

  Markup(int start, int end) {
    this.start = start;
    this.end = end;
  }

  /** The character at {@code i} when it is ASCII; any other reads as some value of 0x80 or more. */
  abstract int at(int i);

  /** The first position at or after {@code from} holding the ASCII character {@code c}, or -1. */
  abstract int indexOf(int c, int from);

  /**
   * The first position in {@code [from, to)} holding a character of one of the {@code classes} ({@link
   * #SPACE}, …), or {@code to}: the tokenizer's scans, a loop of each implementation's own (the JIT then
   * checks which one once per scan, not per character).
   */
  abstract int until(int from, int to, int classes);

  /** The decoded text of {@code [from, to)}; malformed bytes are U+FFFD, as in the whole page decoded. */
  abstract String text(int from, int to);

  /** Appends {@link #text} of {@code [from, to)} to {@code out}. */
  abstract void appendText(StringBuilder out, int from, int to);

  /** The first position in {@code [from, to)} where the ASCII text {@code ascii} starts and fits, or -1. */
  int indexOf(String ascii, int from, int to) {
    char first = ascii.charAt(0);
    int last = to - ascii.length();
    for (int i = indexOf(first, from); i >= 0 && i <= last; i = indexOf(first, i + 1)) {
      if (startsWith(ascii, i)) return i;
    }
    return -1;
  }

  /** Whether the ASCII text {@code ascii} is at {@code i}. */
  boolean startsWith(String ascii, int i) {
    if (i + ascii.length() > end) return false;
    for (int k = 0; k < ascii.length(); k++) {
      if (at(i + k) != ascii.charAt(k)) return false;
    }
    return true;
  }

  /** Whether {@code upperCase} (ASCII letters) is at {@code i}, ignoring ASCII case only. */
  boolean startsWithIgnoreCase(String upperCase, int i) {
    if (i + upperCase.length() > end) return false;
    for (int k = 0; k < upperCase.length(); k++) {
      int c = at(i + k);
      if (c >= 'a' && c <= 'z') c -= 'a' - 'A';
      if (c != upperCase.charAt(k)) return false;
    }
    return true;
  }

  /**
   * The tag name in {@code [from, to)}, ASCII lower-cased, a NUL as U+FFFD (HTML 13.2.5.8); the common
   * names without a copy.
   */
  String tagName(int from, int to) {
    String known = TagNames.lookup(this, from, to);
    return known != null ? known : TagNames.lowerCase(text(from, to));
  }
}
