package org.forager.url;

/**
 * Percent-encodes path and query text the WHATWG way and normalizes the escapes already there
 * (RFC 3986 section 6.2.2.1 and 6.2.2.2). Stateless.
 *
 * <p>Code points are encoded as UTF-8 (WHATWG "UTF-8 percent-encode"); a lone surrogate counts as
 * U+FFFD, as it would once the string became a USVString in a browser. An existing escape {@code %XY}
 * gets upper-case hex digits, and is decoded when it stands for an unreserved character (ALPHA DIGIT
 * {@code - . _ ~}). A {@code %} that starts no escape is kept as WHATWG keeps it.
 */
final class PercentEncoding {

  /** WHATWG path percent-encode set, restricted to ASCII (every code point above U+007E is in every set). */
  static final int PATH = 1;
  /** WHATWG special-query percent-encode set (the query set plus {@code '}), for http and https. */
  static final int SPECIAL_QUERY = 2;

  // Bit PATH and/or SPECIAL_QUERY set for the ASCII characters that must be encoded in that component.
  private static final byte[] ENCODE = new byte[128];
  // True for RFC 3986 unreserved characters.
  private static final boolean[] UNRESERVED = new boolean[128];
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  static {
    for (int c = 0; c <= 0x20; c++) ENCODE[c] = PATH | SPECIAL_QUERY;
    ENCODE[0x7F] = PATH | SPECIAL_QUERY;
    for (char c : "\"#<>".toCharArray()) ENCODE[c] = PATH | SPECIAL_QUERY;
    for (char c : "?^`{}".toCharArray()) ENCODE[c] |= PATH;
    ENCODE['\''] |= SPECIAL_QUERY;
    for (int c = 'a'; c <= 'z'; c++) UNRESERVED[c] = true;
    for (int c = 'A'; c <= 'Z'; c++) UNRESERVED[c] = true;
    for (int c = '0'; c <= '9'; c++) UNRESERVED[c] = true;
    for (char c : "-._~".toCharArray()) UNRESERVED[c] = true;
  }

  private PercentEncoding() {}

  /** Appends {@code s[from, to)} to {@code out}, encoding what {@code set} says and normalizing escapes. */
  static void append(StringBuilder out, CharSequence s, int from, int to, int set) {
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        if (c == '%') {
          i = appendEscape(out, s, i, to);
        } else if ((ENCODE[c] & set) != 0) {
          appendByte(out, c);
        } else {
          out.append(c);
        }
      } else if (c < 0x800) {
        appendByte(out, 0xC0 | (c >> 6));
        appendByte(out, 0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        appendByte(out, 0xF0 | (cp >> 18));
        appendByte(out, 0x80 | ((cp >> 12) & 0x3F));
        appendByte(out, 0x80 | ((cp >> 6) & 0x3F));
        appendByte(out, 0x80 | (cp & 0x3F));
      } else {
        int cp = Character.isSurrogate(c) ? 0xFFFD : c;
        appendByte(out, 0xE0 | (cp >> 12));
        appendByte(out, 0x80 | ((cp >> 6) & 0x3F));
        appendByte(out, 0x80 | (cp & 0x3F));
      }
    }
  }

  /** Handles the {@code %} at {@code i}; returns the index of the last character consumed. */
  private static int appendEscape(StringBuilder out, CharSequence s, int i, int to) {
    int hi = i + 2 < to ? hexValue(s.charAt(i + 1)) : -1;
    int lo = hi >= 0 ? hexValue(s.charAt(i + 2)) : -1;
    if (lo < 0) {
      out.append('%');
      return i;
    }
    int b = hi << 4 | lo;
    if (b < 0x80 && UNRESERVED[b] && !(hexValue((char) b) >= 0 && endsWithOpenEscape(out))) {
      out.append((char) b);
    } else {
      appendByte(out, b);
    }
    return i + 2;
  }

  /**
   * Whether {@code out} ends in a stray {@code %} or {@code %X}: decoding a hex digit next would forge a
   * new escape, and normalizing the result again would change it. Keeping the escape keeps this idempotent.
   */
  private static boolean endsWithOpenEscape(StringBuilder out) {
    int n = out.length();
    if (n >= 1 && out.charAt(n - 1) == '%') return true;
    return n >= 2 && out.charAt(n - 2) == '%' && hexValue(out.charAt(n - 1)) >= 0;
  }

  static void appendByte(StringBuilder out, int b) {
    out.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
  }

  static int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }
}
