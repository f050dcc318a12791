package org.forager.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Fingerprints of URLs the store holds as crawled, so that a link to one costs no lookup: a link to a
 * crawled URL changes nothing ({@link CrawlStore#record}), yet the link table ({@link LinkTargets},
 * 226 bytes an entry) forgets crawled URLs first, and each link to one it forgot was a read of the URL
 * table's files (issue 15: at 300 pages a site, 12 % of a crawl's CPU). Here a URL takes 8 bytes.
 *
 * <p>A URL once crawled stays crawled (no record is deleted, a fetch count never goes down), so no lock
 * is needed: a fingerprint is put only once the write holding the crawl is in the store, and whoever
 * finds it may trust it, under the group commit's lock or not; whoever misses it looks the URL up as
 * before. Direct-mapped {@link org.forager.url.UrlFingerprint}s, read and written atomically: a newer URL's overwrites an older
 * one's (that one is looked up again), and two URLs whose hashes are equal would be taken for one
 * another, about one chance in 2^64 a lookup. Thread-safe.
 */
final class CrawledFingerprints {

  private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

  private final long[] slots; // 0: empty (no hash is 0)
  private final int mask;

  /** @param capacity the slots, a power of two */
  CrawledFingerprints(int capacity) {
    if (Integer.bitCount(capacity) != 1) throw new IllegalArgumentException("not a power of two: " + capacity);
    this.slots = new long[capacity];
    this.mask = capacity - 1;
  }

  /**
   * Slots for a 32nd of the heap (the launcher's 247.5 MiB usable: 2^20 slots, 8 MiB), a power of two
   * between 4,096 and 2^22.
   */
  static int defaultCapacity() {
    long slots = Runtime.getRuntime().maxMemory() / 32 / Long.BYTES;
    return Integer.highestOneBit((int) Math.clamp(slots, 4_096, 1 << 22));
  }

  /** Whether the URL of {@code fingerprint} is known crawled; false when it is not, or was forgotten. */
  boolean contains(long fingerprint) {
    return (long) SLOTS.getOpaque(slots, index(fingerprint)) == fingerprint;
  }

  /** Notes the URL of {@code fingerprint} crawled: only once its crawl is written. */
  void add(long fingerprint) {
    SLOTS.setOpaque(slots, index(fingerprint), fingerprint);
  }

  private int index(long fingerprint) {
    return (int) (fingerprint >>> 32) & mask;
  }
}
