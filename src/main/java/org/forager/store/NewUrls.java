package org.forager.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Which links the URL table surely does not hold, told without a lookup: for the authorities whose
 * pages are being recorded, a set of hashes of every URL key the table holds under that authority
 * (issue 15: a page's new links were most of the lookups that found nothing, each probing the Bloom
 * filters of every level). A link whose hash its authority's set lacks is new; any other is looked up
 * as before, so a hash that collides costs a lookup, never a URL.
 *
 * <p>An authority is a URL key's literal prefix up to the first {@code /} after {@code ://}; its URLs
 * are the table's keys that start with that prefix and the {@code /}, so one ordered scan finds them.
 * The write path registers an authority under its lock when it records one of its pages ({@link
 * #register}), tracks it once that group is written ({@link #written}), and from then on adds every
 * URL it writes there ({@link #added}); the next call of that authority scans the table ({@link
 * #load}), with an iterator opened after that write: a URL written before it is in the scan, one
 * written after in the set. Until the scan is done the set tells
 * nothing. A hint is asked without the lock ({@link #surelyNew}) and only answers for what was written
 * before the asker's view of the table ({@link WriteRequest#seen}): a URL written since is corrected under
 * the lock by {@link RecentWrites}, as a lookup's answer is.
 *
 * <p>Bounded: an authority with more than {@value #MAX_PER_AUTHORITY} URLs is not tracked (its links
 * are looked up), and past {@value #MAX_TRACKED} URLs in all the authorities registered first are
 * forgotten (registered again, and scanned again, when another of their pages is recorded). An
 * evicted set is never put back, so a caller still holding it only misses hints. Thread-safe.
 */
final class NewUrls {

  static final int MAX_TRACKED = 1 << 20;
  static final int MAX_PER_AUTHORITY = 1 << 16;

  private final int maxTracked;
  private final int maxPerAuthority;

  private final ConcurrentHashMap<String, Authority> tracked = new ConcurrentHashMap<>();
  /** Authorities registered by the group being written. Guarded by the write lock. */
  private final Set<String> registered = new LinkedHashSet<>();
  /** Registration order, for eviction. Guarded by this. */
  private final ArrayDeque<Authority> order = new ArrayDeque<>();
  /** URLs in the sets of the tracked authorities. Guarded by this. */
  private long total;

  /** The URLs of one authority: a set of 64-bit hashes, open addressing. */
  private final class Authority {
    private static final int REGISTERED = 0;
    private static final int LOADING = 1;
    private static final int COMPLETE = 2;
    /** More URLs than the most an authority may have, or evicted: no set, no hints. */
    private static final int DROPPED = 3;

    final String prefix;
    // Written under the monitor; read without it by lacks(): see there.
    private volatile int state = REGISTERED;
    private volatile long[] table = new long[16];
    private int size;

    Authority(String prefix) {
      this.prefix = prefix;
    }

    synchronized boolean startLoading() {
      if (state != REGISTERED) return false;
      state = LOADING;
      return true;
    }

    /** Ends the scan; returns how the set's size changed (dropped when too large). */
    synchronized int loaded(boolean tooLarge) {
      if (state != LOADING) return 0;
      if (tooLarge) return -drop();
      state = COMPLETE;
      return 0;
    }

    /** Adds a hash; returns how the set's size changed (+1, 0, or less when it grew too large and was dropped). */
    synchronized int add(long hash) {
      if (state == DROPPED) return 0;
      if (size >= maxPerAuthority) return -drop();
      if ((size + 1) * 4 > table.length * 3) grow();
      if (!insert(table, hash)) return 0;
      size++;
      return 1;
    }

    /** Forgets the set for good; returns its size. */
    synchronized int drop() {
      int dropped = size;
      state = DROPPED;
      table = null;
      size = 0;
      return dropped;
    }

    /**
     * Without the monitor: every hash added before the asker read the visible commit was added before
     * that commit's write was published, so it is in the table it reads (a grown table is filled before
     * it is published); one added concurrently may be missed, and is corrected as written after.
     */
    boolean lacks(long hash) {
      long[] table = this.table;
      if (state != COMPLETE || table == null) return false;
      int mask = table.length - 1;
      for (int i = (int) (hash ^ (hash >>> 32)) & mask; ; i = (i + 1) & mask) {
        long h = table[i];
        if (h == 0) return true;
        if (h == hash) return false;
      }
    }

    private void grow() {
      long[] next = new long[table.length * 2];
      for (long h : table) {
        if (h != 0) insert(next, h);
      }
      table = next;
    }

    /** Whether the hash was not there; a table with room. */
    private static boolean insert(long[] table, long hash) {
      int mask = table.length - 1;
      for (int i = (int) (hash ^ (hash >>> 32)) & mask; ; i = (i + 1) & mask) {
        if (table[i] == hash) return false;
        if (table[i] == 0) {
          table[i] = hash;
          return true;
        }
      }
    }
  }

  NewUrls() {
    this(MAX_TRACKED, MAX_PER_AUTHORITY);
  }

  /** With other bounds (tests). */
  NewUrls(int maxTracked, int maxPerAuthority) {
    this.maxTracked = maxTracked;
    this.maxPerAuthority = maxPerAuthority;
  }

  /**
   * Tracks the authority of a URL being recorded once the group recording it is written ({@link
   * #written}): a scan that started earlier would miss what the group wrote before this call. The write
   * lock is held.
   */
  void register(byte[] urlKey) {
    String prefix = prefix(urlKey);
    if (prefix != null && !tracked.containsKey(prefix)) registered.add(prefix);
  }

  /** The group that registered authorities is written: they are tracked now. The write lock is held. */
  void written() {
    if (registered.isEmpty()) return;
    for (String prefix : registered) {
      if (tracked.containsKey(prefix)) continue;
      Authority authority = new Authority(prefix);
      tracked.put(prefix, authority);
      synchronized (this) {
        order.addLast(authority);
      }
    }
    registered.clear();
  }

  /** The group that registered authorities failed: they are not. The write lock is held. */
  void failed() {
    registered.clear();
  }

  /**
   * Scans the table for the URLs of a registered authority, once: by the first call of that authority
   * after its registration. Outside the write lock.
   */
  void load(RocksDatabase rocks, byte[] urlKey) throws RocksDBException {
    String prefix = prefix(urlKey);
    Authority authority = prefix == null ? null : tracked.get(prefix);
    if (authority == null || !authority.startLoading()) return;
    byte[] from = Keys.url(prefix);
    int count = 0;
    boolean tooLarge = false;
    try (RocksIterator it = rocks.db.newIterator(rocks.urls)) {
      for (it.seek(from); it.isValid(); it.next()) {
        byte[] key = it.key();
        if (!startsWith(key, from)) break;
        if (++count > maxPerAuthority) {
          tooLarge = true;
          break;
        }
        grew(authority.add(hash(key)));
      }
      it.status();
    } finally {
      // A scan that failed leaves the set incomplete for good: it never hints.
      grew(authority.loaded(tooLarge));
    }
  }

  /** A URL the write path puts in the table (new, or recorded without being known); the write lock is held. */
  void added(byte[] urlKey) {
    String prefix = prefix(urlKey);
    Authority authority = prefix == null ? null : tracked.get(prefix);
    if (authority != null) grew(authority.add(hash(urlKey)));
  }

  /** Whether the table surely does not hold the URL (as of what its asker has seen written). */
  boolean surelyNew(byte[] urlKey) {
    String prefix = prefix(urlKey);
    Authority authority = prefix == null ? null : tracked.get(prefix);
    return authority != null && authority.lacks(hash(urlKey));
  }

  /** URLs in the tracked sets (tests). */
  synchronized long total() {
    return total;
  }

  private void grew(int by) {
    if (by == 0) return;
    synchronized (this) {
      total += by;
      while (total > maxTracked && order.size() > 1) {
        Authority first = order.pollFirst();
        tracked.remove(first.prefix, first);
        total -= first.drop();
      }
    }
  }

  /** The key's authority prefix with its {@code /} ({@code http://a.example:8080/}), or null. */
  static String prefix(byte[] key) {
    int scheme = -1;
    for (int i = 0; i + 2 < key.length && i < 16; i++) {
      if (key[i] == ':' && key[i + 1] == '/' && key[i + 2] == '/') {
        scheme = i + 3;
        break;
      }
    }
    if (scheme < 0) return null;
    for (int i = scheme; i < key.length; i++) {
      if (key[i] == '/') return new String(key, 0, i + 1, StandardCharsets.UTF_8);
      if (key[i] == '?' || key[i] == '#') return null;
    }
    return null;
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  /** A 64-bit hash of the key, never 0 (the table's empty slot). */
  static long hash(byte[] key) {
    long h = 0xcbf29ce484222325L;
    for (byte b : key) h = (h ^ (b & 0xff)) * 0x100000001b3L;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return h == 0 ? 1 : h;
  }
}
