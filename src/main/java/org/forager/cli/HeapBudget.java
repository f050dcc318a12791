package org.forager.cli;

import java.util.Optional;

/**
 * Whether the heap can hold a crawl of this many seeds, checked before it starts: a clear line with
 * the setting to change, rather than an out-of-memory error minutes in. What grows with the seeds is
 * measured (docs/benchmarks.md, issue 14): the packed seed list and the scope's packed origins, about
 * 60 bytes a seed, counted as {@value #BYTES_PER_SEED} for the transient copies while they are added;
 * the rest of the crawl (the origin working set, bodies in flight) sizes itself to the heap. Stateless.
 */
final class HeapBudget {

  static final long BYTES_PER_SEED = 100;
  /** What the smallest crawl needs beyond the seeds (tests crawl in a 32 MiB heap). */
  static final long BASE_BYTES = 16L << 20;

  private HeapBudget() {}

  /** Why {@code seeds} seeds do not fit a heap of {@code maxHeapBytes}; empty when they do. */
  static Optional<String> problem(long seeds, long maxHeapBytes) {
    long needed = BASE_BYTES + seeds * BYTES_PER_SEED;
    if (needed <= maxHeapBytes) return Optional.empty();
    return Optional.of(String.format("%,d seeds need about %,d MiB of heap and the JVM has %,d MiB: raise"
        + " FORAGER_HEAP (the JVM's -Xmx), or crawl the seeds in parts (each part's --seeds-file with the same"
        + " --data-dir)", seeds, needed >> 20, maxHeapBytes >> 20));
  }
}
