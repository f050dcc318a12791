package org.forager.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

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
 *
 * <p>The table doubles when half its slots hold a fingerprint, up to its largest size: a bucket of four
 * fills (and forgets) often once the table is fuller. With the launcher's heap a 1000 x 100 crawl
 * (300,000 crawled URLs, pages and refused links) grows it from 2^19 slots to 2^20; at 300 pages a site
 * (900,000) the table kept at 2^19 forgot 208,000 of the URLs links then pointed to, each a read
 * (docs/benchmarks.md, session 47). Adds that race a growth may be lost, as if forgotten: the URL is
 * looked up again.
 */
final class CrawledFingerprints {

  private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

  /** The slots a fingerprint may take, side by side: its bucket. */
  static final int WAYS = 4;

  private volatile long[] slots; // 0: empty (no hash is 0)
  /** Slots at most; lowered to the slots now when a growth finds no heap for them. */
  private volatile int maxCapacity;
  /** The fingerprints in {@link #slots}, but for those lost to a race: it doubles at half full. */
  private final AtomicInteger placed = new AtomicInteger();

  /** A table of {@code capacity} slots that does not grow. */
  CrawledFingerprints(int capacity) {
    this(capacity, capacity);
  }

  /**
   * @param capacity the first slots, a power of two, at least {@value #WAYS}
   * @param maxCapacity the slots at most, a power of two, at least {@code capacity}
   */
  CrawledFingerprints(int capacity, int maxCapacity) {
    if (Integer.bitCount(capacity) != 1 || capacity < WAYS) {
      throw new IllegalArgumentException("not a power of two of at least " + WAYS + ": " + capacity);
    }
    if (Integer.bitCount(maxCapacity) != 1 || maxCapacity < capacity) {
      throw new IllegalArgumentException("not a power of two of at least " + capacity + ": " + maxCapacity);
    }
    this.slots = new long[capacity];
    this.maxCapacity = maxCapacity;
  }

  /**
   * Slots for a 32nd of the heap, rounded down to a power of two, between 4,096 and 2^22: the first size
   * (the launcher's 247.5 MiB usable: 2^19 slots, 4 MiB).
   */
  static int defaultCapacity() {
    return slotsFor(32, 1 << 22);
  }

  /**
   * Slots for a 16th of the heap, rounded down to a power of two, between 4,096 and 2^23: the largest
   * size (the launcher's heap: 2^20 slots, 8 MiB; at 300 pages a site it took 2-4 % less CPU than the
   * first size kept: docs/benchmarks.md, session 47).
   */
  static int defaultMaxCapacity() {
    return slotsFor(16, 1 << 23);
  }

  private static int slotsFor(int fractionOfHeap, int most) {
    long slots = Runtime.getRuntime().maxMemory() / fractionOfHeap / Long.BYTES;
    return Integer.highestOneBit((int) Math.clamp(slots, 4_096, most));
  }

  /** The slots now (tests). */
  int capacity() {
    return slots.length;
  }

  /** Whether the URL of {@code fingerprint} is known crawled; false when it is not, or was forgotten. */
  boolean contains(long fingerprint) {
    long[] slots = this.slots;
    int bucket = bucket(fingerprint, slots);
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
    long[] slots = this.slots;
    if (put(slots, fingerprint) && placed.incrementAndGet() > slots.length / 2 && slots.length < maxCapacity) {
      grow(slots);
    }
  }

  /** Puts {@code fingerprint} in {@code slots}; whether it took a free slot. */
  private static boolean put(long[] slots, long fingerprint) {
    int bucket = bucket(fingerprint, slots);
    for (int way = 0; way < WAYS; way++) {
      long held = (long) SLOTS.getOpaque(slots, bucket + way);
      if (held == fingerprint) return false;
      if (held == 0) {
        SLOTS.setOpaque(slots, bucket + way, fingerprint);
        return true;
      }
    }
    SLOTS.setOpaque(slots, bucket + (int) (fingerprint & (WAYS - 1)), fingerprint);
    return false;
  }

  /**
   * Doubles the slots and moves every fingerprint in {@code full} there: the buckets are chosen by one
   * more bit of each, so a bucket's four go to two buckets and none overflows. An add to {@code full}
   * meanwhile may be lost (looked up again); contains and adds read whichever array they see.
   */
  private synchronized void grow(long[] full) {
    if (slots != full) return; // another add grew it
    long[] larger;
    try {
      larger = new long[full.length * 2];
    } catch (OutOfMemoryError e) {
      // A cache that cannot grow stays as it is: the add comes after its group's write, which must not
      // fail for it (the heap is the crawl's to run out of, as it will, with a clear message).
      maxCapacity = full.length;
      return;
    }
    int count = 0;
    for (int i = 0; i < full.length; i++) {
      long fingerprint = (long) SLOTS.getOpaque(full, i);
      if (fingerprint != 0 && put(larger, fingerprint)) count++;
    }
    placed.set(count);
    slots = larger;
  }

  private static int bucket(long fingerprint, long[] slots) {
    return ((int) (fingerprint >>> 32) & (slots.length / WAYS - 1)) * WAYS;
  }
}
