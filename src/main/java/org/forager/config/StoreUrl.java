package org.forager.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a crawl database URL is shown to people: in error messages, log lines, metrics and the status
 * page. The one place that decides it, so that no path prints a password (issue 19).
 */
public final class StoreUrl {

  /** What replaces a secret. */
  public static final String HIDDEN = "***";

  /**
   * A parameter whose name contains {@code password} ({@code password}, {@code sslpassword}, ...),
   * in a query ({@code ?}, {@code &}) or in free text; its value runs to the next separator.
   */
  private static final Pattern PASSWORD_PARAMETER =
      Pattern.compile("(?i)([\\w.-]*password[\\w.-]*\\s*=\\s*)[^&;#\\s]*");
  private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9+.-]+:)*//");

  private StoreUrl() {}

  /**
   * {@code text} with every secret hidden: the password of any {@code user:password@} after a
   * {@code scheme://} (the user name is kept; the whole userinfo when it holds no {@code :}, as it
   * may be a token), and the value of every parameter whose name contains {@code password}. Works on
   * a URL or on a message that contains one. Errs towards hiding too much: the userinfo runs to the
   * last {@code @} before the query, so a password holding a raw {@code /} or {@code @} is hidden
   * whole.
   */
  public static String redact(String text) {
    if (text == null) return null;
    return PASSWORD_PARAMETER.matcher(hideUserinfo(text)).replaceAll("$1" + Matcher.quoteReplacement(HIDDEN));
  }

  /**
   * Whether {@code url} has a userinfo ({@code user:password@host}): an {@code @} before the query,
   * by the rule {@link #redact} hides it with.
   */
  public static boolean hasUserinfo(String url) {
    Matcher scheme = SCHEME.matcher(url);
    if (!scheme.find()) return false;
    return url.lastIndexOf('@', authorityEnd(url, scheme.end()) - 1) >= scheme.end();
  }

  private static String hideUserinfo(String text) {
    StringBuilder out = new StringBuilder(text.length());
    Matcher scheme = SCHEME.matcher(text);
    int done = 0;
    while (scheme.find(done)) {
      int start = scheme.end();
      int end = authorityEnd(text, start);
      int at = text.lastIndexOf('@', end - 1);
      out.append(text, done, start);
      if (at >= start) {
        int colon = text.indexOf(':', start);
        out.append(colon >= 0 && colon < at ? text.substring(start, colon + 1) + HIDDEN : HIDDEN);
        done = at;
      } else {
        done = start;
      }
    }
    return out.append(text, done, text.length()).toString();
  }

  /** Where the userinfo-and-host part may end: the query, the fragment, white space or the end. */
  private static int authorityEnd(String text, int from) {
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '?' || c == '#' || Character.isWhitespace(c)) return i;
    }
    return text.length();
  }
}
