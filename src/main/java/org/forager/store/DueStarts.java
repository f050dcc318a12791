package org.forager.store;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Where an origin's live due keys start: a due scan seeks there instead of to the origin's prefix, past
 * the deleted keys of the URLs crawled or refused since the origin's first scan. A URL leaves the due
 * index by a delete whose tombstone stays until compaction drops it, and the origin's never-crawled
 * URLs go in key order, so every scan from the prefix stepped over all of them again (issue 15: 1.1 % of
 * a crawl's CPU in RocksDB's skipping of deleted entries, growing with the square of an origin's URLs).
 *
 * <p>A start {@code from} says that no live key lies in {@code [prefix, from)} once every put of the
 * origin up to commit {@code lastPut} is visible. The write path lowers it under its lock, at every
 * put of a key below it, and notes the group's commit ({@link #put}); a scan that read the visible
 * commit before opening its iterator uses it only when {@code lastPut} is visible ({@link #seek}), and
 * moves it to the first key it found only when no put came meanwhile ({@link #scanned}). A start made
 * for an origin counts the group that may be applying then as a put. Bounded: past {@value
 * #MAX_ORIGINS} origins the starts are forgotten (scans go from the prefix). Thread-safe.
 */
final class DueStarts {

  static final int MAX_ORIGINS = 1 << 16;
  /** A start's {@code lastPut} while it is being made. */
  private static final long UNKNOWN = Long.MAX_VALUE;

  private final ConcurrentHashMap<String, Start> starts = new ConcurrentHashMap<>();

  /** One origin's start; guarded by itself. */
  private static final class Start {
    byte[] from;
    long lastPut;

    Start(long lastPut) {
      this.lastPut = lastPut;
    }
  }

  /** Where one scan seeks, and what it saw of its origin's start. */
  record Seek(byte[] from, Start start, long lastPut, long visible) {}

  /**
   * A due key put for {@code origin} by the group to be written as {@code commit}; the write lock is
   * held.
   */
  void put(String origin, byte[] dueKey, long commit) {
    Start start = starts.get(origin);
    if (start == null) return;
    synchronized (start) {
      if (start.lastPut == UNKNOWN || commit > start.lastPut) start.lastPut = commit;
      if (start.from != null && Arrays.compareUnsigned(dueKey, start.from) < 0) start.from = dueKey;
    }
  }

  /**
   * Where a scan of {@code origin}'s due keys seeks: its start, or {@code prefix}.
   *
   * @param visible the latest commit written, read before the scan's iterator is opened
   * @param applying the commit of the group being applied or written, or of the last one written
   */
  Seek seek(String origin, byte[] prefix, long visible, LongSupplier applying) {
    Start start = starts.get(origin);
    if (start == null) {
      if (starts.size() >= MAX_ORIGINS) starts.clear();
      start = starts.computeIfAbsent(origin, o -> new Start(UNKNOWN));
      // A group that put keys of the origin before the start was there is at most the one applying
      // now (read after it is there): counted as a put.
      long mayHavePut = applying.getAsLong();
      synchronized (start) {
        start.lastPut = start.lastPut == UNKNOWN ? mayHavePut : Math.max(start.lastPut, mayHavePut);
      }
    }
    synchronized (start) {
      byte[] from = start.from != null && start.lastPut <= visible ? start.from : prefix;
      return new Seek(from, start, start.lastPut, visible);
    }
  }

  /** The scan that sought with {@code seek} found its first live key at {@code first} (or none before it). */
  void scanned(Seek seek, byte[] first) {
    synchronized (seek.start()) {
      if (seek.start().lastPut == seek.lastPut() && seek.lastPut() <= seek.visible()) seek.start().from = first;
    }
  }
}
