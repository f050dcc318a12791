package org.forager.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The never-crawled URLs links pointed to lately, as the store knows them: their record and the
 * inlinks counted since it was written (a URL crawled leaves the table: {@link #forgetCrawled}; its
 * fingerprint knows it, {@link CrawledFingerprints}). What lets a link to a known URL
 * cost no lookup and no write (issue 15: each link to a known URL read its record, and wrote it back
 * with one more inlink while it was uncrawled: about 15 % of a crawl's CPU).
 *
 * <p>A never-crawled URL's record is written again only when it is crawled (the held inlinks go into
 * that record), when it holds many inlinks ({@link #mustWrite}), when its entry is evicted, and by
 * {@link #drain} (the store's close and full reads). A link that raises its priority is held too
 * ({@link #raise}): the entry keeps the priority it rose to beside the one its record and due key
 * have on disk, and sits in a list of its origin's bucket so that a due scan finds it and shows the
 * URL at its new place; the raise is written, its due key moved, with the entry's other holdings, or
 * never if the URL is crawled first (its crawl deletes the older key). So a process killed loses at
 * most the inlinks and the raise held since a URL's record was last written: never a URL, and each
 * URL's record and due key on disk agree. While a URL has an entry, the entry is the truth about its
 * inlinks and priority, ahead of the URL table.
 *
 * <p>Set-associative: {@value #WAYS} entries a set, chosen by the URL's {@link String#hashCode}
 * (cached in the string, and already computed by the call's deduplication), an entry found by that
 * code and then its URL key's bytes, so never taken for another URL's. Two sets a URL, by two mixes
 * of its code: an entry goes to its first set while that has room, else to its second, and its first
 * set is marked overflowed (until the table grows), so that a miss looks at the second set only where
 * an entry may be (at 300 pages a site, where the table fills, 2.5 % less CPU than one set a URL;
 * nothing at 100, where sets rarely fill). When both are full the cheapest entry of the two goes: one
 * not used since its set last filled, holding the fewest inlinks (one holding none costs no write).
 * The table starts small and doubles as it fills, up to its capacity.
 *
 * <p>Everything is in primitive arrays: what a link needs (depth, priority, inlinks) in arrays of
 * their own, an entry's URL key and, when it fits too, its record's value copied into a slot of one
 * large array (a URL whose key does not fit has no entry, and its links are looked up and written as
 * before; a record whose value does not fit is read when it must be written). No reference the
 * garbage collector would trace or scan: a first version that kept records and strings, then byte
 * arrays, doubled the collector's work on the benchmark (each entry put dirtied a card the next young
 * collection scanned). Nothing is allocated for a link counted.
 *
 * <p>The slots are sized to the entries: each time the table grows it picks the smallest slot, from
 * {@value #MIN_SLOT_BYTES} to {@value #MAX_SLOT_BYTES} bytes, that the key and value of
 * {@value #FITTING_PERCENT} % of the entries put since it last grew would fit, and holds as many
 * entries as its budget of bytes allows at that size (the benchmark's 96-byte slots: 1.74 times as
 * many as 192-byte ones, 7 % of the CPU of a crawl that outgrows the table). A growth into smaller
 * slots lets go at most {@value #MAX_LET_GO} of the entries too long for them that hold something
 * (each a write in the group that grows); it keeps larger slots rather than more. A table that starts
 * at its capacity (tests' small ones) keeps {@value #MAX_SLOT_BYTES}-byte slots.
 *
 * <p>Changed only under the store's write lock; {@link #mayHold} and {@link #mayHoldRecord} alone may
 * be asked without it.
 */
final class LinkTargets {

  static final int WAYS = 8;
  /** Bytes of an entry's slot for its URL key and record value, at most: a longer key has no entry. */
  static final int MAX_SLOT_BYTES = 192;
  /** Bytes of an entry's slot at least. */
  static final int MIN_SLOT_BYTES = 64;
  /** The share of entries put whose key and value the slot size picked at a growth must fit. */
  static final int FITTING_PERCENT = 98;
  /** Entries holding inlinks or a raise that a growth into smaller slots may let go, at most. */
  static final int MAX_LET_GO = 1_024;
  /** Heap bytes of an entry's primitive fields, beside its slot. */
  private static final int FIELD_BYTES = 34;
  /** Heap bytes of an entry of the largest slot: what a capacity is counted in. */
  static final int ENTRY_BYTES = MAX_SLOT_BYTES + FIELD_BYTES;
  /** Sets of a new table; it doubles when half full. */
  private static final int FIRST_SETS = 512;
  /** The smallest table {@link #defaultCapacity} gives (and a reader's, which never holds a target). */
  static final int MIN_CAPACITY = 4_096;
  /** Entries at most: {@link #raisedIn} orders slots in 24 bits. */
  private static final int MAX_ENTRIES = 1 << 24;
  /** {@link #valueLengths} of a never-crawled URL whose value is not in its slot (too long). */
  private static final char NOT_KEPT = 0xFFFF;

  /** Heap bytes the entries may take, their slots and fields. */
  private final long budget;
  /** Bytes of each entry's slot now. */
  private int slotBytes = MAX_SLOT_BYTES;
  /** Sets at most, with slots of {@link #slotBytes}. */
  private int maxSets;
  private int sets;
  private int size;
  /**
   * The entries put since the table last grew by their key and value's length, in steps of 8 bytes
   * (the last counts those longer than {@link #MAX_SLOT_BYTES}): what the next slot size is picked from.
   */
  private final int[] putLengths = new int[MAX_SLOT_BYTES / 8 + 2];
  private int[] codes;
  /** The entry's URL key's length in its slot ({@link Keys#url(String)}); 0: no entry. */
  private char[] keyLengths;
  /** An entry's record value's length, after its key ({@link #NOT_KEPT} when too long). */
  private char[] valueLengths;
  private byte[] slots;
  /** Of the record in the URL table: its inlinks, quantized priority and depth. */
  private int[] inlinks;
  private char[] ranks;
  private char[] depths;
  /** Inlinks counted beyond the record's. */
  private int[] held;
  /**
   * The priority of a never-crawled entry's record as the URL table has it, and so its due key's:
   * below {@link #ranks} while the entry holds a raise (its priority rose, not written yet).
   */
  private char[] writtenRanks;
  /**
   * The entries holding a raise, in doubly linked lists by their origin's bucket ({@link #bucketOf}),
   * so that a due scan finds an origin's raises: the first of a bucket, each one's next and previous
   * (-1: none), and each one's bucket.
   */
  private int[] raisedHeads;
  private int[] nextRaised;
  private int[] previousRaised;
  private int[] raisedBuckets;
  private boolean[] used;
  /** By set: whether an entry whose first set this is went to its second (sticky until a growth). */
  private boolean[] overflowed;

  /** Buckets of the lists of entries holding a raise. */
  static final int RAISED_BUCKETS = 4096;

  /**
   * What an entry held, for its URL's record to be written: its key, its record's value as the URL
   * table has it (null when the entry did not keep it), the URL's inlinks in all, and when it holds a
   * raise the priority it rose to ({@code rank}) and the one its record and due key have on disk
   * ({@code writtenRank}); both -1 otherwise.
   */
  record Held(byte[] key, byte[] value, int inlinks, int rank, int writtenRank) {

    Held(byte[] key, byte[] value, int inlinks) {
      this(key, value, inlinks, -1, -1);
    }

    boolean raised() {
      return writtenRank >= 0;
    }
  }

  /** An entry holding a raise, for a due scan: its URL, record value (as written), depth and priority now. */
  record Raised(String url, byte[] value, int depth, int rank) {}

  /**
   * A table of the bytes of {@code capacity} entries of the largest slot ({@link #ENTRY_BYTES}), rounded
   * up to a whole set: more entries when they are smaller. It starts smaller.
   */
  LinkTargets(int capacity) {
    budget = (long) Math.max(1, (capacity + WAYS - 1) / WAYS) * WAYS * ENTRY_BYTES;
    maxSets = maxSetsFor(MAX_SLOT_BYTES);
    allocate(Math.min(FIRST_SETS, maxSets));
  }

  /** The sets the budget holds with slots of {@code bytes}. */
  private int maxSetsFor(int bytes) {
    long entries = Math.min(budget / (bytes + FIELD_BYTES), Math.min(MAX_ENTRIES, Integer.MAX_VALUE / bytes));
    return (int) Math.max(1, entries / WAYS);
  }

  private void allocate(int newSets) {
    sets = newSets;
    int entries = sets * WAYS;
    codes = new int[entries];
    keyLengths = new char[entries];
    valueLengths = new char[entries];
    slots = new byte[Math.multiplyExact(entries, slotBytes)];
    inlinks = new int[entries];
    ranks = new char[entries];
    depths = new char[entries];
    held = new int[entries];
    writtenRanks = new char[entries];
    nextRaised = new int[entries];
    previousRaised = new int[entries];
    raisedBuckets = new int[entries];
    raisedHeads = new int[RAISED_BUCKETS];
    Arrays.fill(raisedHeads, -1);
    used = new boolean[entries];
    overflowed = new boolean[sets];
    size = 0;
  }

  /**
   * Entries of the largest slot for a sixth of the heap at most (the launcher's 247.5 MiB usable: about
   * 191,400 entries, 41 MiB; smaller slots hold more in those bytes), between 4,096 and 2^20. On the
   * benchmark a twelfth cost 2 % more CPU than a sixth (more lookups); a quarter cost 2 % more with G1
   * (less room for the young generation) and saved nothing with the Parallel collector:
   * docs/benchmarks.md, sessions 19 and 20 (and at 300 pages a site ran the heap out: session 47).
   */
  static int defaultCapacity() {
    long entries = Runtime.getRuntime().maxMemory() / 6 / ENTRY_BYTES;
    return (int) Math.clamp(entries, MIN_CAPACITY, 1 << 20);
  }

  /** Forgets every entry and what it held (after a failed write: the table must not keep what was not written). */
  void clear() {
    allocate(Math.min(FIRST_SETS, maxSets));
  }

  /**
   * Whether the URL of {@code key} may have an entry: without the lock, a hint to save a lookup of the
   * URL table (the caller finds out under the lock, and reads the table then when it has none).
   */
  boolean mayHold(String url, byte[] key) {
    return hint(url, key, false);
  }

  /**
   * Whether the URL of {@code key} may have an entry with its record: {@link #mayHold}, for a URL to be
   * recorded (a crawled URL's entry has not its record, nor its validators).
   */
  boolean mayHoldRecord(String url, byte[] key) {
    return hint(url, key, true);
  }

  private boolean hint(String url, byte[] key, boolean withRecord) {
    // Without the lock the table may grow meanwhile: arrays and the slot size read at different moments
    // may be of two tables; then no hint (the URL is looked up), or a wrong one (the caller finds out),
    // but never an index out of bounds: the checks below keep every read inside the arrays read.
    int[] codes = this.codes;
    char[] keyLengths = this.keyLengths;
    char[] valueLengths = this.valueLengths;
    byte[] slots = this.slots;
    int slotBytes = this.slotBytes;
    boolean[] overflowed = this.overflowed;
    if (keyLengths.length != codes.length || valueLengths.length != codes.length
        || slots.length != codes.length * slotBytes || key.length > slotBytes
        || overflowed.length * WAYS != codes.length) {
      return false;
    }
    int code = url.hashCode();
    int n = codes.length / WAYS;
    int first = firstSlot(code, n);
    int second = overflowed[first / WAYS] ? secondSlot(code, n) : first;
    for (int k = 0; k < 2 * WAYS; k++) {
      int i = inPair(first, second, k);
      boolean recordKept = valueLengths[i] != NOT_KEPT;
      if (codes[i] == code && keyLengths[i] == key.length && (!withRecord || recordKept)
          && Arrays.equals(slots, i * slotBytes, i * slotBytes + key.length, key, 0, key.length)) {
        return true;
      }
      if (k == WAYS - 1 && second == first) break;
    }
    return false;
  }

  /** The slot of the entry of {@code url}, whose key is {@code key}, or -1; the entry is noted used. */
  int find(String url, byte[] key) {
    int slot = slotOf(url, key);
    if (slot >= 0) used[slot] = true;
    return slot;
  }

  private int slotOf(String url, byte[] key) {
    int code = url.hashCode();
    int first = firstSlot(code, sets);
    int found = slotIn(first, code, key);
    if (found >= 0 || !overflowed[first / WAYS]) return found;
    int second = secondSlot(code, sets);
    return second == first ? -1 : slotIn(second, code, key);
  }

  private int slotIn(int first, int code, byte[] key) {
    for (int i = first; i < first + WAYS; i++) {
      if (codes[i] == code && keyLengths[i] == key.length
          && Arrays.equals(slots, offset(i), offset(i) + key.length, key, 0, key.length)) {
        return i;
      }
    }
    return -1;
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

  /**
   * Whether a never-crawled entry holds so many inlinks that its record is to be written even though
   * its priority stays: at least 16, and at least an eighth of its record's, so that a process killed
   * loses at most that many.
   */
  boolean mustWrite(int slot) {
    return held[slot] >= Math.max(16, inlinks[slot] / 8);
  }

  /** What a never-crawled entry holds now, for its record to be written. */
  Held held(int slot) {
    return raised(slot)
        ? new Held(key(slot), value(slot), total(slot), ranks[slot], writtenRanks[slot])
        : new Held(key(slot), value(slot), total(slot));
  }

  /** Whether a never-crawled entry holds a raise. */
  private boolean raised(int slot) {
    return ranks[slot] != writtenRanks[slot];
  }

  /** A never-crawled entry's priority in the URL table when it holds a raise, else -1. */
  int writtenRank(int slot) {
    return raised(slot) ? writtenRanks[slot] : -1;
  }

  /** The bucket of the lists of raised entries that {@code origin}'s go in. */
  static int bucketOf(String origin) {
    int h = origin.hashCode() * 0x9E3779B9;
    return (h ^ (h >>> 16)) & (RAISED_BUCKETS - 1);
  }

  /**
   * The entry's never-crawled URL rose to {@code rank} with {@code inlinks} in all, a raise held (its
   * record and due key left as written); {@code bucket} is its origin's. False, and nothing changed,
   * when the entry does not keep its record's value (the raise must be written).
   */
  boolean raise(int slot, int rank, int inlinks, int bucket) {
    if (valueLengths[slot] == NOT_KEPT) return false;
    boolean wasRaised = raised(slot);
    ranks[slot] = (char) rank;
    this.inlinks[slot] = inlinks;
    held[slot] = 0;
    if (!wasRaised) link(slot, bucket);
    return true;
  }

  /**
   * The first {@code limit} entries holding a raise of the origin whose URLs start with {@code origin}
   * (UTF-8), in {@code bucket}: by priority, then depth (the due order but for the URL), and those
   * ranking equal to the last of them too, so that the caller can order them by URL.
   */
  List<Raised> raisedIn(int bucket, byte[] origin, int limit) {
    long[] order = new long[16];
    int n = 0;
    for (int slot = raisedHeads[bucket]; slot >= 0; slot = nextRaised[slot]) {
      if (!ofOrigin(slot, origin)) continue;
      if (n == order.length) order = Arrays.copyOf(order, 2 * n);
      // Due order as a number: the priority's field, the depth, then the slot (below 2^24: 2^20 entries at most).
      order[n++] = (long) (0xFFFF - ranks[slot]) << 40 | (long) depths[slot] << 24 | slot;
    }
    Arrays.sort(order, 0, n);
    int take = Math.min(n, limit);
    while (take < n && take > 0 && order[take] >>> 24 == order[take - 1] >>> 24) take++;
    List<Raised> raised = new ArrayList<>(take);
    for (int i = 0; i < take; i++) {
      int slot = (int) (order[i] & 0xFFFFFF);
      raised.add(new Raised(Keys.url(key(slot)), value(slot), depths[slot], ranks[slot]));
    }
    return raised;
  }

  /** Whether the entry's URL is of {@code origin}: its key starts with it and the authority ends there. */
  private boolean ofOrigin(int slot, byte[] origin) {
    int length = keyLengths[slot];
    int at = offset(slot);
    if (length < origin.length || !Arrays.equals(slots, at, at + origin.length, origin, 0, origin.length)) return false;
    if (length == origin.length) return true;
    byte next = slots[at + origin.length];
    return next == '/' || next == '?' || next == '#';
  }

  /** Whether {@code url} (key {@code key}) has an entry holding a raise; the entry's use is not noted. */
  boolean holdsRaise(String url, byte[] key) {
    int slot = slotOf(url, key);
    return slot >= 0 && raised(slot);
  }

  /** Whether {@code bucket} may list entries holding a raise: a hint, without the lock. */
  boolean mayHoldRaises(int bucket) {
    return raisedHeads[bucket] >= 0;
  }

  private void link(int slot, int bucket) {
    int head = raisedHeads[bucket];
    nextRaised[slot] = head;
    previousRaised[slot] = -1;
    if (head >= 0) previousRaised[head] = slot;
    raisedHeads[bucket] = slot;
    raisedBuckets[slot] = bucket;
  }

  /** Takes a raised entry out of its list: its raise is written, or its URL crawled, or it is let go. */
  private void unlink(int slot) {
    int next = nextRaised[slot];
    int previous = previousRaised[slot];
    if (previous >= 0) nextRaised[previous] = next;
    else raisedHeads[raisedBuckets[slot]] = next;
    if (next >= 0) previousRaised[next] = previous;
  }

  /** Whether a never-crawled entry must be written before it is let go: it holds inlinks, or a raise. */
  private boolean mustWriteOnEviction(int slot) {
    return held[slot] > 0 || ranks[slot] != writtenRanks[slot];
  }

  /** What letting an entry go costs: the inlinks it holds, and one for a raise. */
  private int evictionCost(int slot) {
    return held[slot] + (ranks[slot] != writtenRanks[slot] ? 1 : 0);
  }

  /** One more inlink, held. */
  void count(int slot) {
    if (total(slot) < Integer.MAX_VALUE) held[slot]++;
  }

  /** The entry's never-crawled URL was written as {@code record}, {@code value} encoded: nothing held any more. */
  void written(int slot, UrlRecord record, byte[] value) {
    if (raised(slot)) unlink(slot);
    keepValue(slot, value);
    setRecord(slot, record, 0);
  }

  /**
   * The URL of {@code key} is crawled now: its entry, if it has one, is let go (the caller took what
   * it held), its slot free for a URL links will count; the crawled URL is known by its fingerprint
   * ({@link CrawledFingerprints}).
   */
  void forgetCrawled(String url, byte[] key) {
    int slot = find(url, key);
    if (slot < 0) return;
    if (raised(slot)) unlink(slot); // its crawl deletes the due key it had on disk
    keyLengths[slot] = 0;
    valueLengths[slot] = 0;
    held[slot] = 0;
    codes[slot] = 0;
    used[slot] = false;
    size--;
  }

  /**
   * Gives a never-crawled URL without an entry one: {@code record} as the URL table has it ({@code
   * value} encoded, {@code key} its key), and {@code inlinks} held beyond it; false, and nothing done,
   * when its key does not fit a slot. What an entry evicted for it held goes to {@code write}.
   */
  boolean put(UrlRecord record, byte[] key, byte[] value, int inlinks, Consumer<Held> write) {
    notePut(key.length + value.length);
    growWhenHalfFull(write); // first: the slots may shrink
    if (!fits(key.length)) return false;
    int slot = place(record.url().hashCode(), key, write);
    keepValue(slot, value);
    setRecord(slot, record, inlinks);
    return true;
  }

  /**
   * Gives a never-crawled URL without an entry one holding a raise: {@code record} as the URL table has
   * it ({@code value} encoded), risen to {@code rank} with {@code inlinks} in all; {@code bucket} is its
   * origin's. Its slot, or -1, and nothing done, when its key and value do not both fit a slot.
   */
  int putRaised(UrlRecord record, byte[] key, byte[] value, int rank, int inlinks, int bucket,
      Consumer<Held> write) {
    notePut(key.length + value.length);
    growWhenHalfFull(write);
    if (!fits(key.length) || key.length + value.length > slotBytes) return -1;
    int slot = place(record.url().hashCode(), key, write);
    keepValue(slot, value);
    setRecord(slot, record, 0);
    raise(slot, rank, inlinks, bucket); // the value is kept: it fits
    return slot;
  }

  private boolean fits(int keyLength) {
    return keyLength > 0 && keyLength <= slotBytes;
  }

  private void notePut(int length) {
    putLengths[Math.min((length + 7) / 8, putLengths.length - 1)]++;
  }

  /**
   * The slot size for the table's next growth: the smallest that {@value #FITTING_PERCENT} % of the
   * entries put since the last would fit, and small enough that the budget holds more sets than now.
   */
  private int nextSlotBytes() {
    long puts = 0;
    for (int count : putLengths) puts += count;
    int bytes = slotBytes;
    if (puts > 0) {
      long fitting = 0;
      bytes = MAX_SLOT_BYTES;
      for (int step = 0; step < putLengths.length - 1; step++) {
        fitting += putLengths[step];
        if (fitting * 100 >= puts * FITTING_PERCENT) {
          bytes = Math.max(MIN_SLOT_BYTES, step * 8);
          break;
        }
      }
    }
    while (bytes > slotBytes && maxSetsFor(bytes) <= sets) bytes -= 8;
    return bytes < slotBytes ? noBurst(bytes) : bytes;
  }

  /**
   * {@code bytes}, or larger (up to the slots now), so that the growth lets go at most
   * {@value #MAX_LET_GO} entries that must be written for being too long for its slots: each is a write
   * in the group that grows (a table of long entries with held inlinks, then a run of short URLs,
   * would write up to half the table at once).
   */
  private int noBurst(int bytes) {
    int[] needing = new int[putLengths.length]; // entries that must be written, by the slot they need
    for (int i = 0; i < codes.length; i++) {
      if (keyLengths[i] == 0 || !mustWriteOnEviction(i)) continue;
      int needed = raised(i) ? keyLengths[i] + valueLengths[i] : keyLengths[i]; // a raise keeps its value
      needing[Math.min((needed + 7) / 8, needing.length - 1)]++;
    }
    int tooLong = 0;
    for (int step = bytes / 8 + 1; step < needing.length; step++) tooLong += needing[step];
    while (bytes < slotBytes && tooLong > MAX_LET_GO) {
      bytes += 8;
      tooLong -= needing[bytes / 8];
    }
    return bytes;
  }

  private void growWhenHalfFull(Consumer<Held> write) {
    // Grown at half full, not three quarters: sets of 8 filled to 6 on average already evict, and
    // each link to an evicted URL is a read of the URL table (26,000 a 1000 x 100 crawl).
    if (size >= codes.length / 2 && sets < maxSets) grow(write);
  }

  /** A slot for a new entry of {@code key}, its key in: free, or evicted (to {@code write}). */
  private int place(int code, byte[] key, Consumer<Held> write) {
    int first = firstSlot(code, sets);
    int slot = victim(first, secondSlot(code, sets));
    if (slot < first || slot >= first + WAYS) overflowed[first / WAYS] = true;
    if (keyLengths[slot] == 0) {
      size++;
    } else if (mustWriteOnEviction(slot)) {
      write.accept(held(slot));
      if (raised(slot)) unlink(slot);
    }
    codes[slot] = code;
    keyLengths[slot] = (char) key.length;
    System.arraycopy(key, 0, slots, offset(slot), key.length);
    used[slot] = false;
    return slot;
  }

  /**
   * Doubles the sets (up to the capacity at the slot size picked now) and moves every entry to its set
   * in the new table. The sets are chosen by multiplying into [0, sets), so when they double set s's
   * entries go to set 2s or 2s + 1 and none overflows; in the last step to the capacity one may. An
   * entry without room, or whose key no longer fits a slot, or which holds a raise and whose value no
   * longer fits, is let go as if evicted (what it held goes to {@code write}); one whose value alone
   * no longer fits keeps its key (the value is read when it must be written).
   */
  private void grow(Consumer<Held> write) {
    int oldSlotBytes = slotBytes;
    slotBytes = nextSlotBytes();
    maxSets = maxSetsFor(slotBytes);
    Arrays.fill(putLengths, 0);
    int[] oldCodes = codes;
    char[] oldKeyLengths = keyLengths;
    char[] oldValueLengths = valueLengths;
    byte[] oldSlots = slots;
    int[] oldInlinks = inlinks;
    char[] oldRanks = ranks;
    char[] oldDepths = depths;
    int[] oldHeld = held;
    char[] oldWrittenRanks = writtenRanks;
    int[] oldBuckets = raisedBuckets;
    boolean[] oldUsed = used;
    allocate(Math.min(sets * 2, maxSets));
    for (int i = 0; i < oldCodes.length; i++) {
      int keyLength = oldKeyLengths[i];
      if (keyLength == 0) continue;
      // The set of the choice it was in first: doubling splits each old set in two, none overflows.
      int oldSet = i / WAYS * WAYS;
      boolean wasFirst = firstSlot(oldCodes[i], oldCodes.length / WAYS) == oldSet;
      int first = wasFirst ? firstSlot(oldCodes[i], sets) : secondSlot(oldCodes[i], sets);
      int other = wasFirst ? secondSlot(oldCodes[i], sets) : firstSlot(oldCodes[i], sets);
      int slot = free(first);
      if (slot < 0) slot = free(other);
      int firstChoice = wasFirst ? first : other;
      if (slot >= 0 && (slot < firstChoice || slot >= firstChoice + WAYS)) overflowed[firstChoice / WAYS] = true;
      boolean raised = oldValueLengths[i] != 0 && oldRanks[i] != oldWrittenRanks[i];
      boolean valueFits = oldValueLengths[i] != NOT_KEPT && keyLength + oldValueLengths[i] <= slotBytes;
      if (slot < 0 || keyLength > slotBytes || (raised && !valueFits)) {
        if (oldValueLengths[i] != 0 && (oldHeld[i] > 0 || raised)) {
          int from = i * oldSlotBytes;
          byte[] key = Arrays.copyOfRange(oldSlots, from, from + oldKeyLengths[i]);
          byte[] value = oldValueLengths[i] == NOT_KEPT ? null
              : Arrays.copyOfRange(oldSlots, from + oldKeyLengths[i], from + oldKeyLengths[i] + oldValueLengths[i]);
          int inlinks = (int) Math.min(Integer.MAX_VALUE, (long) oldInlinks[i] + oldHeld[i]);
          write.accept(raised ? new Held(key, value, inlinks, oldRanks[i], oldWrittenRanks[i]) : new Held(key, value, inlinks));
        }
        continue;
      }
      codes[slot] = oldCodes[i];
      keyLengths[slot] = (char) keyLength;
      valueLengths[slot] = valueFits ? oldValueLengths[i] : NOT_KEPT;
      int kept = valueFits ? keyLength + oldValueLengths[i] : keyLength;
      System.arraycopy(oldSlots, i * oldSlotBytes, slots, offset(slot), kept);
      inlinks[slot] = oldInlinks[i];
      ranks[slot] = oldRanks[i];
      depths[slot] = oldDepths[i];
      held[slot] = oldHeld[i];
      writtenRanks[slot] = oldWrittenRanks[i];
      if (oldValueLengths[i] != 0 && oldRanks[i] != oldWrittenRanks[i]) link(slot, oldBuckets[i]);
      used[slot] = oldUsed[i];
      size++;
    }
  }

  private void keepValue(int slot, byte[] value) {
    if (keyLengths[slot] + value.length <= slotBytes) {
      System.arraycopy(value, 0, slots, offset(slot) + keyLengths[slot], value.length);
      valueLengths[slot] = (char) value.length;
    } else {
      valueLengths[slot] = NOT_KEPT;
    }
  }

  private void setRecord(int slot, UrlRecord record, int heldInlinks) {
    inlinks[slot] = record.inlinks();
    ranks[slot] = (char) Ranking.quantize(record.priority());
    writtenRanks[slot] = ranks[slot];
    depths[slot] = (char) record.depth();
    held[slot] = heldInlinks;
  }

  private byte[] key(int slot) {
    return Arrays.copyOfRange(slots, offset(slot), offset(slot) + keyLengths[slot]);
  }

  /** A never-crawled entry's record value, or null when it did not keep it. */
  private byte[] value(int slot) {
    if (valueLengths[slot] == NOT_KEPT) return null;
    int from = offset(slot) + keyLengths[slot];
    return Arrays.copyOfRange(slots, from, from + valueLengths[slot]);
  }

  private int offset(int slot) {
    return slot * slotBytes;
  }

  /**
   * Where a new entry of the sets starting at {@code first} and {@code second} goes: a free slot of the
   * first, else of the second, else the entry holding the fewest inlinks among those of both not used
   * since their set was last full (when all were, none is any more: a clock of one turn).
   */
  private int victim(int first, int second) {
    int freeFirst = free(first);
    if (freeFirst >= 0) return freeFirst; // the first set while it has room: a miss looks nowhere else
    int freeSecond = second == first ? -1 : free(second);
    if (freeSecond >= 0) return freeSecond;
    int victim = -1;
    for (int k = 0; k < 2 * WAYS; k++) {
      int i = inPair(first, second, k);
      if (!used[i] && (victim < 0 || evictionCost(i) < evictionCost(victim))) victim = i;
    }
    if (victim >= 0) return victim;
    victim = first;
    for (int k = 0; k < 2 * WAYS; k++) {
      int i = inPair(first, second, k);
      used[i] = false;
      if (evictionCost(i) < evictionCost(victim)) victim = i;
    }
    return victim;
  }

  private int free(int first) {
    for (int i = first; i < first + WAYS; i++) if (keyLengths[i] == 0) return i;
    return -1;
  }

  /** The {@code k}-th slot, of {@code 2 * WAYS}, of the sets starting at {@code first} and {@code second}. */
  private static int inPair(int first, int second, int k) {
    return k < WAYS ? first + k : second + k - WAYS;
  }

  /**
   * Hands what up to {@code limit} never-crawled entries hold to {@code write}, which must write it
   * and answer the record and value written; then they hold nothing. Whether any is left holding.
   */
  boolean drain(int limit, Function<Held, Written> write) {
    int drained = 0;
    for (int i = 0; i < codes.length; i++) {
      if (keyLengths[i] == 0 || !mustWriteOnEviction(i)) continue;
      if (drained == limit) return true;
      Written done = write.apply(held(i));
      written(i, done.record(), done.value());
      drained++;
    }
    return false;
  }

  /** A record written, and its value. */
  record Written(UrlRecord record, byte[] value) {}

  /** Bytes of each entry's slot now (tests). */
  int slotBytes() {
    return slotBytes;
  }

  /** Entries the table holds at most with its slot size now (tests). */
  int maxEntries() {
    return maxSets * WAYS;
  }

  /** How many entries hold a raise (tests). */
  int raisedCount() {
    int raisedEntries = 0;
    for (int i = 0; i < codes.length; i++) if (keyLengths[i] != 0 && raised(i)) raisedEntries++;
    return raisedEntries;
  }

  /** How many inlinks the table holds in all (tests). */
  long heldTotal() {
    long total = 0;
    for (int i = 0; i < codes.length; i++) if (keyLengths[i] != 0) total += held[i];
    return total;
  }

  /**
   * The first slot of a code's set among {@code sets}: Fibonacci hashing (codes of similar URLs differ
   * in their low bits), then multiplied into [0, sets), so that any number of sets works.
   */
  private static int firstSlot(int code, int sets) {
    int spread = code * 0x9E3779B9;
    long unsigned = (spread ^ (spread >>> 16)) & 0xFFFF_FFFFL;
    return (int) ((unsigned * sets) >>> 32) * WAYS;
  }

  /** The first slot of a code's other set: another mix of the code, multiplied into [0, sets). */
  private static int secondSlot(int code, int sets) {
    int spread = (code ^ (code >>> 15)) * 0x85EBCA6B;
    spread ^= spread >>> 13;
    spread *= 0xC2B2AE35;
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
