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
 * still bounded without it (see {@link HttpFetcher}: the socket timeout bounds every read, the head
 * parser and the body reader check the deadline between reads).
 */
final class DeadlineTimer implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(DeadlineTimer.class.getName());

  private final ScheduledThreadPoolExecutor executor;
  private final ThreadFactory actionThreads;

  DeadlineTimer() {
    this(Thread.ofVirtual().name("forager-fetch-abort").factory());
  }

  /** @param actionThreads makes the (unstarted) thread each action runs on */
  DeadlineTimer(ThreadFactory actionThreads) {
    this.actionThreads = actionThreads;
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
    return executor.schedule(() -> fire(action), delayNanos, TimeUnit.NANOSECONDS);
  }

  private void fire(Runnable action) {
    Thread thread;
    try {
      thread = actionThreads.newThread(() -> runLogged(action));
      if (thread == null) throw new IllegalStateException("no thread for a deadline action");
      thread.start();
    } catch (RuntimeException | Error e) {
      // Late is better than never: this fetch must still be cut.
      runLogged(action);
    }
  }

  private static void runLogged(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException | Error e) {
      LOG.log(System.Logger.Level.WARNING, "a fetch deadline action failed", e);
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
