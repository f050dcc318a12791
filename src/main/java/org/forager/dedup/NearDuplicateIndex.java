package org.forager.dedup;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The simhashes of some pages (in practice: the pages of one origin), to find for a new page an
 * earlier one within {@value #MAX_DISTANCE} bits. Two simhashes within 3 bits agree on at least one
 * of their four 16-bit quarters (pigeonhole), so a page is compared only with the pages sharing a
 * quarter with it: Manku et al.'s table method with one permutation per quarter.
 *
 * <p>Memory: each page costs one entry in each of four hash maps of lists, about 150 bytes plus its
 * URL string (shared with the caller). Not thread-safe.
 */
public final class NearDuplicateIndex {

  /** Manku et al.'s threshold for 64-bit simhashes of web pages. */
  public static final int MAX_DISTANCE = 3;

  private record Page(String url, long simhash, int seq) {}

  private final List<Map<Integer, List<Page>>> quarters =
      List.of(new HashMap<>(), new HashMap<>(), new HashMap<>(), new HashMap<>());
  private int added;

  /** The earliest page added whose simhash is within {@value #MAX_DISTANCE} bits, if any. */
  public Optional<String> nearest(long simhash) {
    Page best = null;
    for (int q = 0; q < 4; q++) {
      List<Page> bucket = quarters.get(q).get(quarter(simhash, q));
      if (bucket == null) continue;
      // Buckets are in the order pages were added: the first match is the bucket's earliest.
      for (Page page : bucket) {
        if (best != null && page.seq() >= best.seq()) break;
        if (SimHash.distance(page.simhash(), simhash) <= MAX_DISTANCE) {
          best = page;
          break;
        }
      }
    }
    return Optional.ofNullable(best).map(Page::url);
  }

  /** Adds a page; {@link #nearest} then finds it. */
  public void add(String url, long simhash) {
    Page page = new Page(url, simhash, added++);
    for (int q = 0; q < 4; q++) quarters.get(q).computeIfAbsent(quarter(simhash, q), k -> new ArrayList<>()).add(page);
  }

  private static int quarter(long simhash, int q) {
    return (int) (simhash >>> (16 * q)) & 0xFFFF;
  }
}
