package org.forager.extract;

import java.util.Optional;

/**
 * The URL of a {@code <meta http-equiv=refresh content="5; url=/next">}: where a browser goes after
 * the delay, read by the HTML standard's "shared declarative refresh steps" (section 4.2.5.3): a
 * number, then {@code ;}, {@code ,} or a space, then the URL, optionally after {@code url=} and in
 * quotes. A page that moves this way (a common redirect on static hosts) leads nowhere else, so its
 * target counts as one of its links. Stateless.
 *
 * <p>A browser follows the first refresh that is well formed and whose URL parses and is not a
 * {@code javascript:} URL (HTML: "will declaratively refresh" is set only then), so a malformed one does
 * not hide a later one; a reload of the page counts as a refresh and ends the search ({@link
 * RefreshUrls#followed}).
 */
final class MetaRefresh {

  private MetaRefresh() {}

  /** Whether an {@code http-equiv} value names a refresh (ASCII case-insensitive, as HTML compares it). */
  static boolean isRefresh(String httpEquiv) {
    return httpEquiv.equalsIgnoreCase("refresh");
  }

  /**
   * The URL as written in a refresh's {@code content}, the empty string for a reload of the page (none,
   * or an empty one); empty for a malformed value, which a browser skips.
   */
  static Optional<String> target(String content) {
    int at = skipWhitespace(content, 0);
    int digits = at;
    while (at < content.length() && isDigit(content.charAt(at))) at++;
    if (at == digits && (at == content.length() || content.charAt(at) != '.')) return Optional.empty();
    while (at < content.length() && (isDigit(content.charAt(at)) || content.charAt(at) == '.')) at++;
    if (at == content.length()) return Optional.of(""); // a reload after a delay: "30"
    char separator = content.charAt(at);
    if (separator != ';' && separator != ',' && !isWhitespace(separator)) return Optional.empty();
    at = skipWhitespace(content, at);
    if (at < content.length() && (content.charAt(at) == ';' || content.charAt(at) == ',')) at++;
    at = skipWhitespace(content, at);
    if (at == content.length()) return Optional.of("");
    String url = content.substring(at);
    int afterKey = afterUrlKey(content, at);
    if (afterKey >= 0) {
      at = afterKey;
      char quote = at < content.length() ? content.charAt(at) : 0;
      if (quote == '"' || quote == '\'') {
        at++;
        int end = content.indexOf(quote, at);
        url = content.substring(at, end < 0 ? content.length() : end);
      } else {
        url = content.substring(at);
      }
    } else if (url.charAt(0) == '"' || url.charAt(0) == '\'') {
      int end = url.indexOf(url.charAt(0), 1);
      url = url.substring(1, end < 0 ? url.length() : end);
    }
    // An empty URL reloads the page, as in Chromium (the standard would go to the document's base URL).
    return Optional.of(url);
  }

  /**
   * Where the URL starts after {@code url} (any case), spaces, {@code =} and spaces, at {@code at};
   * -1 when the text there is not that key: it is then the URL itself ("jump to parse").
   */
  private static int afterUrlKey(String content, int at) {
    if (!content.regionMatches(true, at, "url", 0, 3)) return -1;
    int i = skipWhitespace(content, at + 3);
    if (i == content.length() || content.charAt(i) != '=') return -1;
    return skipWhitespace(content, i + 1);
  }

  private static int skipWhitespace(String s, int from) {
    int i = from;
    while (i < s.length() && isWhitespace(s.charAt(i))) i++;
    return i;
  }

  /** ASCII whitespace (HTML): tab, line feed, form feed, carriage return, space. */
  private static boolean isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
