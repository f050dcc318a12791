package org.forager.store;

import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;

/**
 * The URLs links pointed to lately, as the store knows them: never-crawled ones with their record
 * and the inlinks counted since it was written, crawled ones as such. What lets a link to a known URL
 * cost no lookup and no write (issue 15: each link to a known URL read its record, and wrote it back
 * with one more inlink while it was uncrawled: about 15 % of a crawl's CPU).
 *
 * <p>A never-crawled URL's record is written again only when its priority changes (its place in the
 * due order), when it is crawled (the held inlinks go into that record), when its entry is evicted,
 * and by {@link #drain} (the store's close and full reads). So a process killed loses at most the
 * inlinks counted since a URL's last priority change: never a URL, never an order the store showed.
 * While a URL has an entry, the entry is the truth about its inlinks, ahead of the URL table; a
 * crawled URL stays crawled, so its entry needs no more than its URL.
 *
 * <p>Set-associative: {@value #WAYS} entries a set, chosen by the URL's {@link String#hashCode}
 * (cached in the string, and already computed by the call's deduplication), an entry found by that
 * code and then its URL key's bytes, so never taken for another URL's. A full set evicts an entry
 * not used since the set last filled, the one holding the fewest inlinks (one holding none costs no
 * write). What a link needs (depth, priority, inlinks) is in primitive arrays; an entry keeps alive
 * only its URL key and, while never crawled, its record's value: the two byte arrays the store made
 * for its lookup or write anyway, leaves for the garbage collector (a table of records and strings
 * doubled the collector's work on the benchmark). Nothing is allocated for a link counted.
 *
 * <p>Changed only under the store's write lock; {@link #mayHold} alone may be asked without it.
 */
final class LinkTargets {

  static final int WAYS = 8;
  /** Heap bytes an entry keeps alive, about: a never-crawled URL's key and record value, and its slot. */
  static final int ENTRY_BYTES = 200;

  private final int[] codes;
  /** The entry's URL key ({@link Keys#url(String)}); null: no entry. */
  private final byte[][] keys;
  /** A never-crawled URL's record value as the URL table has it; null: the URL is crawled. */
  private final byte[][] values;
  /** Of the record in {@link #values}: its inlinks, quantized priority and depth. */
  private final int[] inlinks;
  private final char[] ranks;
  private final char[] depths;
  /** Inlinks counted beyond the record's. */
  private final int[] held;
  private final boolean[] used;
  private final int setMask;

  /** What an entry held, for its URL's record to be written: the record with every inlink. */
  record Held(byte[] key, UrlRecord url) {}

  /** A table of at least {@code capacity} entries (a power of two, at least {@value #WAYS}). */
  LinkTargets(int capacity) {
    int slots = Integer.highestOneBit(Math.max(capacity, WAYS));
    if (slots < capacity) slots <<= 1;
    codes = new int[slots];
    keys = new byte[slots][];
    values = new byte[slots][];
    inlinks = new int[slots];
    ranks = new char[slots];
    depths = new char[slots];
    held = new int[slots];
    used = new boolean[slots];
    setMask = slots / WAYS - 1;
  }

  /**
   * Entries for about a twelfth of the heap (a 240 MiB heap: 131,072 entries, at most about 25 MiB
   * when full), between 4,096 and 2^20.
   */
  static int defaultCapacity() {
    long entries = Runtime.getRuntime().maxMemory() / 12 / ENTRY_BYTES;
    return (int) Math.clamp(entries, 4_096, 1 << 20);
  }

  int capacity() {
    return keys.length;
  }

  /**
   * Whether {@code url} may have an entry: without the lock, a hint to save a lookup of the URL table
   * (the caller finds out under the lock, and reads the table then when it has none).
   */
  boolean mayHold(String url) {
    int code = url.hashCode();
    int first = firstSlot(code);
    for (int i = first; i < first + WAYS; i++) {
      if (codes[i] == code && keys[i] != null) return true;
    }
    return false;
  }

  /** The slot of the entry of {@code url}, whose key is {@code key}, or -1. */
  int find(String url, byte[] key) {
    int code = url.hashCode();
    int first = firstSlot(code);
    for (int i = first; i < first + WAYS; i++) {
      byte[] entry = keys[i];
      if (codes[i] == code && entry != null && Arrays.equals(entry, key)) {
        used[i] = true;
        return i;
      }
    }
    return -1;
  }

  /** Whether the entry's URL is crawled (the entry holds nothing more). */
  boolean isCrawled(int slot) {
    return values[slot] == null;
  }

  /** A never-crawled entry's depth, as stored. */
  int depth(int slot) {
    return depths[slot];
  }

  /** A never-crawled entry's priority as stored ({@link Ranking#quantize}). */
  int rank(int slot) {
    return ranks[slot];
  }

  /** The inlinks of a never-crawled entry's URL: its record's and those held. */
  int total(int slot) {
    return (int) Math.min(Integer.MAX_VALUE, (long) inlinks[slot] + held[slot]);
  }

  /** A never-crawled entry's record as the URL table has it (decoded now). */
  UrlRecord written(int slot) {
    return Values.decodeUrl(Keys.url(keys[slot]), values[slot]);
  }

  /** A never-crawled entry's record with its held inlinks: the URL as it is (decoded now). */
  UrlRecord current(int slot) {
    return withInlinks(written(slot), total(slot));
  }

  /** One more inlink, held. */
  void count(int slot) {
    if (total(slot) < Integer.MAX_VALUE) held[slot]++;
  }

  /** The entry's never-crawled URL was written as {@code record}, {@code value} encoded: nothing held any more. */
  void written(int slot, UrlRecord record, byte[] value) {
    set(slot, codes[slot], keys[slot], record, value, 0);
  }

  /**
   * The URL of {@code key} is crawled now; its entry, if it had one, holds no inlinks after this (the
   * caller took them with {@link #current}). When it had none it gets one; what an entry evicted for it
   * held is returned, for the caller to write.
   */
  Optional<Held> markCrawled(String url, byte[] key) {
    int slot = find(url, key);
    if (slot >= 0) {
      values[slot] = null;
      held[slot] = 0;
      return Optional.empty();
    }
    slot = victim(firstSlot(url.hashCode()));
    Optional<Held> evicted = evicted(slot);
    codes[slot] = url.hashCode();
    keys[slot] = key;
    values[slot] = null;
    held[slot] = 0;
    used[slot] = false;
    return evicted;
  }

  /**
   * Gives a never-crawled URL without an entry one: {@code record} as the URL table has it ({@code
   * value} encoded, {@code key} its key), and {@code inlinks} held beyond it. What an entry evicted for
   * it held is returned, for the caller to write.
   */
  Optional<Held> put(UrlRecord record, byte[] key, byte[] value, int inlinks) {
    int code = record.url().hashCode();
    int slot = victim(firstSlot(code));
    Optional<Held> evicted = evicted(slot);
    set(slot, code, key, record, value, inlinks);
    used[slot] = false;
    return evicted;
  }

  private void set(int slot, int code, byte[] key, UrlRecord record, byte[] value, int heldInlinks) {
    codes[slot] = code;
    keys[slot] = key;
    values[slot] = value;
    inlinks[slot] = record.inlinks();
    ranks[slot] = (char) Ranking.quantize(record.priority());
    depths[slot] = (char) record.depth();
    held[slot] = heldInlinks;
  }

  private Optional<Held> evicted(int slot) {
    if (keys[slot] == null || values[slot] == null || held[slot] == 0) return Optional.empty();
    return Optional.of(new Held(keys[slot], current(slot)));
  }

  /**
   * Where a new entry of the set starting at {@code first} goes: a free slot, else the entry holding
   * the fewest inlinks among those not used since the set was last full (when all were, none is any
   * more: a clock of one turn).
   */
  private int victim(int first) {
    for (int i = first; i < first + WAYS; i++) if (keys[i] == null) return i;
    int victim = -1;
    for (int i = first; i < first + WAYS; i++) {
      if (!used[i] && (victim < 0 || held[i] < held[victim])) victim = i;
    }
    if (victim >= 0) return victim;
    victim = first;
    for (int i = first; i < first + WAYS; i++) {
      used[i] = false;
      if (held[i] < held[victim]) victim = i;
    }
    return victim;
  }

  /**
   * Hands what every never-crawled entry holds to {@code write}, which must write it and answer the
   * value written; then the entry holds nothing.
   */
  void drain(Function<Held, byte[]> write) {
    for (int i = 0; i < keys.length; i++) {
      if (values[i] == null || held[i] == 0) continue;
      UrlRecord current = current(i);
      written(i, current, write.apply(new Held(keys[i], current)));
    }
  }

  /** How many inlinks the table holds in all (tests). */
  long heldTotal() {
    long total = 0;
    for (int i = 0; i < keys.length; i++) if (values[i] != null) total += held[i];
    return total;
  }

  private int firstSlot(int code) {
    int spread = code * 0x9E3779B9; // Fibonacci hashing: codes of similar URLs differ in their low bits
    return ((spread ^ (spread >>> 16)) & setMask) * WAYS;
  }

  private static UrlRecord withInlinks(UrlRecord r, int inlinks) {
    if (inlinks == r.inlinks()) return r;
    return new UrlRecord(r.url(), r.depth(), r.discoveredFrom(), r.discoveredAt(), r.fetchCount(), r.lastCrawl(),
        r.nextFetchAt(), r.priority(), inlinks, r.hops());
  }
}
