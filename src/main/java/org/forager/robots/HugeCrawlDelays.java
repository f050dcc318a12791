package org.forager.robots;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Crawl-delay values too big for the parser, made big enough instead of nothing. crawler-commons
 * reads a Crawl-delay without a dot with {@code Integer.parseInt}: {@code 99999999999999999999},
 * {@code 3000000000}, {@code 1e308} or {@code Infinity} fail with a warning and count as no delay at
 * all, and the site would be crawled at min_delay. A site asking for that much wants to be left
 * alone: such a value is written as {@value #CAPPED} seconds (68 years), which the crawl reads as
 * "more than politeness.max_crawl_delay" and puts the origin off. Values that are not numbers at all
 * stay as they are (no delay, as the parser reads them). Stateless.
 */
final class HugeCrawlDelays {

  static final String CAPPED = "2147483647";

  /** A Crawl-delay line whose value is a number out of int range: many digits, an exponent, Infinity. */
  private static final Pattern HUGE = Pattern.compile(
      "(?im)^([ \\t]*crawl-delay[ \\t]*:[ \\t]*)(\\+?(?:\\d{10,}(?:\\.\\d*)?|\\d+(?:\\.\\d+)?[eE]\\+?\\d+|Infinity))");

  private HugeCrawlDelays() {}

  /** The body with huge Crawl-delay values capped; the same array when there are none. */
  static byte[] capped(byte[] body) {
    // ISO-8859-1 maps bytes to chars one to one, so every other byte comes back unchanged.
    String text = new String(body, StandardCharsets.ISO_8859_1);
    if (indexOfIgnoreCase(text, "crawl-delay") < 0) return body;
    Matcher m = HUGE.matcher(text);
    if (!m.find()) return body;
    String fixed = m.replaceAll(match -> Matcher.quoteReplacement(match.group(1) + CAPPED));
    return fixed.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static int indexOfIgnoreCase(String text, String word) {
    for (int i = 0; i + word.length() <= text.length(); i++) {
      if (text.regionMatches(true, i, word, 0, word.length())) return i;
    }
    return -1;
  }
}
