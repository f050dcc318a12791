package org.forager.fetch;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One shared timer thread that fires the deadline actions of all fetches in flight. Actions run on
 * a fresh virtual thread, so an abort that blocks (closing a TLS socket can) never delays the
 * deadline of another fetch. Cancelled alarms are removed at once, so a busy crawler does not keep
 * thousands of finished fetches' alarms queued. Thread-safe.
 */
final class DeadlineTimer implements AutoCloseable {

  private final ScheduledThreadPoolExecutor executor;

  DeadlineTimer() {
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
    return executor.schedule(() -> {
      Thread.ofVirtual().name("forager-fetch-abort").start(action);
    }, delayNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
