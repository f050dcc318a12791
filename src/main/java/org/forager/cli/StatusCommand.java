package org.forager.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.forager.export.JsonlExporter;
import org.forager.record.TerminalText;
import org.forager.store.CrawlStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code forager status}: what a crawl database holds. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = {
      "Summarizes a crawl database: its URLs, origins and the work due.",
      "",
      "URLs by state and by last outcome, origins in scope, the last crawl action, and how many URLs",
      "are due now, within an hour and within a day.",
    })
final class StatusCommand implements Callable<Integer> {

  /** Blocks listed by name; more are counted. */
  private static final int MAX_BLOCKS_SHOWN = 20;

  @Spec CommandSpec spec;

  @picocli.CommandLine.Mixin StoreOption storeOption;

  @Override
  public Integer call() {
    org.forager.config.CrawlConfig cfg;
    try {
      cfg = storeOption.resolve();
    } catch (StoreOption.UsageError | org.forager.config.ConfigException e) {
      spec.commandLine().getErr().println("forager: " + e.getMessage());
      return Main.EXIT_USAGE;
    }
    Map<String, Long> byState = new TreeMap<>();
    Map<String, Long> byOutcome = new TreeMap<>();
    Instant now = Instant.now();
    long[] due = new long[3];
    Instant[] last = {Instant.EPOCH};
    long origins;
    long seedOrigins;
    Optional<String> scope;
    long urls;
    java.util.List<org.forager.store.Block> blocks;
    java.util.List<String> givenUp = new java.util.ArrayList<>();
    long[] givenUpCount = {0};
    try (CrawlStore store = storeOption.open(cfg)) {
      blocks = store.blocks();
      store.forEachOriginState(state -> {
        if (state.run().map(org.forager.store.OriginState.RunProgress::givenUp).orElse(false)) {
          if (givenUpCount[0]++ < MAX_BLOCKS_SHOWN) givenUp.add(state.origin().toString());
        }
      });
      origins = store.scope().size();
      seedOrigins = store.seedOrigins().size();
      scope = store.setting("scope");
      urls = store.urlCount();
      store.forEachUrl(u -> {
        byState.merge(JsonlExporter.state(u), 1L, Long::sum);
        u.lastCrawl().ifPresent(c -> {
          byOutcome.merge(c.outcome().name(), 1L, Long::sum);
          if (c.fetchedAt().isAfter(last[0])) last[0] = c.fetchedAt();
        });
        if (!u.nextFetchAt().isAfter(now)) due[0]++;
        if (!u.nextFetchAt().isAfter(now.plus(Duration.ofHours(1)))) due[1]++;
        if (!u.nextFetchAt().isAfter(now.plus(Duration.ofDays(1)))) due[2]++;
      });
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf("crawl database %s%n", cfg.store().kind().equals("postgres")
        ? "PostgreSQL" : org.forager.store.Stores.embeddedDirectory(cfg.dataDir()).toString());
    running(cfg.dataDir()).ifPresent(crawl -> out.printf("%-28s %s%n", "running", crawl));
    out.printf("%-28s %,d (%,d of the seeds, %,d taken on while crawling)%n", "origins in scope", origins,
        seedOrigins, origins - seedOrigins);
    out.printf("%-28s %s%n", "scope", scope.map(s -> s.strip().replace("\n", ", ")).orElse("mode=origins (default)"));
    out.printf("%-28s %,d%n", "known URLs", urls);
    byState.forEach((state, n) -> out.printf("  %-26s %,d%n", state, n));
    out.println("last outcome of crawled URLs");
    byOutcome.forEach((outcome, n) -> out.printf("  %-26s %,d%n", outcome, n));
    out.printf("%-28s %s%n", "last crawl action", last[0].equals(Instant.EPOCH) ? "never" : last[0].toString());
    out.printf("%-28s %,d now, %,d within an hour, %,d within a day%n", "due", due[0], due[1], due[2]);
    // Blocks hold across runs and no request of any kind goes under them: an operator looking for why
    // a site is not crawled finds them here (forager ctl unblock lifts one while a crawl runs).
    out.printf("%-28s %,d%n", "blocked hosts", blocks.size());
    blocks.stream().limit(MAX_BLOCKS_SHOWN).forEach(b -> out.printf("  %-26s since %s, by %s%n",
        TerminalText.escape(b.host()), b.since(), TerminalText.escape(b.by())));
    if (blocks.size() > MAX_BLOCKS_SHOWN) out.printf("  and %,d more%n", blocks.size() - MAX_BLOCKS_SHOWN);
    // What explains a crawl with URLs due and no origin active: each of these sends nothing more until
    // the next run (a continuous one: after an hour's rest); the crawl's lines on standard error say why.
    out.printf("%-28s %,d%s%n", "origins given up", givenUpCount[0], givenUpCount[0] == 0 ? ""
        : " (in their last run: out of patience, robots.txt unreachable, a host name that does not exist, addresses"
            + " the network policy refuses, or a Retry-After or Crawl-delay too long;"
            + " tried again at the next run, after an hour in a continuous one)");
    givenUp.forEach(origin -> out.printf("  %s%n", TerminalText.escape(origin)));
    if (givenUpCount[0] > MAX_BLOCKS_SHOWN) out.printf("  and %,d more%n", givenUpCount[0] - MAX_BLOCKS_SHOWN);
    out.flush();
    return 0;
  }

  /**
   * The crawl running on {@code dataDir} now, as its control file and the process table say: its figures
   * above are the store's as of this command (written by then), not a finished run's.
   */
  private static Optional<String> running(java.nio.file.Path dataDir) {
    try {
      return org.forager.status.ControlFile.read(dataDir)
          .filter(crawl -> ProcessHandle.of(crawl.pid()).filter(ProcessHandle::isAlive)
              // The crawl's process, not one that took its number after a crash: started before the crawl
              // (give or take the seconds the system's boot time is rounded to, and the clock's steps).
              .map(p -> p.info().startInstant().map(at -> !at.isAfter(crawl.started().plusSeconds(5))).orElse(true))
              .orElse(false))
          .map(crawl -> "a crawl (process " + crawl.pid() + ", started " + crawl.started()
              + ") is running: the figures are what it had written by now"
              + crawl.statusPage().map(page -> "; its status page is " + page).orElse(""));
    } catch (java.io.IOException | RuntimeException e) {
      return Optional.empty(); // no control file to read: nothing to add to the store's figures
    }
  }
}
