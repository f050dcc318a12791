package org.forager.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.forager.cli.log.LibraryLog;
import org.forager.config.ConfigException;
import org.forager.config.ConfigLoader;
import org.forager.config.CrawlConfig;
import org.forager.config.Overrides;
import org.forager.crawl.Crawler;
import org.forager.policy.ExclusionFile;
import org.forager.record.RunSummary;
import org.forager.record.TerminalText;
import org.forager.status.ControlFile;
import org.forager.status.ControlServer;
import org.forager.status.ControlToken;
import org.forager.status.StatusServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code forager crawl}: runs (or resumes) a crawl. */
@Command(
    name = "crawl",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = {
      "Crawls the origins of the seeds politely until nothing is due or --max-actions is reached.",
      "Running again with the same data directory resumes where the last run stopped.",
      "",
      "Writes under the data directory: store/ (the crawl database), warc/*.warc.gz (or .warc.zst),",
      "indexes/*.cdxj (each finished WARC file's index),",
      "logs/crawl.jsonl (one line per crawl action; rotated to logs/crawl-*.jsonl.gz at log.rotate_size),",
      "logs/library.log (what libraries log), control.json while it runs (for forager ctl);",
      "prints a summary of outcomes at the end.",
    },
    footer = {
      "",
      "Examples:",
      "  forager crawl --seed https://example.org/ --max-actions 100",
      "  forager crawl --config forager.yaml",
      "  forager crawl --data-dir crawl-data          # resume an earlier crawl, with its last --config",
      "  forager crawl --config forager.yaml --status-port 8090   # watch at http://127.0.0.1:8090/",
      "  forager ctl --data-dir crawl-data block example.org      # from another terminal, while it runs",
      "",
      "Exit status: 0 when the run finished, 1 on a runtime failure, 2 on bad usage or config, 4 when",
      "stopped before it finished (a signal, forager ctl stop; 0 for --continuous), 130 on a second signal.",
    })
final class CrawlCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration (see docs/configuration.md).")
  Path config;

  @Option(names = "--seed", paramLabel = "URL", description = "A seed URL; repeatable. Replaces the config's seeds.")
  List<String> seeds = new ArrayList<>();

  @Option(names = "--seeds-file", paramLabel = "FILE", description = "Seed URLs, one per line (# comments).")
  Path seedsFile;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "Where the crawl lives (default: ./crawl-data).")
  Path dataDir;

  @Option(names = "--max-actions", paramLabel = "N", description = "Stop after N crawl actions (default 1000000).")
  Long maxActions;

  @Option(names = "--status-port", paramLabel = "N", description = "Serve a live status page, its JSON "
      + "(/api/status) and Prometheus metrics (/metrics) on this port of 127.0.0.1 (or status.bind); 0 picks "
      + "a free port. Off by default.")
  Integer statusPort;

  @Option(names = "--quiet", description = "No progress lines; only the summary at the end.")
  boolean quiet;

  @Option(names = "--continuous", description = "Keep running: recrawl URLs as they come due, sleeping "
      + "while nothing is due, until SIGINT or SIGTERM (or --max-actions).")
  boolean continuous;

  @Override
  public Integer call() throws Exception {
    Optional<Path> configFile = Optional.ofNullable(config);
    if (configFile.isEmpty()) {
      // A resume names only the data directory: its last run's configuration, not the defaults.
      try {
        configFile = LastRunConfig.recorded(dataDir != null ? dataDir : CrawlConfig.defaults().dataDir());
      } catch (LastRunConfig.Unreadable e) {
        spec.commandLine().getErr().println("forager: " + e.getMessage());
        return Main.EXIT_USAGE;
      }
      configFile.ifPresent(file -> spec.commandLine().getErr().println(
          "forager: with the configuration of the crawl's last run, " + file + " (--config names another)"));
    }
    CrawlConfig cfg;
    try {
      cfg = ConfigLoader.load(configFile,
          new Overrides(seeds, Optional.ofNullable(seedsFile), Optional.ofNullable(dataDir),
              Optional.ofNullable(maxActions), Optional.ofNullable(statusPort)));
    } catch (ConfigException e) {
      spec.commandLine().getErr().println("forager: " + e.getMessage());
      return Main.EXIT_USAGE;
    }
    if (Files.exists(cfg.dataDir()) && !Files.isDirectory(cfg.dataDir())) {
      spec.commandLine().getErr().println("forager: the data directory " + cfg.dataDir() + " is a file, not a directory"
          + " (--data-dir, data_dir)");
      return Main.EXIT_USAGE;
    }
    // Bad configuration, found before the data directory is made: the file's own reading comes later.
    Optional<String> exclusions = cfg.doNotCrawlFile().flatMap(ExclusionFile::problem);
    if (exclusions.isPresent()) {
      spec.commandLine().getErr().println("forager: " + TerminalText.escape(exclusions.get()));
      return Main.EXIT_USAGE;
    }
    // What libraries log goes there (in the forager process: see Main.main), never to the terminal.
    LibraryLog.process().open(cfg.dataDir().resolve("logs").resolve("library.log"));
    try {
      return crawl(cfg, configFile);
    } finally {
      LibraryLog.process().close();
    }
  }

  private int crawl(CrawlConfig cfg, Optional<Path> configFile) throws Exception {
    if (cfg.seeds().isEmpty() && cfg.store().kind().equals("embedded")
        && !Files.isDirectory(cfg.dataDir().resolve("store"))) {
      spec.commandLine().getErr().println("forager: no seeds: give --seed URL, --seeds-file FILE or seeds: in "
          + "--config, or the --data-dir of an earlier crawl to resume it");
      return Main.EXIT_USAGE;
    }
    Optional<String> heap = HeapBudget.problem(cfg.seeds().size(), Runtime.getRuntime().maxMemory());
    if (heap.isPresent()) {
      spec.commandLine().getErr().println("forager: " + heap.get());
      return Main.EXIT_USAGE;
    }
    Optional<StatusServer> status;
    try {
      status = cfg.status().enabled() ? Optional.of(StatusServer.start(cfg.status())) : Optional.empty();
    } catch (IOException e) {
      spec.commandLine().getErr().println("forager: cannot serve the status page on " + cfg.status().bind() + ":"
          + cfg.status().port().getAsInt() + ": " + e.getMessage() + " (see --status-port, status: in --config)");
      return Main.EXIT_USAGE;
    }
    Instant started = Instant.now();
    CountDownLatch finished = new CountDownLatch(1);
    Crawler crawler;
    try {
      crawler = Crawler.open(cfg, store -> status.map(s -> s.timed(store)).orElse(store))
          .quiet(quiet).continuous(continuous);
    } catch (RuntimeException e) {
      status.ifPresent(StatusServer::close);
      throw e;
    }
    if (configFile.isPresent()) {
      try {
        LastRunConfig.record(cfg.dataDir(), configFile.get()); // under the data directory's lock: this run's
      } catch (IOException e) {
        spec.commandLine().getErr().println("forager: warning: cannot record the configuration file in " + cfg.dataDir()
            + " (a resume naming only --data-dir would use the defaults): " + e.getMessage());
      }
    }
    // The control API, always on (loopback, a free port): whoever must stop, pause or block the crawl
    // can, with or without a status page (docs/status.md, "Control").
    ControlToken token = ControlToken.generate();
    ControlServer controlServer;
    try {
      controlServer = ControlServer.start(crawler.control(), token);
    } catch (IOException | RuntimeException e) {
      crawler.close();
      status.ifPresent(StatusServer::close);
      throw e;
    }
    if (cfg.userAgent().equals(CrawlConfig.DEFAULT_USER_AGENT)) {
      // Sites write to the page a User-Agent names: a crawl of a million sites under the default one sends
      // their complaints to the project rather than to whoever runs it (Heritrix will not start without).
      spec.commandLine().getErr().println("forager: warning: crawling as the default user agent \""
          + CrawlConfig.DEFAULT_USER_AGENT + "\": set user_agent to your crawler's name and a page or address"
          + " where site owners can reach you");
    }
    ControlFile controlFile = new ControlFile(controlServer.uri(), token.value(), ProcessHandle.current().pid(),
        started, status.map(StatusServer::uri));
    status.ifPresent(s -> {
      crawler.listener(s.listener());
      s.enableControl(crawler.control(), token);
      spec.commandLine().getErr().println("forager: status page at " + s.uri() + " (metrics at " + s.uri()
          + "metrics)");
      spec.commandLine().getErr().println("forager: the page with its buttons (pause, block; keep this link to "
          + "yourself): " + s.pageWithToken(token));
      s.exposureWarning().ifPresent(w -> spec.commandLine().getErr().println("forager: warning: " + w));
    });
    try {
      controlFile.write(cfg.dataDir());
    } catch (RuntimeException e) {
      controlServer.close();
      crawler.close();
      status.ifPresent(StatusServer::close);
      throw e;
    }
    Thread hook = new Thread(() -> {
      // SIGINT/SIGTERM: let the fetches in flight finish and the outputs close, for a while.
      System.err.println("forager: stopping after the fetches in flight...");
      crawler.stop();
      try {
        finished.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "forager-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    StopOnSignals.install(crawler::stop);
    try {
      RunSummary summary = crawler.run();
      boolean stoppedEarly = crawler.stopRequested(); // before close(), which stops the (ended) run too
      crawler.close(); // outputs finished before the summary says so
      spec.commandLine().getOut().print(summary.render(Duration.between(started, Instant.now())));
      // Which engine compressed the WARC: ISA-L, libdeflate or zlib depends on what the system has.
      spec.commandLine().getOut().printf("%-28s %s%n", "WARC", Crawler.recordCompression(cfg.warc()).describe());
      spec.commandLine().getOut().flush();
      if (crawler.fatalError().isPresent()) {
        spec.commandLine().getErr().println("forager: the crawl stopped early: "
            + TerminalText.escape(crawler.fatalError().get())
            + "; what was recorded is safe, run again to resume once this is fixed");
        return Main.EXIT_RUNTIME;
      }
      if (stoppedEarly && !continuous) {
        spec.commandLine().getErr().println("forager: stopped before the crawl finished (exit status "
            + Main.EXIT_STOPPED + "); run again to resume");
        return Main.EXIT_STOPPED;
      }
    } finally {
      controlFile.remove(cfg.dataDir());
      controlServer.close();
      crawler.close();
      status.ifPresent(StatusServer::close);
      // Only now may a shutdown hook waiting for us let the JVM halt: the summary is out.
      finished.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // A signal arrived: the hook is running and waits for us.
      }
    }
    return 0;
  }
}
