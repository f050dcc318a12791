package org.forager.store.postgres;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.forager.store.Candidate;
import org.forager.store.Ranking;
import org.forager.url.Origin;

/**
 * The candidates of one call as the column arrays of one multi-row insert: validated, a URL given
 * twice kept once as its shallowest candidate (depth, hops and ranking), and sorted by (origin,
 * URL). Sorting matters: two transactions that insert or lock overlapping URLs in the same order
 * wait for each other instead of deadlocking. The arrays are built here and never changed after.
 */
record CandidateRows(String[] origins, String[] urls, Integer[] depths, String[] discoveredFrom, Integer[] hops,
    Ranking[] rankings) {

  /** The largest depth a candidate may have, as in the embedded store. */
  static final int MAX_DEPTH = 65_535;

  /**
   * @throws IllegalArgumentException when a URL is not absolute or contains NUL, or a depth is
   *     outside 0..65535
   */
  static CandidateRows of(Collection<Candidate> candidates) {
    Map<String, Candidate> unique = new HashMap<>(candidates.size() * 2);
    Map<String, String> originOf = new HashMap<>(candidates.size() * 2);
    for (Candidate candidate : candidates) {
      Objects.requireNonNull(candidate.discoveredFrom(), "discoveredFrom");
      if (candidate.depth() < 0 || candidate.depth() > MAX_DEPTH) {
        throw new IllegalArgumentException("depth out of range 0.." + MAX_DEPTH + ": " + candidate);
      }
      Candidate known = unique.get(candidate.url());
      if (known == null) originOf.put(candidate.url(), origin(candidate.url()));
      if (known == null || candidate.depth() < known.depth()) unique.put(candidate.url(), candidate);
    }
    List<Candidate> sorted = unique.values().stream()
        .sorted(Comparator.comparing((Candidate c) -> originOf.get(c.url())).thenComparing(Candidate::url))
        .toList();
    int n = sorted.size();
    CandidateRows rows = new CandidateRows(new String[n], new String[n], new Integer[n], new String[n],
        new Integer[n], new Ranking[n]);
    for (int i = 0; i < n; i++) {
      Candidate candidate = sorted.get(i);
      rows.origins[i] = originOf.get(candidate.url());
      rows.urls[i] = candidate.url();
      rows.depths[i] = candidate.depth();
      rows.discoveredFrom[i] = candidate.discoveredFrom().orElse(null);
      rows.hops[i] = candidate.hops();
      rows.rankings[i] = candidate.ranking();
    }
    return rows;
  }

  /** Each candidate's priority at {@code inlinks}, quantized: what a new URL is stored with. */
  Integer[] priorities(int inlinks) {
    Integer[] priorities = new Integer[urls.length];
    for (int i = 0; i < urls.length; i++) priorities[i] = priority(i, depths[i], inlinks);
    return priorities;
  }

  /** The quantized priority candidate {@code i}'s ranking gives the URL at a depth and inlink count. */
  int priority(int i, int depth, int inlinks) {
    return Ranking.quantize(rankings[i].priority(urls[i], depth, inlinks));
  }

  /** The index of a candidate, or a negative number when it is not one of these. */
  int indexOf(String origin, String url) {
    int low = 0;
    int high = urls.length - 1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      int c = origins[middle].compareTo(origin);
      if (c == 0) c = urls[middle].compareTo(url);
      if (c < 0) low = middle + 1;
      else if (c > 0) high = middle - 1;
      else return middle;
    }
    return -1;
  }

  boolean isEmpty() {
    return urls.length == 0;
  }

  /** The serialized origin of a URL, checking PostgreSQL can store it (text cannot hold NUL). */
  static String origin(String url) {
    Objects.requireNonNull(url, "url");
    if (url.indexOf('\0') >= 0) throw new IllegalArgumentException("URL contains NUL: " + url);
    return Origin.ofUrl(url).toString();
  }
}
