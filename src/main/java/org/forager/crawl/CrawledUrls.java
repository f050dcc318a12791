package org.forager.crawl;

import org.forager.url.UrlFingerprint;

/**
 * The URLs of one origin crawled lately, so that a link to one of them need not go to the store
 * (issue 15: most links of a page are known, and a lookup in the store to learn so was 6 % of the CPU
 * of a crawl). A link to a crawled URL changes nothing in the store: it is known, and a crawled URL's
 * inlinks no longer count ({@link org.forager.store.CrawlStore#record}); so dropping it before the
 * store loses nothing.
 *
 * <p>A direct-mapped table of 512 64-bit hashes (4 KiB, made at the first add): an entry may be
 * overwritten by another URL's (then that link goes to the store as before), and two URLs whose 64-bit
 * hashes are equal would be taken for one another: about one chance in 2^55 per lookup. Confined to the
 * origin's turns; not thread-safe.
 */
final class CrawledUrls {

  private static final int SLOTS = 512;
  private long[] hashes;

  /** Remembers that {@code url} was crawled (a crawl action was recorded for it). */
  void add(String url) {
    if (hashes == null) hashes = new long[SLOTS];
    long hash = UrlFingerprint.of(url);
    hashes[slot(hash)] = hash;
  }

  /** Whether {@code url} is remembered as crawled; false when it was not, or was forgotten. */
  boolean contains(String url) {
    if (hashes == null) return false;
    long hash = UrlFingerprint.of(url);
    return hashes[slot(hash)] == hash;
  }

  private static int slot(long hash) {
    return (int) (hash >>> 40) & (SLOTS - 1);
  }
}
