package org.forager.extract;

import java.nio.charset.Charset;
import java.util.Optional;

/**
 * Decides how to decode a page's bytes, in the order of the HTML standard's encoding sniffing
 * algorithm (WHATWG HTML 13.2.3.2): a byte order mark, then the Content-Type header's
 * {@code charset} parameter, then a {@code <meta>} declaration found by prescanning the first
 * bytes, else UTF-8 when the bytes are valid UTF-8 and not all ASCII, and windows-1252 otherwise (as
 * browsers in most locales). Labels are the Encoding Standard's ({@link EncodingLabels}); an unknown label is
 * skipped, never an error. Stateless and thread-safe.
 */
final class Charsets {

  /** The decision: decode {@code body} from {@code bomLength} on with {@code encoding}. */
  record Decision(WebEncoding encoding, int bomLength) {

    Charset charset() {
      return encoding.charset();
    }
  }

  static final WebEncoding UTF_8 = EncodingLabels.lookup("utf-8").orElseThrow();
  static final WebEncoding WINDOWS_1252 = EncodingLabels.lookup("windows-1252").orElseThrow();
  private static final WebEncoding UTF_16BE = EncodingLabels.lookup("utf-16be").orElseThrow();
  private static final WebEncoding UTF_16LE = EncodingLabels.lookup("utf-16le").orElseThrow();

  private Charsets() {}

  static Decision detect(byte[] body, Optional<String> contentType) {
    Decision bom = fromBom(body);
    if (bom != null) return bom;
    Optional<WebEncoding> declared = contentType.flatMap(Charsets::fromContentType)
        .or(() -> MetaCharsetPrescan.scan(body));
    return new Decision(declared.orElseGet(() -> isAscii(body) || !Utf8.isValid(body) ? WINDOWS_1252 : UTF_8), 0);
  }

  /**
   * Bytes that are all ASCII decode the same in UTF-8 and windows-1252, but the document's encoding still
   * matters: a character reference ({@code ?q=&eacute;}) is encoded in it in a link's query. Browsers give
   * such a page windows-1252, like any page without a declaration that UTF-8 does not explain better.
   */
  private static boolean isAscii(byte[] body) {
    for (byte b : body) {
      if (b < 0) return false;
    }
    return true;
  }

  private static Decision fromBom(byte[] b) {
    if (b.length >= 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF) {
      return new Decision(UTF_8, 3);
    }
    if (b.length >= 2 && (b[0] & 0xFF) == 0xFE && (b[1] & 0xFF) == 0xFF) {
      return new Decision(UTF_16BE, 2);
    }
    if (b.length >= 2 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xFE) {
      return new Decision(UTF_16LE, 2);
    }
    return null;
  }

  /**
   * The encoding named by the {@code charset} parameter of a Content-Type value (RFC 9110 section 8.3),
   * quoted or not, when the Encoding Standard knows the label and Java the encoding.
   */
  static Optional<WebEncoding> fromContentType(String contentType) {
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
          return EncodingLabels.lookup(value);
        }
      }
      i = end;
    }
    return Optional.empty();
  }
}
