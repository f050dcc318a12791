package org.forager.fetch;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A few shared timer threads that fire the deadline actions of all fetches in flight. Actions run on
 * a fresh virtual thread, so an abort that blocks (closing a TLS socket can) never delays the
 * deadline of another fetch. Cancelled alarms are removed at once, so a busy crawler does not keep
 * thousands of finished fetches' alarms queued. Thread-safe.
 *
 * <p>Why a few: every alarm set and cancelled takes its timer's lock, twice a fetch, from every
 * crawling thread; a thread descheduled while holding it (two cores, shared with the server, the
 * collector and the compiler) had 202 fetches waiting behind it at once, each with its page done
 * (docs/benchmarks.md, session 34). An alarm goes to one of {@value #TIMERS} timers at random, and
 * is cancelled on the same.
 *
 * <p>Failures: an action that throws (an {@link Error} included) is logged and costs nothing else.
 * When no thread can be started for an action (out of memory), it runs on the timer thread itself:
 * later deadlines may then fire late, but none is lost. Should the timer thread die anyway, the
 * executor starts a new one on the next {@link #schedule}; and a fetch whose alarm never fires is
 * still ended without it, by the fetcher's {@link FetchSweeper} (see {@link HttpFetcher}).
 */
final class DeadlineTimer implements AutoCloseable {

  /** Timers, each a thread and a lock of its own. */
  static final int TIMERS = 4;

  private final ScheduledThreadPoolExecutor[] executors = new ScheduledThreadPoolExecutor[TIMERS];
  private final AbortThreads actions;

  DeadlineTimer() {
    this(Thread.ofVirtual().name("forager-fetch-abort").factory());
  }

  /** @param actionThreads makes the (unstarted) thread each action runs on */
  DeadlineTimer(ThreadFactory actionThreads) {
    this.actions = new AbortThreads(actionThreads);
    for (int i = 0; i < TIMERS; i++) {
      String name = "forager-fetch-deadlines-" + i;
      ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
      });
      executor.setRemoveOnCancelPolicy(true);
      executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
      executors[i] = executor;
    }
  }

  /** Runs {@code action} after {@code delayNanos} unless the returned alarm is cancelled first. */
  ScheduledFuture<?> schedule(long delayNanos, Runnable action) {
    ScheduledThreadPoolExecutor executor = executors[ThreadLocalRandom.current().nextInt(TIMERS)];
    return executor.schedule(() -> actions.start(action), delayNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void close() {
    for (ScheduledThreadPoolExecutor executor : executors) executor.shutdownNow();
  }
}
