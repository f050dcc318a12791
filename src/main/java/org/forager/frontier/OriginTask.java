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

  /**
   * The priority, from 0 (lowest) to 1, of the best work this task holds now: among tasks whose
   * time has come, the scheduler starts the one with the highest priority first.
   *
   * <p>Read when the task is put in line: right after each of its turns, on the thread that ran the
   * turn; when {@link Scheduler#run}, {@link Scheduler#wake} or {@link Scheduler#add} put it in line,
   * on the caller's thread under the scheduler's lock (which orders the read after the last turn).
   * Not read while the task waits, so work that arrives meanwhile counts from its next turn. Must be
   * cheap and should not throw: after a turn, a throw counts as a failed turn; on wake or add it
   * reaches the caller and the task stays as it was.
   *
   * @return 0 unless overridden: every task equal, turns in the order their times came
   */
  default double priority() {
    return 0;
  }
}
