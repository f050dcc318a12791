package org.forager.crawl;

import org.forager.config.CrawlConfig;

/**
 * How many origins a run crawls at once at most (its working set, {@link OriginWorkingSet}): enough
 * to keep {@code concurrency} requests going while each origin waits out its delay, few enough that
 * their crawlers (robots rules, the next URLs, politeness state: tens of KiB each at most) fit the
 * heap. Stateless.
 */
final class ActiveOrigins {

  /** Heap allowed per active origin when sizing the working set. */
  static final long HEAP_PER_ORIGIN = 64 * 1024;
  /** The most origins held at once, however large the heap. */
  static final int MAX = 100_000;

  private ActiveOrigins() {}

  /**
   * The working set's capacity: {@code limits.max_active_origins} when given, else sized for this
   * JVM's heap, at least twice the concurrency.
   */
  static int capacity(CrawlConfig config) {
    int given = config.limits().maxActiveOrigins();
    if (given != CrawlConfig.Limits.ACTIVE_ORIGINS_BY_HEAP) return given;
    return capacity(config.concurrency(), Runtime.getRuntime().maxMemory());
  }

  static int capacity(int concurrency, long maxHeapBytes) {
    long byHeap = Math.min(MAX, maxHeapBytes / HEAP_PER_ORIGIN);
    return (int) Math.max(2L * concurrency, byHeap);
  }
}
