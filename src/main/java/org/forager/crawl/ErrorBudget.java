package org.forager.crawl;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Seed 003's rule for unanticipated errors: log and count each one, but a burst of them means
 * something is broken (a bug, a dying disk), and the crawl should stop cleanly rather than limp on. A
 * burst is errors on more than so many origins within the window: one hostile site setting off error
 * after error (a URL each) costs its own patience, and must not stop every other site's crawl (an
 * attacker's review, session 67). Thread-safe.
 */
final class ErrorBudget {

  private record Error(long atNanos, String origin) {}

  private final int maxOrigins;
  private final long windowNanos;
  private final Deque<Error> recent = new ArrayDeque<>();
  /** Per origin, its errors in {@link #recent}. */
  private final Map<String, Integer> perOrigin = new HashMap<>();

  ErrorBudget(int maxOrigins, long windowNanos) {
    this.maxOrigins = maxOrigins;
    this.windowNanos = windowNanos;
  }

  /** Counts one error of {@code origin} now; true when that makes errors on more origins than the budget within the window. */
  synchronized boolean overBudget(long nowNanos, String origin) {
    recent.addLast(new Error(nowNanos, origin));
    perOrigin.merge(origin, 1, Integer::sum);
    while (nowNanos - recent.peekFirst().atNanos() > windowNanos) {
      Error old = recent.removeFirst();
      perOrigin.computeIfPresent(old.origin(), (o, n) -> n == 1 ? null : n - 1);
    }
    return perOrigin.size() > maxOrigins;
  }
}
