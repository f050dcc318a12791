package org.forager.store;

import java.util.Optional;
import java.util.function.Consumer;

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
 * code and then {@link String#equals}, so never taken for another URL's. A full set evicts an entry
 * not used since the set last filled, the one holding the fewest inlinks (one holding none costs no
 * write). Primitive arrays, the URLs and the records the store made anyway: nothing is allocated for
 * a link counted.
 *
 * <p>Changed only under the store's write lock; {@link #mayHold} alone may be asked without it.
 */
final class LinkTargets {

  static final int WAYS = 8;
  /** Heap bytes an entry keeps alive, about: a never-crawled URL's record, URL and source. */
  static final int ENTRY_BYTES = 200;

  private final int[] codes;
  /** The entry's URL; null: no entry. */
  private final String[] urls;
  /** A never-crawled URL's record as the URL table has it; null: the URL is crawled. */
  private final UrlRecord[] records;
  private final int[] held;
  private final boolean[] used;
  private final int setMask;

  /** A table of at least {@code capacity} entries (a power of two, at least {@value #WAYS}). */
  LinkTargets(int capacity) {
    int slots = Integer.highestOneBit(Math.max(capacity, WAYS));
    if (slots < capacity) slots <<= 1;
    codes = new int[slots];
    urls = new String[slots];
    records = new UrlRecord[slots];
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
    return urls.length;
  }

  /**
   * Whether {@code url} may have an entry: without the lock, a hint to save a lookup of the URL table
   * (the caller finds out under the lock, and reads the table then when it has none).
   */
  boolean mayHold(String url) {
    int code = url.hashCode();
    int first = firstSlot(code);
    for (int i = first; i < first + WAYS; i++) {
      if (codes[i] == code && urls[i] != null) return true;
    }
    return false;
  }

  /** The slot of {@code url}'s entry, or -1. */
  int find(String url) {
    int code = url.hashCode();
    int first = firstSlot(code);
    for (int i = first; i < first + WAYS; i++) {
      String entry = urls[i];
      if (codes[i] == code && entry != null && entry.equals(url)) {
        used[i] = true;
        return i;
      }
    }
    return -1;
  }

  /** Whether the entry's URL is crawled (the entry holds nothing more). */
  boolean isCrawled(int slot) {
    return records[slot] == null;
  }

  /** A never-crawled entry's record as the URL table has it. */
  UrlRecord written(int slot) {
    return records[slot];
  }

  /** A never-crawled entry's record with its held inlinks: the URL as it is. */
  UrlRecord current(int slot) {
    return withInlinks(records[slot], total(slot));
  }

  /** The inlinks of a never-crawled entry's URL: its record's and those held. */
  int total(int slot) {
    return (int) Math.min(Integer.MAX_VALUE, (long) records[slot].inlinks() + held[slot]);
  }

  /** One more inlink, held. */
  void count(int slot) {
    if (total(slot) < Integer.MAX_VALUE) held[slot]++;
  }

  /** The entry's never-crawled URL was written as {@code record}: nothing held any more. */
  void written(int slot, UrlRecord record) {
    records[slot] = record;
    held[slot] = 0;
  }

  /**
   * {@code url} is crawled now; its entry, if it had one, holds no inlinks after this (the caller took
   * them with {@link #current}). When it had none it gets one; one evicted for it that held inlinks is
   * returned (as it is, for the caller to write).
   */
  Optional<UrlRecord> markCrawled(String url) {
    int slot = find(url);
    if (slot >= 0) {
      records[slot] = null;
      held[slot] = 0;
      return Optional.empty();
    }
    return put(url, null, 0);
  }

  /**
   * Gives a never-crawled URL without an entry one: {@code record} as the URL table has it, and
   * {@code inlinks} held beyond it. An entry evicted for it that held inlinks is returned (as it is,
   * for the caller to write).
   */
  Optional<UrlRecord> put(UrlRecord record, int inlinks) {
    return put(record.url(), record, inlinks);
  }

  private Optional<UrlRecord> put(String url, UrlRecord record, int inlinks) {
    int code = url.hashCode();
    int slot = victim(firstSlot(code));
    Optional<UrlRecord> evicted = urls[slot] != null && records[slot] != null && held[slot] > 0
        ? Optional.of(current(slot)) : Optional.empty();
    codes[slot] = code;
    urls[slot] = url;
    records[slot] = record;
    held[slot] = inlinks;
    used[slot] = false;
    return evicted;
  }

  /**
   * Where a new entry of the set starting at {@code first} goes: a free slot, else the entry holding
   * the fewest inlinks among those not used since the set was last full (when all were, none is any
   * more: a clock of one turn).
   */
  private int victim(int first) {
    for (int i = first; i < first + WAYS; i++) if (urls[i] == null) return i;
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

  /** Hands every never-crawled URL holding inlinks to {@code write} as it is, then holds none for it. */
  void drain(Consumer<UrlRecord> write) {
    for (int i = 0; i < urls.length; i++) {
      if (records[i] == null || held[i] == 0) continue;
      UrlRecord current = current(i);
      write.accept(current);
      written(i, current);
    }
  }

  /** How many inlinks the table holds in all (tests). */
  long heldTotal() {
    long total = 0;
    for (int i = 0; i < urls.length; i++) if (records[i] != null) total += held[i];
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
