package org.forager.crawl;

import java.util.Optional;
import org.forager.fetch.FetchResult;

/** Which responses are parsed as HTML. */
final class ContentTypes {

  private ContentTypes() {}

  /**
   * HTML by its media type; without a Content-Type, by a look at the first bytes (a tag after
   * optional white space and BOM), as browsers sniff.
   */
  static boolean isHtml(FetchResult.Response response) {
    // Response.mediaType() compared where it lies in the header's value, not cut out, trimmed and
    // lower-cased first: the same answer (toLowerCase(Locale.ROOT) makes no other character one of
    // these names' ASCII letters in place), without the strings and Optionals a page.
    Optional<String> header = response.header("Content-Type");
    if (header.isEmpty()) return looksLikeHtml(response.body());
    String value = header.get();
    int semi = value.indexOf(';');
    int end = semi < 0 ? value.length() : semi;
    int start = 0;
    while (start < end && value.charAt(start) <= ' ') start++;
    while (end > start && value.charAt(end - 1) <= ' ') end--;
    if (start == end) return looksLikeHtml(response.body()); // an empty media type: as none
    return is(value, start, end, "text/html") || is(value, start, end, "application/xhtml+xml");
  }

  /** Whether {@code value[start, end)} lower-cases (ASCII letters only) to {@code lowerCaseName}, all ASCII. */
  private static boolean is(String value, int start, int end, String lowerCaseName) {
    if (end - start != lowerCaseName.length()) return false;
    for (int i = 0; i < lowerCaseName.length(); i++) {
      char c = value.charAt(start + i);
      if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
      if (c != lowerCaseName.charAt(i)) return false;
    }
    return true;
  }

  private static boolean looksLikeHtml(byte[] body) {
    int i = 0;
    if (body.length >= 3 && (body[0] & 0xff) == 0xEF && (body[1] & 0xff) == 0xBB && (body[2] & 0xff) == 0xBF) i = 3;
    while (i < body.length && i < 512 && Character.isWhitespace(body[i])) i++;
    return i < body.length && body[i] == '<';
  }
}
