package org.forager.status;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Rates over time for the chart: a bounded series of samples, each the rate of two counters since the
 * previous sample. Fed by one timer thread; read by any. Thread-safe.
 */
final class RateHistory {

  /**
   * One sample.
   *
   * @param t when it was taken, milliseconds since the epoch
   * @param pagesPerSecond page requests per second since the previous sample
   * @param actionsPerSecond crawl actions per second since the previous sample
   */
  record Point(long t, double pagesPerSecond, double actionsPerSecond) {}

  private final int capacity;
  private final ArrayDeque<Point> points = new ArrayDeque<>();
  private long lastNanos;
  private long lastPages;
  private long lastActions;
  private boolean primed;

  RateHistory(int capacity) {
    this.capacity = capacity;
  }

  /** Takes a sample of the two counters' current values. */
  synchronized void sample(long epochMillis, long nanos, long pages, long actions) {
    if (primed) {
      double seconds = Math.max((nanos - lastNanos) / 1e9, 1e-3);
      points.addLast(new Point(epochMillis, round((pages - lastPages) / seconds),
          round((actions - lastActions) / seconds)));
      if (points.size() > capacity) points.removeFirst();
    }
    primed = true;
    lastNanos = nanos;
    lastPages = pages;
    lastActions = actions;
  }

  /** The samples kept, oldest first. */
  synchronized List<Point> points() {
    return new ArrayList<>(points);
  }

  private static double round(double rate) {
    return Math.round(rate * 100) / 100.0;
  }
}
