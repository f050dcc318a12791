package org.forager.url;

import java.io.ByteArrayOutputStream;
import java.net.IDN;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The WHATWG host parser for special schemes (URL Standard, "host parsing"): IPv6 literals, then
 * percent-decoding, domain to ASCII, forbidden domain code points, and IPv4 in its number forms. Stateless.
 *
 * <p>Domain to ASCII uses {@link IDN#toASCII(String, int)}, which implements IDNA2003 (RFC 3490) over
 * Unicode 3.2, where the URL Standard asks for UTS #46 non-transitional processing. They agree for
 * ASCII and for most internationalized names; they differ on deviation characters (IDNA2003 maps
 * {@code ß} to {@code ss} and {@code ς} to {@code σ}, and deletes ZWJ and ZWNJ, where UTS #46 keeps
 * them), on code points assigned after Unicode 3.2 (allowed here, as unassigned), on symbols and
 * emoji that UTS #46 disallows, and on the bidi and joiner rules. Pure ASCII hosts never go through
 * {@code IDN}: their labels may be longer than 63 characters, as the URL Standard allows.
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
    if (!punycodeLabelsValid(out, start, end)) return false;
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

  /** Domain to ASCII of a decoded host; appends the result, lower-case. */
  private static boolean appendUnicode(String domain, StringBuilder out) {
    boolean ascii = true;
    for (int i = 0; i < domain.length() && ascii; i++) ascii = domain.charAt(i) < 0x80;
    Optional<String> converted = ascii ? Optional.of(domain) : toAscii(domain);
    if (converted.isEmpty()) return false;
    String result = converted.get();
    for (int i = 0; i < result.length(); i++) {
      char c = result.charAt(i);
      out.append(c >= 'A' && c <= 'Z' ? (char) (c + 0x20) : c);
    }
    return true;
  }

  /** {@link IDN#toASCII(String, int)}, empty when it refuses the name. */
  private static Optional<String> toAscii(String domain) {
    try {
      return Optional.of(IDN.toASCII(domain, IDN.ALLOW_UNASSIGNED));
    } catch (RuntimeException e) {
      // Not only IllegalArgumentException: a label over 1000 UTF-16 units makes the JDK's Punycode
      // encoder throw a bare RuntimeException ("input too long"), found by UrlNormalizerFuzz.
      return Optional.empty();
    }
  }

  /** UTS #46 rejects an {@code xn--} label that is not valid Punycode of a valid label. */
  private static boolean punycodeLabelsValid(StringBuilder out, int start, int end) {
    int labelStart = start;
    for (int i = start; i <= end; i++) {
      if (i < end && out.charAt(i) != '.') continue;
      if (i - labelStart >= 4 && out.charAt(labelStart) == 'x' && out.charAt(labelStart + 1) == 'n'
          && out.charAt(labelStart + 2) == '-' && out.charAt(labelStart + 3) == '-') {
        String label = out.substring(labelStart, i);
        String unicode = IDN.toUnicode(label, IDN.ALLOW_UNASSIGNED);
        // toUnicode gives its input back when decoding fails, and decodes what does not round-trip.
        if (unicode.equals(label)) return false;
        if (!toAscii(unicode).map(label::equalsIgnoreCase).orElse(false)) return false;
      }
      labelStart = i + 1;
    }
    return true;
  }
}
