package org.forager.url;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Percent-encodes path and query text the WHATWG way and normalizes the escapes already there
 * (RFC 3986 section 6.2.2.1 and 6.2.2.2). Stateless.
 *
 * <p>Code points are encoded as UTF-8 (WHATWG "UTF-8 percent-encode"); a lone surrogate counts as
 * U+FFFD, as it would once the string became a USVString in a browser. An existing escape {@code %XY}
 * gets upper-case hex digits, and is decoded when it stands for an unreserved character (ALPHA DIGIT
 * {@code - . _ ~}). A {@code %} that starts no escape is kept as WHATWG keeps it.
 *
 * <p>A query may be in another encoding ({@link #appendQuery}): the URL Standard's "percent-encode after
 * encoding", where the bytes of the encoding are percent-encoded instead of UTF-8's.
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
        i = appendAscii(out, s, i, to, set);
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

  /**
   * Appends the query {@code s[from, to)} encoded with {@code encoding} (an output encoding, see {@link
   * #outputEncoding}): characters it cannot represent become {@code %26%23N%3B}, the {@code &#N;} of HTML
   * form submission, as the URL Standard says.
   */
  static void appendQuery(StringBuilder out, CharSequence s, int from, int to, Charset encoding) {
    if (encoding.equals(StandardCharsets.UTF_8) || isAscii(s, from, to)) {
      // ASCII is the same in every output encoding, as long as an encoder starts in its ASCII state.
      append(out, s, from, to, SPECIAL_QUERY);
      return;
    }
    CharsetEncoder encoder = encoding.newEncoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    // The standard encodes a scalar value string: a lone surrogate is U+FFFD before the encoder sees it, so
    // an encoding that has U+FFFD (gb18030: 84 31 A4 37) writes its bytes, not the &#65533; of one that has not.
    CharBuffer in = CharBuffer.wrap(scalarValues(s, from, to));
    ByteBuffer bytes = ByteBuffer.allocate(Math.max(16, (int) ((to - from) * encoder.maxBytesPerChar())));
    while (true) {
      CoderResult result = encoder.encode(in, bytes, true);
      if (result.isUnderflow()) result = encoder.flush(bytes);
      appendBytes(out, bytes);
      if (result.isUnderflow()) return;
      if (result.isError()) { // unmappable: the input holds no lone surrogate to be malformed
        int position = in.position();
        int cp = Character.codePointAt(in, 0);
        in.position(position + result.length());
        out.append("%26%23").append(cp).append("%3B");
      }
      // On overflow the bytes were drained above; go on.
    }
  }

  /** {@code s[from, to)} with each lone surrogate replaced by U+FFFD (itself when it has none). */
  private static CharSequence scalarValues(CharSequence s, int from, int to) {
    StringBuilder replaced = null;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (!Character.isSurrogate(c)) continue;
      if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
        continue;
      }
      if (replaced == null) replaced = new StringBuilder(to - from).append(s, from, to);
      replaced.setCharAt(i - from, '\uFFFD');
    }
    return replaced != null ? replaced : s.subSequence(from, to);
  }

  /** The encoding URLs use for a document in {@code charset}: UTF-8 for UTF-16 and UTF-32, as HTML says. */
  static Charset outputEncoding(Charset charset) {
    String name = charset.name();
    return name.startsWith("UTF-16") || name.startsWith("UTF-32") || !charset.canEncode()
        ? StandardCharsets.UTF_8 : charset;
  }

  /** Appends the encoder's bytes as the query set says, ASCII bytes as ASCII, and clears the buffer. */
  private static void appendBytes(StringBuilder out, ByteBuffer bytes) {
    bytes.flip();
    // Bytes as the code points of the same value ("isomorph"), so escapes spanning them are seen whole.
    StringBuilder isomorph = new StringBuilder(bytes.remaining());
    while (bytes.hasRemaining()) isomorph.append((char) (bytes.get() & 0xFF));
    bytes.clear();
    for (int i = 0; i < isomorph.length(); i++) {
      char c = isomorph.charAt(i);
      if (c < 0x80) {
        i = appendAscii(out, isomorph, i, isomorph.length(), SPECIAL_QUERY);
      } else {
        appendByte(out, c);
      }
    }
  }

  /** Appends the ASCII character at {@code i}; returns the index of the last character consumed. */
  private static int appendAscii(StringBuilder out, CharSequence s, int i, int to, int set) {
    char c = s.charAt(i);
    if (c == '%') return appendEscape(out, s, i, to);
    if ((ENCODE[c] & set) != 0) {
      appendByte(out, c);
    } else {
      out.append(c);
    }
    return i;
  }

  private static boolean isAscii(CharSequence s, int from, int to) {
    for (int i = from; i < to; i++) {
      if (s.charAt(i) >= 0x80) return false;
    }
    return true;
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
