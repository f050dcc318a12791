package org.forager.crawl;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
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

  /**
   * @param held why the crawl sends nothing now, when it does not (paused, the network down): said
   *     first on the line, so that a forgotten pause is not read as a slow crawl
   */
  static Progress start(Mode mode, RunSummary summary, Scheduler scheduler, LongSupplier knownUrls,
      long maxActions, Supplier<Optional<String>> held) {
    PrintStream out = System.err;
    boolean terminal = mode == Mode.AUTO && isTerminal();
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "forager-progress");
      t.setDaemon(true);
      return t;
    });
    if (mode == Mode.QUIET) return new Progress(timer, false, out);
    Duration period = terminal ? Duration.ofSeconds(1) : Duration.ofSeconds(10);
    Ticker ticker = new Ticker(summary, scheduler::activeOrigins, knownUrls, held, maxActions, System.nanoTime());
    timer.scheduleAtFixedRate(() -> {
      try {
        String line = ticker.line(System.nanoTime());
        if (terminal) out.print("\r\033[K" + line);
        else out.println(line);
        out.flush();
      } catch (OutOfMemoryError e) {
        // The executor would keep it in a future nobody reads, and progress would stop without a word:
        // the thread's handler decides (the forager command ends the process with one line).
        Thread thread = Thread.currentThread();
        thread.getUncaughtExceptionHandler().uncaughtException(thread, e);
        throw e;
      }
    }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    return new Progress(timer, terminal, out);
  }

  /**
   * Makes the progress line: counts are the run's, the rate is over the last period. Only the timer
   * thread calls it. Every value is a number Forager counted: no crawled text is printed.
   */
  static final class Ticker {
    private final RunSummary summary;
    private final IntSupplier activeOrigins;
    private final LongSupplier knownUrls;
    private final Supplier<Optional<String>> held;
    private final long maxActions;
    private final long startNanos;
    private long lastActions;
    private long lastNanos;

    Ticker(RunSummary summary, IntSupplier activeOrigins, LongSupplier knownUrls, Supplier<Optional<String>> held,
        long maxActions, long startNanos) {
      this.summary = summary;
      this.activeOrigins = activeOrigins;
      this.knownUrls = knownUrls;
      this.held = held;
      this.maxActions = maxActions;
      this.startNanos = startNanos;
      this.lastNanos = startNanos;
    }

    String line(long now) {
      long actions = summary.actions();
      double rate = (actions - lastActions) / Math.max((now - lastNanos) / 1e9, 1e-3);
      lastActions = actions;
      lastNanos = now;
      // Pages only: a site without robots.txt or sitemap.xml is no error (the summary's own lines say
      // what those files answered).
      long pages = actions - summary.fileActions();
      long errors = summary.pageCount(Outcome.HTTP_ERROR) + summary.pageCount(Outcome.NETWORK_ERROR)
          + summary.pageCount(Outcome.DNS_ERROR)
          + summary.pageCount(Outcome.TIMEOUT) + summary.pageCount(Outcome.RATE_LIMITED)
          + summary.pageCount(Outcome.INTERNAL_ERROR);
      long blocked = summary.pageCount(Outcome.BLOCKED_BY_ROBOTS_TXT)
          + summary.pageCount(Outcome.BLOCKED_URL_BY_LOCAL_POLICY) + summary.pageCount(Outcome.BLOCKED_BY_NETWORK_POLICY)
          + summary.pageCount(Outcome.OUT_OF_SCOPE);
      long fetched = pages - errors - blocked;
      String eta = "";
      if (maxActions < Long.MAX_VALUE / 2 && rate > 0 && actions < maxActions) {
        eta = String.format(", max actions in %s", format(Duration.ofSeconds((long) ((maxActions - actions) / rate))));
      }
      long notKept = summary.urlsNotKept();
      String full = notKept == 0 ? "" : String.format(" (%,d new not kept: origins full)", notKept);
      String state = held.get().map(why -> why + "  ").orElse("");
      return String.format("forager: %s  %s%,d actions (%,d pages fetched, %,d blocked, %,d errors)  %.0f/s  "
              + "%,d origins active  %,d URLs known%s%s",
          format(Duration.ofNanos(now - startNanos)), state, actions, fetched, blocked, errors, rate,
          activeOrigins.getAsInt(), knownUrls.getAsLong(), full, eta);
    }
  }

  /**
   * Whether the progress line's stream, standard error, is a terminal: a line redrawn in place there,
   * a line every 10 s into a file ({@code 2> err.log}). Java tells only of standard input and output
   * ({@code System.console()}, null otherwise on JDK 21; from JDK 22 {@code Console.isTerminal()}), so
   * where /proc tells (Linux) standard error is asked too.
   */
  private static boolean isTerminal() {
    Optional<Boolean> stderr = stderrIsTerminal();
    if (stderr.isPresent() && !stderr.get()) return false;
    java.io.Console console = System.console();
    if (console == null) return false;
    try {
      return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException beforeJdk22) {
      return true;
    }
  }

  /** Whether file descriptor 2 is a terminal device, where /proc says what it is; empty elsewhere. */
  private static Optional<Boolean> stderrIsTerminal() {
    try {
      String target = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd/2")).toString();
      return Optional.of(target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console"));
    } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
      return Optional.empty();
    }
  }

  static String format(Duration d) {
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
