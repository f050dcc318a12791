package org.forager.store;

/**
 * How a candidate URL ranks among its origin's never-crawled URLs: a priority from 0 (last) to 1
 * (first), given what the store knows of it. The store asks a candidate's ranking when it first
 * stores the URL and again each time another page links to it while it is still uncrawled, so a
 * ranking may grow with {@code inlinks}. Must be cheap, thread-safe and free of side effects.
 */
@FunctionalInterface
public interface Ranking {

  /**
   * @param depth the URL's depth as stored (its first sighting's)
   * @param inlinks how many crawled pages link to it, each counted once, at that page's first crawl
   * @return the priority; clamped to [0, 1] by {@link #clamp}, NaN counts as 0
   */
  double priority(String url, int depth, int inlinks);

  /** Priority of seeds: first. */
  double SEED = 1.0;

  /**
   * The default for URLs found as links (and redirect or canonical targets): more linking pages and
   * less depth rank higher, {@code 0.5 * b / (b + depth + 1)} where {@code b} is the inlinks' order of
   * magnitude, {@code 1 + floor(log2(inlinks))} (1 for 1 inlink, 2 for 2-3, 3 for 4-7, ...; 0 for none),
   * always below 0.5 so below every sitemap entry. By magnitude rather than count: a URL's priority,
   * and so its place in the store's due order, changes at its 1st, 2nd, 4th, 8th... inlink only, not at
   * every one (each change moves its key).
   */
  Ranking LINKS = (url, depth, inlinks) -> {
    int magnitude = inlinks <= 0 ? 0 : 32 - Integer.numberOfLeadingZeros(inlinks);
    return 0.5 * magnitude / (magnitude + depth + 1.0);
  };

  /**
   * The default for a sitemap entry: {@code 0.5 + 0.4 * priority}, its {@code <priority>} (0.5 when
   * absent, as the sitemap protocol says), so between links and seeds.
   */
  static Ranking sitemapEntry(double sitemapPriority) {
    return fixed(0.5 + 0.4 * clamp(sitemapPriority));
  }

  /** A ranking that ignores inlinks: seeds, sitemap entries. */
  static Ranking fixed(double priority) {
    double p = clamp(priority);
    return (url, depth, inlinks) -> p;
  }

  /** A priority brought into [0, 1]; NaN becomes 0. */
  static double clamp(double priority) {
    return priority >= 0 ? Math.min(priority, 1) : 0; // NaN fails >= 0
  }

  /**
   * The priority as the store keeps it: 16 bits, 0..65535. Priorities closer than 1/65535 rank
   * equal (then by depth, then URL).
   */
  static int quantize(double priority) {
    return (int) Math.round(clamp(priority) * 0xFFFF);
  }

  /** The priority a quantized value stands for. */
  static double dequantize(int quantized) {
    return Math.clamp(quantized, 0, 0xFFFF) / (double) 0xFFFF;
  }
}
