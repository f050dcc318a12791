package org.forager.crawl;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.forager.store.OriginState;

/**
 * The heap the active origins' robots.txt rules take, bounded: a file of up to 500 KiB (what RFC 9309
 * asks a crawler to parse) makes rules of up to about five times its size, kept with the file while its
 * origin is crawled. The working set's origins are sized at 64 KiB each ({@link ActiveOrigins}), so a
 * domain of subdomains each serving such a file ran the heap out: 65 of 32,000 rules each (2.5 MiB of
 * rules and the file's 500 KiB), then again on every resume (an attacker's review, session 68).
 *
 * <p>A file up to {@link #FREE_BYTES} costs nothing here (nearly every robots.txt); a larger one is
 * counted at {@link #COST_PER_BYTE} times its size against a budget of an eighth of the heap, and an
 * origin whose file does not fit now is put off to a later run. Thread-safe.
 */
final class RobotsMemory {

  /** A file this long or shorter is not counted. */
  static final int FREE_BYTES = 16 * 1024;
  /** Heap a file's byte costs, parsed (rules of a few dozen bytes each and their strings) and kept. */
  static final int COST_PER_BYTE = 6;
  /** Origins put off that the terminal names; the rest are counted in the summary's notes. */
  private static final int NAMED = 10;

  private final long budget;
  private final AtomicLong held = new AtomicLong();
  private final AtomicInteger named = new AtomicInteger();

  RobotsMemory(long budget) {
    this.budget = budget;
  }

  /** The budget for this JVM's heap: an eighth of it. */
  static long forHeap() {
    return Runtime.getRuntime().maxMemory() / 8;
  }

  /** What {@code txt} costs held: 0 for a file up to {@link #FREE_BYTES}. */
  static long cost(OriginState.RobotsTxt txt) {
    int length = txt.body().length;
    return length <= FREE_BYTES ? 0 : (long) length * COST_PER_BYTE;
  }

  /**
   * Takes {@code cost} more (or gives back what a negative one says) when it fits the budget; whether
   * it was taken. A cost of 0 or less always is.
   */
  boolean take(long cost) {
    if (cost <= 0) {
      held.addAndGet(cost);
      return true;
    }
    while (true) {
      long now = held.get();
      if (now + cost > budget) return false;
      if (held.compareAndSet(now, now + cost)) return true;
    }
  }

  /** Whether the next origin put off is to be named on the terminal (the first few are). */
  boolean nameNext() {
    return named.getAndIncrement() < NAMED;
  }
}
