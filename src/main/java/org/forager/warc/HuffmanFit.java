package org.forager.warc;

import com.sun.jna.Pointer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Huffman tables fitted to the crawl's own records, for igzip's level 0 (its one pass): what lets
 * {@code gzip_level: 1} cost igzip level 0's CPU for about level 1's output (issue 15). igzip's level 1
 * spends most of its time on what a record alone cannot amortize: a histogram pass and Huffman tables
 * of its own for every member; level 0 skips both but codes with built-in tables fitted to no data in
 * particular, so a WARC's records come out 6 to 12 % larger, and its small ones (requests, robots.txt,
 * redirects: HTTP headers) hardly shrink at all. Tables fitted to records like the ones being written
 * give back almost all of it (docs/benchmarks.md, "Huffman tables fitted to the crawl's records").
 *
 * <p>Two kinds of records are fitted apart, small ({@value #SMALL_RECORD} bytes and under: mostly
 * HTTP headers) and large (mostly the pages). Until a kind has tables, {@link #tablesFor} gives none
 * and the caller compresses as igzip's level 1 would (its own tables each member); its records are
 * sampled, each, until {@value #FIRST_FIT_BYTES} bytes were counted. From then on one record in
 * {@value #SAMPLE_EVERY} is counted (at most its first {@value #SAMPLE_BYTES} bytes), and the tables
 * are made anew from each further {@value #REFIT_BYTES} bytes counted, so that they follow what the
 * crawl fetches. A record unlike those fitted costs bytes, never correctness: every symbol has a
 * code, and igzip stores a member that would not shrink.
 *
 * <p>A failure to count or to fit never fails a record: the tables there are stay in use.
 *
 * <p>Thread-safe: tables are immutable and published whole; a sample is counted by whichever thread
 * finds the kind's lock free (another one busy counting means this record is not counted).
 */
final class HuffmanFit {

  /** Records of this many bytes and fewer are fitted apart from larger ones. */
  static final int SMALL_RECORD = 4096;
  /** Bytes counted before a kind's first tables. */
  static final long FIRST_FIT_BYTES = 1L << 20;
  /** Bytes counted for each later fit. */
  static final long REFIT_BYTES = 4L << 20;
  /** Once a kind has tables, one record in this many is counted. */
  static final int SAMPLE_EVERY = 64;
  /** At most this much of a record is counted (a page's first part is like the rest of it). */
  static final int SAMPLE_BYTES = 64 * 1024;

  private final long firstFitBytes;
  private final long refitBytes;
  private final int sampleEvery;
  private final Kind small = new Kind();
  private final Kind large = new Kind();

  HuffmanFit() {
    this(FIRST_FIT_BYTES, REFIT_BYTES, SAMPLE_EVERY);
  }

  /** With other amounts than the crawl's (tests). */
  HuffmanFit(long firstFitBytes, long refitBytes, int sampleEvery) {
    this.firstFitBytes = firstFitBytes;
    this.refitBytes = refitBytes;
    this.sampleEvery = sampleEvery;
  }

  /** The tables for a record of {@code length} bytes; null while its kind has none yet. */
  Isal.Tables tablesFor(int length) {
    return kind(length).tables;
  }

  /** Counts the record of {@code length} bytes at {@code in} toward its kind's next tables, if sampled. */
  void sample(Pointer in, int length) {
    if (length <= 0) return;
    try {
      kind(length).sample(in, length);
    } catch (RuntimeException e) {
      // Fitting only saves CPU: the tables there are stay (or igzip's level 1 without any), and the
      // record is compressed either way.
    }
  }

  private Kind kind(int length) {
    return length <= SMALL_RECORD ? small : large;
  }

  private final class Kind {
    private final ReentrantLock lock = new ReentrantLock();
    private final AtomicInteger records = new AtomicInteger();
    private volatile Isal.Tables tables;
    private Isal.Histogram histogram; // under the lock
    private long counted; // bytes in the histogram; under the lock

    void sample(Pointer in, int length) {
      if (tables != null && Math.floorMod(records.getAndIncrement(), sampleEvery) != 0) return;
      if (!lock.tryLock()) return;
      try {
        if (histogram == null) histogram = new Isal.Histogram();
        int bytes = Math.min(length, SAMPLE_BYTES);
        histogram.add(in, bytes);
        counted += bytes;
        if (counted >= (tables == null ? firstFitBytes : refitBytes)) {
          Isal.Histogram full = histogram;
          histogram = null;
          counted = 0;
          tables = full.tables();
        }
      } finally {
        lock.unlock();
      }
    }
  }
}
