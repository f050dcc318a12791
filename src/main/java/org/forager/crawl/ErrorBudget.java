package org.forager.crawl;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Seed 003's rule for unanticipated errors: log and count each one, but a burst of them means
 * something is broken (a bug, a dying disk), and the crawl should stop cleanly rather than limp on.
 * Thread-safe.
 */
final class ErrorBudget {

  private final int maxErrors;
  private final long windowNanos;
  private final Deque<Long> recent = new ArrayDeque<>();

  ErrorBudget(int maxErrors, long windowNanos) {
    this.maxErrors = maxErrors;
    this.windowNanos = windowNanos;
  }

  /** Counts one error now; true when that makes more than the budget within the window. */
  synchronized boolean overBudget(long nowNanos) {
    recent.addLast(nowNanos);
    while (!recent.isEmpty() && nowNanos - recent.peekFirst() > windowNanos) recent.removeFirst();
    return recent.size() > maxErrors;
  }
}
