package org.forager.crawl;

/**
 * How many origins the crawl knows under each registrable domain, in fixed memory whatever the number
 * of domains: a count-min sketch (four rows of {@value #WIDTH} counters, 4 MiB) with conservative
 * update. An estimate is never below the true count and above it only by what other domains sharing
 * all four counters add: with ten million origins counted, tens at most, against a cap of thousands.
 * So a cap applied to it may refuse a domain's last few origins early, never let one more in.
 *
 * <p>An exact map would hold one entry per domain, a hundred megabytes at a million domains of a
 * 264 MiB heap; the cap only has to stop the domain that mints hosts without end (a wildcard DNS
 * record behind a page of links to {@code a1.trap.example}, {@code a2.trap.example}, …). Not
 * thread-safe: its owner serializes.
 */
final class OriginsPerDomain {

  static final int WIDTH = 1 << 18;
  private static final int ROWS = 4;

  private final int[] counters = new int[ROWS * WIDTH];

  /** At least how many origins of {@code domain} were counted, never fewer. */
  int estimate(String domain) {
    long hash = hash(domain);
    int min = Integer.MAX_VALUE;
    for (int row = 0; row < ROWS; row++) min = Math.min(min, counters[slot(hash, row)]);
    return min;
  }

  /** Counts one more origin of {@code domain}. */
  void add(String domain) {
    long hash = hash(domain);
    int[] slots = new int[ROWS];
    int min = Integer.MAX_VALUE;
    for (int row = 0; row < ROWS; row++) {
      slots[row] = slot(hash, row);
      min = Math.min(min, counters[slots[row]]);
    }
    if (min == Integer.MAX_VALUE) return;
    // Conservative update: only the counters at the minimum rise, the others already count more.
    for (int slot : slots) if (counters[slot] == min) counters[slot] = min + 1;
  }

  private static int slot(long hash, int row) {
    int h1 = (int) hash;
    int h2 = (int) (hash >>> 32) | 1;
    return row * WIDTH + ((h1 + row * h2) & (WIDTH - 1));
  }

  /** 64-bit FNV-1a over the chars, then a finalizer so that the low bits mix too. */
  private static long hash(String s) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < s.length(); i++) {
      h ^= s.charAt(i);
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    return h ^ (h >>> 33);
  }
}
