package org.forager.crawl;

import org.forager.url.UrlFingerprint;

/**
 * The URLs of one origin crawled lately, so that a link to one of them need not go to the store
 * (issue 15: most links of a page are known, and a lookup in the store to learn so was 6 % of the CPU
 * of a crawl). A link to a crawled URL changes nothing in the store: it is known, and a crawled URL's
 * inlinks no longer count ({@link org.forager.store.CrawlStore#record}); so dropping it before the
 * store loses nothing.
 *
 * <p>A table of 512 64-bit hashes (4 KiB, made at the first add) in buckets of {@value #WAYS}: a URL is
 * forgotten only when its bucket is full, for another URL's (then a link to it goes to the store as
 * before), and two URLs whose 64-bit hashes are equal would be taken for one another: about one chance
 * in 2^55 per lookup. Direct-mapped (one slot a URL) until session 29, the table forgot a quarter of
 * an origin's 300 crawled URLs on the benchmark (100 pages, 200 refused), and 247,000 more links a
 * crawl went on to the store's tables (docs/benchmarks.md). Confined to the origin's turns; not
 * thread-safe.
 */
final class CrawledUrls {

  private static final int SLOTS = 512;
  /** The slots a URL may take, side by side: its bucket. */
  static final int WAYS = 4;
  private static final int BUCKETS = SLOTS / WAYS;
  private long[] hashes;

  /** Remembers that {@code url} was crawled (a crawl action was recorded for it). */
  void add(String url) {
    if (hashes == null) hashes = new long[SLOTS];
    long hash = UrlFingerprint.of(url);
    int bucket = bucket(hash);
    for (int way = 0; way < WAYS; way++) {
      long held = hashes[bucket + way];
      if (held == hash) return;
      if (held == 0) {
        hashes[bucket + way] = hash;
        return;
      }
    }
    hashes[bucket + (int) (hash & (WAYS - 1))] = hash; // a full bucket: one chosen by the URL's own bits
  }

  /** Whether {@code url} is remembered as crawled; false when it was not, or was forgotten. */
  boolean contains(String url) {
    if (hashes == null) return false;
    long hash = UrlFingerprint.of(url);
    int bucket = bucket(hash);
    for (int way = 0; way < WAYS; way++) if (hashes[bucket + way] == hash) return true;
    return false;
  }

  private static int bucket(long hash) {
    return ((int) (hash >>> 40) & (BUCKETS - 1)) * WAYS;
  }
}
