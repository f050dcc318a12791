package org.forager.url;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The WHATWG host parser for special schemes (URL Standard, "host parsing"): IPv6 literals, then
 * percent-decoding, the domain parser, forbidden domain code points, and IPv4 in its number forms. Stateless.
 *
 * <p>The domain parser follows the standard as of July 2026 (after whatwg/url PR 914): a domain that is
 * ASCII once percent-decoded is only lower-cased, even when a label starts with {@code xn--} and is not
 * valid Punycode; any other goes through UTS #46 ToASCII, non-transitional, in {@link Idna}. Pure ASCII
 * labels may be longer than 63 characters, as the standard allows.
 */
final class HostParser {

  // Forbidden domain code points among ASCII: C0 controls, space, # % / : < > ? @ [ \ ] ^ | and DEL.
  private static final boolean[] FORBIDDEN = new boolean[128];

  static {
    for (int c = 0; c <= 0x20; c++) FORBIDDEN[c] = true;
    for (char c : "#%/:<>?@[\\]^|".toCharArray()) FORBIDDEN[c] = true;
    FORBIDDEN[0x7F] = true;
  }

  private HostParser() {}

  /** Parses {@code s[from, to)} as the host of an http(s) URL and appends its serialization; false on failure. */
  static boolean parse(CharSequence s, int from, int to, StringBuilder out) {
    if (from == to) return false;
    if (s.charAt(from) == '[') {
      if (s.charAt(to - 1) != ']' || to - from < 2) return false;
      return Ipv6Parser.parseAndSerialize(s, from + 1, to - 1, out);
    }
    int start = out.length();
    if (isPlainAscii(s, from, to)) {
      for (int i = from; i < to; i++) {
        char c = s.charAt(i);
        out.append(c >= 'A' && c <= 'Z' ? (char) (c + 0x20) : c);
      }
    } else if (!appendUnicode(percentDecode(s, from, to), out)) {
      return false;
    }
    return finishAscii(out, start);
  }

  /** Checks the ASCII domain in {@code out[start, end)} and rewrites it when it is an IPv4 address. */
  private static boolean finishAscii(StringBuilder out, int start) {
    int end = out.length();
    if (start == end) return false;
    for (int i = start; i < end; i++) {
      char c = out.charAt(i);
      if (c >= 0x80 || FORBIDDEN[c]) return false;
    }
    if (Ipv4Parser.endsInNumber(out, start, end)) {
      long address = Ipv4Parser.parse(out, start, end);
      if (address == Ipv4Parser.FAILURE) return false;
      out.setLength(start);
      Ipv4Parser.serialize(address, out);
    }
    return true;
  }

  private static boolean isPlainAscii(CharSequence s, int from, int to) {
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c >= 0x80 || c == '%') return false;
    }
    return true;
  }

  /** UTF-8 decode (without BOM, invalid sequences as U+FFFD) of the percent-decoding of the host. */
  private static String percentDecode(CharSequence s, int from, int to) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(to - from);
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c == '%' && i + 2 < to
          && PercentEncoding.hexValue(s.charAt(i + 1)) >= 0 && PercentEncoding.hexValue(s.charAt(i + 2)) >= 0) {
        bytes.write(PercentEncoding.hexValue(s.charAt(i + 1)) << 4 | PercentEncoding.hexValue(s.charAt(i + 2)));
        i += 2;
      } else if (c < 0x80) {
        bytes.write(c);
      } else {
        // One code point as UTF-8; a lone surrogate counts as U+FFFD, as in a USVString.
        int end = Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1)) ? i + 2 : i + 1;
        String codePoint = Character.isSurrogate(c) && end == i + 1 ? "\uFFFD" : s.subSequence(i, end).toString();
        bytes.writeBytes(codePoint.getBytes(StandardCharsets.UTF_8));
        i = end - 1;
      }
    }
    return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
  }

  /** The domain parser (not strict) on a decoded host; appends the result, lower-case. */
  private static boolean appendUnicode(String domain, StringBuilder out) {
    boolean ascii = true;
    for (int i = 0; i < domain.length() && ascii; i++) ascii = domain.charAt(i) < 0x80;
    if (!ascii) return Idna.toAscii(domain, out);
    for (int i = 0; i < domain.length(); i++) {
      char c = domain.charAt(i);
      out.append(c >= 'A' && c <= 'Z' ? (char) (c + 0x20) : c);
    }
    return true;
  }
}
