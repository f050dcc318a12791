package org.forager.frontier;

import java.util.OptionalLong;

/**
 * One origin's share of the crawl, run a turn at a time by the {@link Scheduler}. The scheduler never
 * runs two turns of one task at once, and hands each turn to a thread with a happens-before edge
 * from the previous turn, so implementations need no locking of their own state.
 */
public interface OriginTask {

  /**
   * Does one step of work (typically at most one request).
   *
   * @return the {@link System#nanoTime()} at or after which the next turn may start, or empty when
   *     this task is finished for the run
   */
  OptionalLong turn();
}
