package org.forager.robots;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code Sitemap:} lines of a robots.txt, as written. RFC 9309 section 2.2.4 allows such records
 * outside the groups; sitemaps.org gives their form ({@code Sitemap: <url>}, the key in any case).
 * Read here rather than from crawler-commons, which resolves them through {@code java.net.URI} and so
 * drops any that grammar refuses, though browsers and the URL parser take them: a {@code |} in the
 * path, a host with {@code _} (the whole list, for such a host). Stateless.
 */
final class SitemapLines {

  /** More lines than any site needs (SitemapSources takes 100); the rest are not kept. */
  static final int MAX_KEPT = 1000;

  private static final String KEY = "sitemap";

  private SitemapLines() {}

  /**
   * The values of the body's {@code Sitemap:} lines in order: the text after the colon up to a
   * {@code #} comment, stripped; empty values left out.
   */
  static List<String> of(byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8);
    List<String> values = new ArrayList<>();
    int start = text.startsWith("\uFEFF") ? 1 : 0;
    while (start < text.length() && values.size() < MAX_KEPT) {
      int end = lineEnd(text, start);
      value(text, start, end).ifPresent(values::add);
      start = end + 1;
    }
    return values;
  }

  private static int lineEnd(String text, int from) {
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n' || c == '\r') return i;
    }
    return text.length();
  }

  private static Optional<String> value(String text, int start, int end) {
    int i = skipBlanks(text, start, end);
    if (!text.regionMatches(true, i, KEY, 0, KEY.length())) return Optional.empty();
    i = skipBlanks(text, i + KEY.length(), end);
    if (i == end || text.charAt(i) != ':') return Optional.empty();
    int valueEnd = i + 1;
    while (valueEnd < end && text.charAt(valueEnd) != '#') valueEnd++;
    String value = text.substring(i + 1, valueEnd).strip();
    return value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  private static int skipBlanks(String text, int from, int end) {
    int i = from;
    while (i < end && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) i++;
    return i;
  }
}
