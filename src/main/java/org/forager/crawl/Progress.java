package org.forager.crawl;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.forager.fetch.Outcome;
import org.forager.frontier.Scheduler;
import org.forager.record.RunSummary;

/** Prints a line of progress to standard error at a fixed period while a run lasts. */
final class Progress implements AutoCloseable {

  private final ScheduledExecutorService timer;

  private Progress(ScheduledExecutorService timer) {
    this.timer = timer;
  }

  static Progress start(RunSummary summary, Scheduler scheduler, Duration period) {
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "forager-progress");
      t.setDaemon(true);
      return t;
    });
    long startNanos = System.nanoTime();
    long[] last = {0, startNanos};
    timer.scheduleAtFixedRate(() -> {
      long now = System.nanoTime();
      long actions = summary.actions();
      double rate = (actions - last[0]) / Math.max((now - last[1]) / 1e9, 1e-3);
      last[0] = actions;
      last[1] = now;
      System.err.printf("forager: %,d actions (%,d fetched, %,d errors) %.1f/s, %,d origins active%n",
          actions, summary.count(Outcome.FETCHED),
          summary.count(Outcome.HTTP_ERROR) + summary.count(Outcome.NETWORK_ERROR) + summary.count(Outcome.TIMEOUT),
          rate, scheduler.activeOrigins());
    }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    return new Progress(timer);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
