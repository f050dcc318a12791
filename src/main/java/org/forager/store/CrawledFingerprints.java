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
 * before. {@link org.forager.url.UrlFingerprint}s in buckets of {@value #WAYS} slots, read and written
 * atomically: a URL is forgotten (looked up again) only when its bucket is full, and two URLs whose
 * hashes are equal would be taken for one another, about one chance in 2^64 a lookup. Thread-safe.
 *
 * <p>Why buckets: one slot a fingerprint (direct-mapped) forgot about a seventh of the 300,000 crawled
 * URLs of a 1000 x 100 crawl in its 2^20 slots (a newer URL's took an older one's slot), and each link
 * to one was a read of the URL table's files: 62,000 reads a crawl, 25,000 fewer with four slots a
 * bucket in the same memory (docs/benchmarks.md, session 29).
 */
final class CrawledFingerprints {

  private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

  /** The slots a fingerprint may take, side by side: its bucket. */
  static final int WAYS = 4;

  private final long[] slots; // 0: empty (no hash is 0)
  private final int bucketMask;

  /** @param capacity the slots, a power of two, at least {@value #WAYS} */
  CrawledFingerprints(int capacity) {
    if (Integer.bitCount(capacity) != 1 || capacity < WAYS) {
      throw new IllegalArgumentException("not a power of two of at least " + WAYS + ": " + capacity);
    }
    this.slots = new long[capacity];
    this.bucketMask = capacity / WAYS - 1;
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
    int bucket = bucket(fingerprint);
    for (int way = 0; way < WAYS; way++) {
      if ((long) SLOTS.getOpaque(slots, bucket + way) == fingerprint) return true;
    }
    return false;
  }

  /**
   * Notes the URL of {@code fingerprint} crawled: only once its crawl is written. It takes a free slot
   * of its bucket; in a full bucket, one chosen by its own bits, forgetting the URL there (two adds at
   * once may also take the same free slot: the one overwritten is looked up again, as a forgotten one).
   */
  void add(long fingerprint) {
    int bucket = bucket(fingerprint);
    for (int way = 0; way < WAYS; way++) {
      long held = (long) SLOTS.getOpaque(slots, bucket + way);
      if (held == fingerprint) return;
      if (held == 0) {
        SLOTS.setOpaque(slots, bucket + way, fingerprint);
        return;
      }
    }
    SLOTS.setOpaque(slots, bucket + (int) (fingerprint & (WAYS - 1)), fingerprint);
  }

  private int bucket(long fingerprint) {
    return ((int) (fingerprint >>> 32) & bucketMask) * WAYS;
  }
}
