package org.forager.crawl;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.forager.fetch.Outcome;
import org.forager.frontier.Scheduler;
import org.forager.record.RunSummary;

/**
 * Shows a run's progress on standard error: on a terminal one line rewritten every second, otherwise
 * (a log file, a pipe) a plain line every ten seconds.
 */
final class Progress implements AutoCloseable {

  /** How progress is shown. */
  enum Mode {
    /** Nothing. */
    QUIET,
    /** Decide from whether standard error is a terminal. */
    AUTO
  }

  private final ScheduledExecutorService timer;
  private final boolean terminal;
  private final PrintStream out;

  private Progress(ScheduledExecutorService timer, boolean terminal, PrintStream out) {
    this.timer = timer;
    this.terminal = terminal;
    this.out = out;
  }

  static Progress start(Mode mode, RunSummary summary, Scheduler scheduler, LongSupplier knownUrls,
      long maxActions) {
    PrintStream out = System.err;
    boolean terminal = mode == Mode.AUTO && isTerminal();
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "forager-progress");
      t.setDaemon(true);
      return t;
    });
    if (mode == Mode.QUIET) return new Progress(timer, false, out);
    Duration period = terminal ? Duration.ofSeconds(1) : Duration.ofSeconds(10);
    long startNanos = System.nanoTime();
    long[] last = {0, startNanos};
    timer.scheduleAtFixedRate(() -> {
      long now = System.nanoTime();
      long actions = summary.actions();
      double rate = (actions - last[0]) / Math.max((now - last[1]) / 1e9, 1e-3);
      last[0] = actions;
      last[1] = now;
      long errors = summary.count(Outcome.HTTP_ERROR) + summary.count(Outcome.NETWORK_ERROR)
          + summary.count(Outcome.TIMEOUT) + summary.count(Outcome.RATE_LIMITED);
      long fetched = summary.actions() - errors - summary.count(Outcome.BLOCKED_BY_ROBOTS_TXT)
          - summary.count(Outcome.BLOCKED_URL_BY_LOCAL_POLICY) - summary.count(Outcome.BLOCKED_BY_NETWORK_POLICY);
      String eta = "";
      if (maxActions < Long.MAX_VALUE / 2 && rate > 0 && actions < maxActions) {
        eta = String.format(", max actions in %s", format(Duration.ofSeconds((long) ((maxActions - actions) / rate))));
      }
      String line = String.format("forager: %s  %,d actions (%,d fetched, %,d blocked, %,d errors)  %.0f/s  "
              + "%,d origins active  %,d URLs known%s",
          format(Duration.ofNanos(now - startNanos)), actions, fetched,
          summary.actions() - fetched - errors, errors, rate, scheduler.activeOrigins(), knownUrls.getAsLong(), eta);
      if (terminal) out.print("\r\033[K" + line);
      else out.println(line);
      out.flush();
    }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    return new Progress(timer, terminal, out);
  }

  /**
   * Whether standard input and output are a terminal. On JDK 21 {@code System.console()} is null
   * otherwise; from JDK 22 it may exist anyway, and {@code Console.isTerminal()} (22+) tells.
   */
  private static boolean isTerminal() {
    java.io.Console console = System.console();
    if (console == null) return false;
    try {
      return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException beforeJdk22) {
      return true;
    }
  }

  private static String format(Duration d) {
    long s = d.toSeconds();
    return s >= 3600 ? String.format("%dh%02dm", s / 3600, s % 3600 / 60) : String.format("%dm%02ds", s / 60, s % 60);
  }

  @Override
  public void close() {
    timer.shutdownNow();
    if (terminal) {
      out.print("\r\033[K");
      out.flush();
    }
  }
}
