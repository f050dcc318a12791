package org.forager.extract;

/**
 * Reads the {@code noindex} / {@code nofollow} / {@code none} directives of a robots meta tag's
 * content or an {@code X-Robots-Tag} header value, as Google documents them
 * (developers.google.com/search/docs/crawling-indexing/robots-meta-tag). Directives are
 * case-insensitive and separated by commas or whitespace; others (max-snippet, …) are ignored.
 * Results are bit sets of {@link #NOINDEX} and {@link #NOFOLLOW}. Stateless and thread-safe.
 */
final class RobotsDirectives {

  static final int NOINDEX = 1;
  static final int NOFOLLOW = 2;

  /** Directives that take a value after a colon, so their name is not a user-agent prefix. */
  private static final String[] VALUED = {
    "unavailable_after", "max-snippet", "max-image-preview", "max-video-preview"
  };

  private RobotsDirectives() {}

  /** The directives of a {@code <meta name=robots content>} value. */
  static int ofMeta(String content) {
    return ofList(content, 0, content.length());
  }

  /**
   * The directives of one X-Robots-Tag header value that apply to {@code productToken}. A
   * comma-separated segment may start with {@code agent:}; it and the following segments then
   * apply only to that agent, until the next prefix ({@code "otherbot: noindex, nofollow"} applies
   * both to otherbot). Segments before any prefix apply to every crawler.
   */
  static int ofHeader(String value, String productToken) {
    int bits = 0;
    boolean applies = true;
    int n = value.length();
    int start = 0;
    while (start <= n) {
      int end = value.indexOf(',', start);
      if (end < 0) end = n;
      int from = start;
      int colon = value.indexOf(':', from);
      if (colon >= 0 && colon < end) {
        int nameStart = skipSpace(value, from, colon);
        int nameEnd = colon;
        while (nameEnd > nameStart && Tokens.isSpace(value.charAt(nameEnd - 1))) nameEnd--;
        if (isAgentName(value, nameStart, nameEnd)) {
          int len = nameEnd - nameStart;
          applies = len == productToken.length()
              && value.regionMatches(true, nameStart, productToken, 0, len);
          from = colon + 1;
        }
      }
      if (applies) bits |= ofList(value, from, end);
      start = end + 1;
    }
    return bits;
  }

  private static boolean isAgentName(String s, int start, int end) {
    if (start >= end) return false;
    for (int i = start; i < end; i++) {
      if (Tokens.isSpace(s.charAt(i))) return false;
    }
    for (String valued : VALUED) {
      if (end - start == valued.length() && s.regionMatches(true, start, valued, 0, valued.length())) {
        return false;
      }
    }
    return true;
  }

  private static int ofList(String s, int from, int to) {
    int bits = 0;
    int i = from;
    while (i < to) {
      while (i < to && isSeparator(s.charAt(i))) i++;
      int start = i;
      while (i < to && !isSeparator(s.charAt(i))) i++;
      int len = i - start;
      if (is(s, start, len, "noindex")) bits |= NOINDEX;
      else if (is(s, start, len, "nofollow")) bits |= NOFOLLOW;
      else if (is(s, start, len, "none")) bits |= NOINDEX | NOFOLLOW;
    }
    return bits;
  }

  private static boolean is(String s, int start, int len, String word) {
    return len == word.length() && s.regionMatches(true, start, word, 0, len);
  }

  private static boolean isSeparator(char c) {
    return c == ',' || Tokens.isSpace(c);
  }

  private static int skipSpace(String s, int i, int to) {
    while (i < to && Tokens.isSpace(s.charAt(i))) i++;
    return i;
  }
}
