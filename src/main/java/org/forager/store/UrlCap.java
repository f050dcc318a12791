package org.forager.store;

import java.util.function.ToLongFunction;

/**
 * {@code limits.max_urls_per_origin} (and the {@code sites} rules' {@code max_urls}): the most URLs a
 * store keeps of one origin (crawled, refused and waiting), and who hears of the new ones it drops past
 * that. What bounds the disk a site minting links without end takes: a page of 40,000 new links on each
 * of 100,000 pages a run is four billion URLs. A URL counts once for each {@value #CHARS_PER_URL}
 * characters it has begun ({@link #weight}), so the cap bounds bytes too: a site of 2,000-char URLs keeps
 * an eighth as many as one of short URLs (a million of them were 2 GB with their keys). Seeds (depth 0)
 * are never dropped; a URL the store knows keeps its record whatever the count.
 *
 * @param maxFor an origin's cap (at least 1), by its serialized form ({@code https://host:port}); asked
 *     about once per origin a store meets, from inside its writes: quick, no I/O
 * @param dropped told of each origin's dropped URLs, from inside the store's writes (no I/O there)
 */
public record UrlCap(ToLongFunction<String> maxFor, Dropped dropped) {

  /** The characters of a URL that count as one URL: longer ones count as several. */
  public static final int CHARS_PER_URL = 256;

  /**
   * How many URLs {@code url} counts as against the cap: one for each {@value #CHARS_PER_URL} characters
   * begun (1 for almost every real URL, 8 for one of 2,048 characters).
   */
  public static int weight(String url) {
    return 1 + Math.max(0, url.length() - 1) / CHARS_PER_URL;
  }

  /** No cap: what a store applies until told otherwise (export, status, tests). */
  public static final UrlCap NONE = of(Long.MAX_VALUE, (origin, count) -> {});

  /** The same cap for every origin. */
  public static UrlCap of(long perOrigin, Dropped dropped) {
    if (perOrigin < 1) throw new IllegalArgumentException("perOrigin must be at least 1: " + perOrigin);
    return new UrlCap(origin -> perOrigin, dropped);
  }

  /** {@code origin}'s cap. */
  public long of(String origin) {
    return maxFor.applyAsLong(origin);
  }

  /** Hears of new URLs of an origin not stored because the origin holds its cap already. */
  @FunctionalInterface
  public interface Dropped {
    void dropped(String origin, int count);
  }
}
