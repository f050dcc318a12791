package org.forager.extract;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Decides how to decode a page's bytes, in the order of the HTML standard's encoding sniffing
 * algorithm (WHATWG HTML 13.2.3.2): a byte order mark, then the Content-Type header's
 * {@code charset} parameter, then a {@code <meta>} declaration found by prescanning the first
 * bytes, else UTF-8. Names Java does not know are skipped, never an error. Stateless and
 * thread-safe.
 */
final class Charsets {

  /** The decision: decode {@code body} from {@code bomLength} on with {@code charset}. */
  record Decision(Charset charset, int bomLength) {}

  private Charsets() {}

  static Decision detect(byte[] body, Optional<String> contentType) {
    Decision bom = fromBom(body);
    if (bom != null) return bom;
    Optional<Charset> declared = contentType.flatMap(Charsets::fromContentType)
        .or(() -> MetaCharsetPrescan.scan(body));
    return new Decision(declared.orElse(StandardCharsets.UTF_8), 0);
  }

  private static Decision fromBom(byte[] b) {
    if (b.length >= 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF) {
      return new Decision(StandardCharsets.UTF_8, 3);
    }
    if (b.length >= 2 && (b[0] & 0xFF) == 0xFE && (b[1] & 0xFF) == 0xFF) {
      return new Decision(StandardCharsets.UTF_16BE, 2);
    }
    if (b.length >= 2 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xFE) {
      return new Decision(StandardCharsets.UTF_16LE, 2);
    }
    return null;
  }

  /**
   * The {@code charset} parameter of a Content-Type value (RFC 9110 section 8.3), quoted or not,
   * when Java supports it.
   */
  static Optional<Charset> fromContentType(String contentType) {
    int n = contentType.length();
    int i = contentType.indexOf(';');
    while (i >= 0 && i < n) {
      i++;
      while (i < n && Tokens.isSpace(contentType.charAt(i))) i++;
      int end = contentType.indexOf(';', i);
      if (end < 0) end = n;
      if (contentType.regionMatches(true, i, "charset", 0, 7)) {
        int j = i + 7;
        while (j < end && Tokens.isSpace(contentType.charAt(j))) j++;
        if (j < end && contentType.charAt(j) == '=') {
          String value = contentType.substring(j + 1, end).strip();
          if (value.length() >= 2 && value.charAt(0) == '"' && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
          }
          return lookup(value);
        }
      }
      i = end;
    }
    return Optional.empty();
  }

  /** The charset Java knows by this name or alias; empty for unknown or illegal names. */
  static Optional<Charset> lookup(String name) {
    String label = name.strip();
    if (label.isEmpty()) return Optional.empty();
    try {
      return Optional.of(Charset.forName(label));
    } catch (IllegalArgumentException unknownOrIllegal) {
      return Optional.empty();
    }
  }
}
