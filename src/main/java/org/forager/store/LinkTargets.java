package org.forager.store;

import java.util.Arrays;
import java.util.Optional;
import java.util.function.Consumer;
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
 * write). Everything is in primitive arrays: what a link needs (depth, priority, inlinks) in arrays of
 * their own, an entry's URL key and record value copied into a slot of {@value #SLOT_BYTES} bytes
 * of one large array (a URL whose key and value do not fit has no entry: its links are looked up
 * and written as before). No reference the garbage collector would trace or scan: a first version
 * that kept records and strings, then byte arrays, doubled the collector's work on the benchmark
 * (each entry put dirtied a card the next young collection scanned). Nothing is allocated for a link
 * counted; a record is decoded only to be written.
 *
 * <p>Changed only under the store's write lock; {@link #mayHold} alone may be asked without it.
 */
final class LinkTargets {

  static final int WAYS = 8;
  /** Bytes of an entry's slot for its URL key and record value. */
  static final int SLOT_BYTES = 192;
  /** Heap bytes of an entry: its slot and its primitive fields. */
  static final int ENTRY_BYTES = SLOT_BYTES + 20;

  private final int[] codes;
  /** The entry's URL key's length in its slot ({@link Keys#url(String)}); 0: no entry. */
  private final char[] keyLengths;
  /** A never-crawled URL's record value's length, after its key; 0: the URL is crawled. */
  private final char[] valueLengths;
  private final byte[] slots;
  /** Of the record in the slot: its inlinks, quantized priority and depth. */
  private final int[] inlinks;
  private final char[] ranks;
  private final char[] depths;
  /** Inlinks counted beyond the record's. */
  private final int[] held;
  private final boolean[] used;
  private final int sets;

  /** What an entry held, for its URL's record to be written: the record with every inlink. */
  record Held(byte[] key, UrlRecord url) {}

  /** A table of {@code capacity} entries, rounded up to a whole set. */
  LinkTargets(int capacity) {
    sets = Math.max(1, (capacity + WAYS - 1) / WAYS);
    int entries = sets * WAYS;
    codes = new int[entries];
    keyLengths = new char[entries];
    valueLengths = new char[entries];
    slots = new byte[Math.multiplyExact(entries, SLOT_BYTES)];
    inlinks = new int[entries];
    ranks = new char[entries];
    depths = new char[entries];
    held = new int[entries];
    used = new boolean[entries];
  }

  /**
   * Entries for a twelfth of the heap (a 240 MiB heap: about 99,000 entries, 20 MiB), between 4,096
   * and 2^20.
   */
  static int defaultCapacity() {
    long entries = Runtime.getRuntime().maxMemory() / 12 / ENTRY_BYTES;
    return (int) Math.clamp(entries, 4_096, 1 << 20);
  }

  int capacity() {
    return codes.length;
  }

  /**
   * Whether {@code url} may have an entry: without the lock, a hint to save a lookup of the URL table
   * (the caller finds out under the lock, and reads the table then when it has none).
   */
  boolean mayHold(String url) {
    int code = url.hashCode();
    int first = firstSlot(code);
    for (int i = first; i < first + WAYS; i++) {
      if (codes[i] == code && keyLengths[i] != 0) return true;
    }
    return false;
  }

  /** The slot of the entry of {@code url}, whose key is {@code key}, or -1. */
  int find(String url, byte[] key) {
    int code = url.hashCode();
    int first = firstSlot(code);
    for (int i = first; i < first + WAYS; i++) {
      if (codes[i] == code && keyLengths[i] == key.length
          && Arrays.equals(slots, offset(i), offset(i) + key.length, key, 0, key.length)) {
        used[i] = true;
        return i;
      }
    }
    return -1;
  }

  /** Whether the entry's URL is crawled (the entry holds nothing more). */
  boolean isCrawled(int slot) {
    return valueLengths[slot] == 0;
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
    int from = offset(slot) + keyLengths[slot];
    return Values.decodeUrl(Keys.url(key(slot)), Arrays.copyOfRange(slots, from, from + valueLengths[slot]));
  }

  /** A never-crawled entry's record with its held inlinks: the URL as it is (decoded now). */
  UrlRecord current(int slot) {
    return withInlinks(written(slot), total(slot));
  }

  /** One more inlink, held. */
  void count(int slot) {
    if (total(slot) < Integer.MAX_VALUE) held[slot]++;
  }

  /**
   * The entry's never-crawled URL was written as {@code record}, {@code value} encoded: nothing held
   * any more. An entry the new value does not fit in is dropped (it holds nothing).
   */
  void written(int slot, UrlRecord record, byte[] value) {
    if (!fits(keyLengths[slot], value.length)) {
      keyLengths[slot] = 0;
      return;
    }
    System.arraycopy(value, 0, slots, offset(slot) + keyLengths[slot], value.length);
    setRecord(slot, record, value.length, 0);
  }

  /**
   * The URL of {@code key} is crawled now; its entry, if it had one, holds no inlinks after this (the
   * caller took them with {@link #current}). When it had none it gets one (when its key fits); what
   * an entry evicted for it held is returned, for the caller to write.
   */
  Optional<Held> markCrawled(String url, byte[] key) {
    int slot = find(url, key);
    if (slot >= 0) {
      valueLengths[slot] = 0;
      held[slot] = 0;
      return Optional.empty();
    }
    if (!fits(key.length, 0)) return Optional.empty();
    slot = victim(firstSlot(url.hashCode()));
    Optional<Held> evicted = evicted(slot);
    setKey(slot, url.hashCode(), key);
    valueLengths[slot] = 0;
    held[slot] = 0;
    return evicted;
  }

  /**
   * Gives a never-crawled URL without an entry one: {@code record} as the URL table has it ({@code
   * value} encoded, {@code key} its key), and {@code inlinks} held beyond it; false, and nothing done,
   * when the key and value do not fit a slot. What an entry evicted for it held goes to {@code write}.
   */
  boolean put(UrlRecord record, byte[] key, byte[] value, int inlinks, Consumer<Held> write) {
    if (!fits(key.length, value.length)) return false;
    int code = record.url().hashCode();
    int slot = victim(firstSlot(code));
    evicted(slot).ifPresent(write);
    setKey(slot, code, key);
    System.arraycopy(value, 0, slots, offset(slot) + key.length, value.length);
    setRecord(slot, record, value.length, inlinks);
    return true;
  }

  private static boolean fits(int keyLength, int valueLength) {
    return keyLength > 0 && keyLength + valueLength <= SLOT_BYTES;
  }

  private void setKey(int slot, int code, byte[] key) {
    codes[slot] = code;
    keyLengths[slot] = (char) key.length;
    System.arraycopy(key, 0, slots, offset(slot), key.length);
    used[slot] = false;
  }

  private void setRecord(int slot, UrlRecord record, int valueLength, int heldInlinks) {
    valueLengths[slot] = (char) valueLength;
    inlinks[slot] = record.inlinks();
    ranks[slot] = (char) Ranking.quantize(record.priority());
    depths[slot] = (char) record.depth();
    held[slot] = heldInlinks;
  }

  private byte[] key(int slot) {
    return Arrays.copyOfRange(slots, offset(slot), offset(slot) + keyLengths[slot]);
  }

  private static int offset(int slot) {
    return slot * SLOT_BYTES;
  }

  private Optional<Held> evicted(int slot) {
    if (keyLengths[slot] == 0 || valueLengths[slot] == 0 || held[slot] == 0) return Optional.empty();
    return Optional.of(new Held(key(slot), current(slot)));
  }

  /**
   * Where a new entry of the set starting at {@code first} goes: a free slot, else the entry holding
   * the fewest inlinks among those not used since the set was last full (when all were, none is any
   * more: a clock of one turn).
   */
  private int victim(int first) {
    for (int i = first; i < first + WAYS; i++) if (keyLengths[i] == 0) return i;
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
    for (int i = 0; i < codes.length; i++) {
      if (keyLengths[i] == 0 || valueLengths[i] == 0 || held[i] == 0) continue;
      UrlRecord current = current(i);
      written(i, current, write.apply(new Held(key(i), current)));
    }
  }

  /** How many inlinks the table holds in all (tests). */
  long heldTotal() {
    long total = 0;
    for (int i = 0; i < codes.length; i++) if (keyLengths[i] != 0 && valueLengths[i] != 0) total += held[i];
    return total;
  }

  private int firstSlot(int code) {
    // Fibonacci hashing (codes of similar URLs differ in their low bits), then the set by multiplying
    // into [0, sets): any number of sets, so the table takes the memory it is given.
    int spread = code * 0x9E3779B9;
    long unsigned = (spread ^ (spread >>> 16)) & 0xFFFF_FFFFL;
    return (int) ((unsigned * sets) >>> 32) * WAYS;
  }

  /** {@code r} with {@code inlinks}. */
  static UrlRecord withInlinks(UrlRecord r, int inlinks) {
    if (inlinks == r.inlinks()) return r;
    return new UrlRecord(r.url(), r.depth(), r.discoveredFrom(), r.discoveredAt(), r.fetchCount(), r.lastCrawl(),
        r.nextFetchAt(), r.priority(), inlinks, r.hops());
  }
}
