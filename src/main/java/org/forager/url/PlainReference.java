package org.forager.url;

/**
 * The links whose resolution is a concatenation: a reference made only of characters the parser keeps
 * as they are, with no dot segment, no escape and no fragment, that is relative to the base's directory,
 * to its root ({@code /…}), or an absolute URL of the base's own origin written as the base writes it.
 * For these {@link UrlParser} gives exactly the base's part and the reference joined, so they skip it:
 * most links of most pages are such, and parsing each was about 2 % of a crawl's CPU (issue 15).
 * Anything else (another origin, {@code //host}, {@code ?q}, {@code %XX}, {@code ..}, whitespace,
 * non-ASCII, a scheme) is left to the parser. Stateless.
 */
final class PlainReference {

  /** ASCII characters kept as they are in a path (outside the path percent-encode set, no escape, no slash). */
  private static final boolean[] PATH = new boolean[128];
  /** ASCII characters kept as they are in a query (outside the special-query percent-encode set, no escape). */
  private static final boolean[] QUERY = new boolean[128];

  static {
    for (int c = 'a'; c <= 'z'; c++) PATH[c] = QUERY[c] = true;
    for (int c = 'A'; c <= 'Z'; c++) PATH[c] = QUERY[c] = true;
    for (int c = '0'; c <= '9'; c++) PATH[c] = QUERY[c] = true;
    for (char c : "-._~!$&()*+,;=:@".toCharArray()) PATH[c] = QUERY[c] = true;
    PATH['\''] = true; // the special-query set encodes it; the path set does not
    QUERY['/'] = true;
    QUERY['?'] = true;
  }

  private PlainReference() {}

  /**
   * {@code href} resolved against {@code base} (a URL as {@link UrlNormalizer#normalize} returns it)
   * and normalized, when that is a concatenation; else null: the parser decides.
   */
  static String resolve(String base, String href) {
    int authority = base.startsWith("http://") ? 7 : base.startsWith("https://") ? 8 : -1;
    if (authority < 0 || href.isEmpty()) return null;
    int path = base.indexOf('/', authority);
    if (path < 0) return null;
    char first = href.charAt(0);
    if (first == '/') {
      // "//host" and "/\host" name an authority.
      if (href.length() > 1 && (href.charAt(1) == '/' || href.charAt(1) == '\\')) return null;
      return isPlain(href, 0) ? base.substring(0, path).concat(href) : null;
    }
    if (href.regionMatches(0, base, 0, path)) {
      // The base's own scheme and authority, as normalized: the rest is its path.
      if (href.length() == path) return base.substring(0, path + 1);
      return href.charAt(path) == '/' && isPlain(href, path) ? href : null;
    }
    // A path relative to the base's directory; a ':' before its first '/' may end a scheme.
    if (first == '?' || hasColonInFirstSegment(href) || !isPlain(href, 0)) return null;
    int query = base.indexOf('?', path);
    int directory = base.lastIndexOf('/', query < 0 ? base.length() - 1 : query - 1);
    return base.substring(0, directory + 1).concat(href);
  }

  /**
   * Whether {@code s[from, end)} is a path, with an optional query, of characters kept as they are,
   * with no {@code .} or {@code ..} segment and no empty query (which normalization drops).
   */
  private static boolean isPlain(String s, int from) {
    int n = s.length();
    int segment = from;
    for (int i = from; i < n; i++) {
      char c = s.charAt(i);
      if (c == '/' || c == '?') {
        if (isDotSegment(s, segment, i)) return false;
        if (c == '?') return i + 1 < n && isPlainQuery(s, i + 1);
        segment = i + 1;
      } else if (c >= 128 || !PATH[c]) {
        return false;
      }
    }
    return !isDotSegment(s, segment, n);
  }

  private static boolean isPlainQuery(String s, int from) {
    for (int i = from; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 128 || !QUERY[c]) return false;
    }
    return true;
  }

  private static boolean isDotSegment(String s, int from, int to) {
    int length = to - from;
    return (length == 1 || length == 2) && s.charAt(from) == '.' && s.charAt(to - 1) == '.';
  }

  private static boolean hasColonInFirstSegment(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == ':') return true;
      if (c == '/' || c == '?') return false;
    }
    return false;
  }
}
