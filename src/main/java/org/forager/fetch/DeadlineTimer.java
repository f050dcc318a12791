package org.forager.fetch;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * One shared timer thread that fires the deadline actions of all fetches in flight. Actions run on
 * a fresh virtual thread, so an abort that blocks (closing a TLS socket can) never delays the
 * deadline of another fetch. Cancelled alarms are removed at once, so a busy crawler does not keep
 * thousands of finished fetches' alarms queued. Thread-safe.
 *
 * <p>Failures: an action that throws (an {@link Error} included) is logged and costs nothing else.
 * When no thread can be started for an action (out of memory), it runs on the timer thread itself:
 * later deadlines may then fire late, but none is lost. Should the timer thread die anyway, the
 * executor starts a new one on the next {@link #schedule}; and a fetch whose alarm never fires is
 * still ended without it, by the fetcher's {@link FetchSweeper} (see {@link HttpFetcher}).
 */
final class DeadlineTimer implements AutoCloseable {

  private final ScheduledThreadPoolExecutor executor;
  private final AbortThreads actions;

  DeadlineTimer() {
    this(Thread.ofVirtual().name("forager-fetch-abort").factory());
  }

  /** @param actionThreads makes the (unstarted) thread each action runs on */
  DeadlineTimer(ThreadFactory actionThreads) {
    this.actions = new AbortThreads(actionThreads);
    executor = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread thread = new Thread(runnable, "forager-fetch-deadlines");
      thread.setDaemon(true);
      return thread;
    });
    executor.setRemoveOnCancelPolicy(true);
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  /** Runs {@code action} after {@code delayNanos} unless the returned alarm is cancelled first. */
  ScheduledFuture<?> schedule(long delayNanos, Runnable action) {
    return executor.schedule(() -> actions.start(action), delayNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
