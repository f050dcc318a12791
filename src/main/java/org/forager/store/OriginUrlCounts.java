package org.forager.store;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.rocksdb.RocksDBException;

/**
 * How many URLs the embedded store holds of each origin ({@code 'U' origin} in the meta family, 8
 * bytes), each counted {@link UrlCap#weight} times, for {@link UrlCap}: a group adding URLs of an
 * origin puts its new count in its own batch, so the count is exact across crashes. The counts a run touches are kept in memory (the origins of
 * {@value #LIMIT} at most, then forgotten and read again when needed: a read per origin after that).
 * Used under the group commit's lock, but for {@link #isFull}, which the lookups ask without it.
 */
final class OriginUrlCounts {

  /** Origins whose counts are kept in memory at most (about 2 MiB); a working set is about 4,000. */
  private static final int LIMIT = 16_384;

  private final RocksDatabase rocks;
  private volatile UrlCap cap = UrlCap.NONE;
  /** Per origin, its count as the group being built leaves it, and its cap. */
  private final Map<String, long[]> counts = new HashMap<>();
  /** Origins whose count the group being built changed. */
  private final Set<String> changed = new HashSet<>();
  /** Per origin, the URLs the group being built dropped. */
  private final Map<String, Integer> dropped = new HashMap<>();
  /** What written groups dropped, not told yet. */
  private final ConcurrentLinkedQueue<Map.Entry<String, Integer>> untold = new ConcurrentLinkedQueue<>();
  /**
   * Origins at their cap, so that a call's lookup drops their new URLs before its gate is asked (no
   * refusal logged for a URL never kept). Only ever a hint: the count under the lock decides.
   */
  private final Set<String> full = ConcurrentHashMap.newKeySet();

  OriginUrlCounts(RocksDatabase rocks) {
    this.rocks = rocks;
  }

  /** Under the group commit's lock: the caps kept with the counts are asked again. */
  void cap(UrlCap cap) {
    this.cap = cap;
    full.clear();
    counts.clear();
  }

  /** Whether new URLs of {@code origin} at {@code depth} are dropped, as far as a group found lately. */
  boolean isFull(String origin, int depth) {
    return depth > 0 && !full.isEmpty() && full.contains(origin);
  }

  /**
   * Counts a new URL of {@code origin} at {@code depth}, {@link UrlCap#weight} times, unless that would
   * take the origin past its cap (a seed, depth 0, is always counted in); whether it is to be stored.
   */
  boolean admit(String origin, int depth, String url) throws RocksDBException {
    long[] count = countOf(origin);
    int weight = UrlCap.weight(url);
    if (depth > 0 && count[0] + weight > count[1]) {
      dropped.merge(origin, 1, Integer::sum);
      if (count[0] >= count[1]) markFull(origin); // else a shorter URL may still fit
      return false;
    }
    count[0] += weight;
    changed.add(origin);
    if (count[0] >= count[1]) markFull(origin); // the next calls' lookups drop before the gate
    return true;
  }

  /** Notes a full origin for the lookups; past {@value #LIMIT} the set starts again (a group finds each anew). */
  private void markFull(String origin) {
    if (full.size() >= LIMIT && !full.contains(origin)) full.clear();
    full.add(origin);
  }

  /** Counts a new URL of {@code origin} whatever its count (a crawl recorded on a URL the store lacked). */
  void add(String origin, String url) throws RocksDBException {
    long[] count = countOf(origin);
    count[0] += UrlCap.weight(url);
    changed.add(origin);
    if (count[0] >= count[1]) markFull(origin);
  }

  /** Puts the counts the group changed into its batch, before it is written. */
  void put(BatchBytes batch) {
    for (String origin : changed) {
      batch.put(rocks.meta, Keys.originUrls(origin), encode(counts.get(origin)[0]));
    }
  }

  /** The group is written: what it dropped is told once the lock is let go ({@link #tell}). */
  void written() {
    changed.clear();
    for (Map.Entry<String, Integer> d : dropped.entrySet()) untold.add(Map.entry(d.getKey(), d.getValue()));
    dropped.clear();
    if (counts.size() > LIMIT) counts.clear();
  }

  /** Tells the cap's listener what written groups dropped; outside the lock (the listener may print). */
  void tell() {
    for (Map.Entry<String, Integer> d; (d = untold.poll()) != null; ) cap.dropped().dropped(d.getKey(), d.getValue());
  }

  /**
   * The group failed, nothing of it written: the counts are read again from the store, and the origins
   * it counted URLs of are no longer taken as full (the group may have filled them; the next group that
   * finds one full marks it again).
   */
  void failed() {
    full.removeAll(changed);
    changed.clear();
    dropped.clear();
    counts.clear();
  }

  /** Tells the listener of URLs a call's lookup dropped ({@link #isFull}), outside any group. */
  void droppedBeforeWrite(String origin, int count) {
    cap.dropped().dropped(origin, count);
  }

  private long[] countOf(String origin) throws RocksDBException {
    long[] count = counts.get(origin);
    if (count == null) {
      byte[] value = rocks.db.get(rocks.meta, Keys.originUrls(origin));
      count = new long[] {value == null ? 0 : new ByteReader(value).readLongBigEndian(), cap.of(origin)};
      counts.put(origin, count);
    }
    return count;
  }

  static byte[] encode(long count) {
    return new ByteWriter(8).writeLongBigEndian(count).toByteArray();
  }
}
