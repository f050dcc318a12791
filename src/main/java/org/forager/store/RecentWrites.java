package org.forager.store;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Set;

/**
 * The URLs written by the latest commits of the store, by commit number: what lets a lookup made
 * outside the write lock be corrected under it. A URL read as unknown at commit {@code c} is known
 * after all if a later commit wrote it; a URL record read at {@code c} is stale if a later commit
 * wrote it. Each commit keeps an immutable copy of the set of URLs it wrote, the URLs alone: the
 * commit's own map also holds every URL's record, about 150 bytes a URL more, which would otherwise
 * live as long in the old generation (about 20 MB at the bound: issue 15, peak RSS). A question looks
 * at the few commits after the one a lookup saw. Bounded: it keeps at least the latest commit and,
 * beyond it, at most {@value #MAX_URLS} URLs; a lookup older than what is kept must be done again
 * ({@link #covers}). Not thread-safe: the store uses it under its write lock.
 */
final class RecentWrites {

  /**
   * About a thousand commits: a lookup is written at most 13 commits after it was made on
   * bench/e2e's 1000 x 100 crawl (300,000 calls, none older than this; issue 15, session 13). It was
   * 100,000: about 10 MB of URL strings that lived long enough to reach the old generation.
   */
  static final int MAX_URLS = 8_192;

  private record Commit(long number, Set<String> urls) {}

  private final ArrayDeque<Commit> commits = new ArrayDeque<>();
  private long latest;
  private long urls;

  /** The number of the latest commit; 0 before the first. */
  long latest() {
    return latest;
  }

  /** Whether every commit after {@code seen} is still kept. */
  boolean covers(long seen) {
    return seen >= latest - commits.size();
  }

  /** Whether a commit after {@code seen} wrote {@code url}; only meaningful when it covers it. */
  boolean writtenAfter(String url, long seen) {
    for (Iterator<Commit> newest = commits.descendingIterator(); newest.hasNext(); ) {
      Commit commit = newest.next();
      if (commit.number() <= seen) return false;
      if (commit.urls().contains(url)) return true;
    }
    return false;
  }

  /**
   * Adds the next commit, which wrote {@code written} (copied: the caller may keep or change it), and
   * forgets the oldest beyond the bound.
   */
  void add(Set<String> written) {
    latest++;
    commits.addLast(new Commit(latest, Set.copyOf(written)));
    urls += written.size();
    while (urls > MAX_URLS && commits.size() > 1) urls -= commits.removeFirst().urls().size();
  }
}
