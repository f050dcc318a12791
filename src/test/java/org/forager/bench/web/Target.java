package org.forager.bench.web;

/**
 * What a request target names, as one int (what the request log keeps): a page number (0 for
 * {@code /}, n for {@code /p/n.html}, 1 &le; n &lt; P, decimal without leading zeros) or one of the
 * negative codes below. The match is exact: a query, a fragment, percent-encoding or a trailing
 * slash make a target {@link #OTHER}. The absolute form ({@code http://host/path}, RFC 9112 3.2.2)
 * is accepted, its authority ignored.
 */
final class Target {

  static final int ROBOTS = -1;
  /** Under {@code /private/}: disallowed by robots.txt, 404. */
  static final int PRIVATE = -2;
  /** Ends with {@code .jpg} or {@code .pdf}: an extension crawlers skip, 404. */
  static final int SKIPPED_EXTENSION = -3;
  /** Anything else: 404 (or 400/405 for a bad request). */
  static final int OTHER = -4;

  private static final byte[] ROBOTS_PATH = ByteSink.utf8("/robots.txt");
  private static final byte[] PRIVATE_PREFIX = ByteSink.utf8("/private/");
  private static final byte[] HTTP = ByteSink.utf8("http://");

  private Target() {}

  static int classify(String target, int pages) {
    byte[] bytes = ByteSink.utf8(target);
    return classify(bytes, 0, bytes.length, pages);
  }

  /** Classifies the target in {@code a[from..to)}. */
  static int classify(byte[] a, int from, int to, int pages) {
    if (startsWith(a, from, to, HTTP)) {
      int slash = from + HTTP.length;
      while (slash < to && a[slash] != '/') slash++;
      if (slash == to) return 0;
      from = slash;
    }
    int len = to - from;
    if (len == 1 && a[from] == '/') return 0;
    if (len > 8 && a[from] == '/' && a[from + 1] == 'p' && a[from + 2] == '/'
        && endsWith(a, from, to, ".html")) {
      int n = number(a, from + 3, to - 5);
      if (n > 0 && n < pages) return n;
    }
    if (startsWith(a, from, to, PRIVATE_PREFIX)) return PRIVATE;
    if (len == ROBOTS_PATH.length && startsWith(a, from, to, ROBOTS_PATH)) return ROBOTS;
    if (endsWith(a, from, to, ".jpg") || endsWith(a, from, to, ".pdf")) return SKIPPED_EXTENSION;
    return OTHER;
  }

  /** The decimal number in {@code a[from..to)}, or -1 if it is not one without leading zeros. */
  private static int number(byte[] a, int from, int to) {
    if (to <= from || to - from > 9 || a[from] == '0') return -1;
    int n = 0;
    for (int i = from; i < to; i++) {
      if (a[i] < '0' || a[i] > '9') return -1;
      n = n * 10 + (a[i] - '0');
    }
    return n;
  }

  private static boolean startsWith(byte[] a, int from, int to, byte[] prefix) {
    if (to - from < prefix.length) return false;
    for (int i = 0; i < prefix.length; i++) {
      if (a[from + i] != prefix[i]) return false;
    }
    return true;
  }

  private static boolean endsWith(byte[] a, int from, int to, String suffix) {
    int n = suffix.length();
    if (to - from < n) return false;
    for (int i = 0; i < n; i++) {
      if (a[to - n + i] != suffix.charAt(i)) return false;
    }
    return true;
  }
}
