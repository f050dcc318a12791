package org.forager.crawl;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.forager.config.CrawlConfig;
import org.forager.dns.CachingResolver;
import org.forager.extract.HtmlExtractor;
import org.forager.fetch.AddressPicker;
import org.forager.fetch.Fetcher;
import org.forager.fetch.HttpFetcher;
import org.forager.fetch.Outcome;
import org.forager.frontier.Slots;
import org.forager.frontier.Scheduler;
import org.forager.io.IoFailures;
import org.forager.policy.Gatekeeper;
import org.forager.policy.Verdict;
import org.forager.scope.Scope;
import org.forager.recrawl.RecrawlPolicy;
import org.forager.record.CrawlLog;
import org.forager.record.RunSummary;
import org.forager.robots.RobotsFetcher;
import org.forager.store.AgendaEntry;
import org.forager.store.Candidate;
import org.forager.store.Ranking;
import org.forager.store.CrawlStore;
import org.forager.store.OriginLeases;
import org.forager.store.Stores;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;
import org.forager.warc.RecordCompression;
import org.forager.warc.WarcIndexes;
import org.forager.warc.WarcRecorder;
import org.forager.warc.WarcRepair;

/**
 * A crawl over one data directory: the library entry point behind {@code forager crawl}.
 *
 * <pre>{@code
 * try (Crawler crawler = Crawler.open(config)) {
 *   RunSummary summary = crawler.run();
 * }
 * }</pre>
 *
 * <p>{@link #run} adds the configured seeds (and their origins to the scope), then crawls every
 * origin in scope until nothing is due or max_actions is reached. Running again on the same data
 * directory resumes. {@link #stop} may be called from another thread; the run then ends after the
 * fetches in flight.
 */
public final class Crawler implements AutoCloseable {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Crawler.class);

  private final CrawlConfig config;
  private final Clock clock;
  private final CrawlStore store;
  private final Fetcher fetcher;
  private final CachingResolver dnsCache;
  private final WarcRecorder warc;
  private final CrawlLog log;
  private final CrawlControl control;
  /** Unexpected errors on more origins than this within a minute stop the crawl. */
  static final int MAX_UNEXPECTED_ERRORS_PER_MINUTE = 20;
  /** How often a fleet process reads the operators' blocks again. */
  static final long BLOCKS_REFRESH_SECONDS = 5;
  /** How often a crawl held for an outage of its own network tries one request (docs/robustness.md). */
  static final long NETWORK_PROBE_NANOS = TimeUnit.SECONDS.toNanos(5);

  private final LongAdder unexpectedErrors = new LongAdder();
  private final ErrorBudget errorBudget =
      new ErrorBudget(MAX_UNEXPECTED_ERRORS_PER_MINUTE, java.util.concurrent.TimeUnit.MINUTES.toNanos(1));
  private volatile String fatal;
  private volatile Scheduler scheduler;
  private volatile boolean stopRequested;
  /** Whether {@link #closeOutputs} began: an exception a turn meets from then on is the close's ({@link InternalErrors}). */
  private volatile boolean closed;
  private final java.util.concurrent.locks.ReentrantLock runLock = new java.util.concurrent.locks.ReentrantLock();
  private volatile boolean quiet;
  private volatile boolean continuous;
  private volatile PageListener pageListener = PageListener.NONE;
  private volatile UrlGate extraGate = (url, depth) -> Optional.empty();
  private volatile Ranking ranking = Ranking.LINKS;
  private volatile CrawlListener listener = CrawlListener.NONE;

  /** The heap the active origins' large robots.txt files may hold in a run ({@link RobotsMemory}). */
  private long robotsMemoryBytes = RobotsMemory.forHeap();

  private Crawler(CrawlConfig config, Clock clock, CrawlStore store, Fetcher fetcher, CachingResolver dnsCache,
      WarcRecorder warc, CrawlLog log) {
    this.config = config;
    this.clock = clock;
    this.store = store;
    this.fetcher = fetcher;
    this.dnsCache = dnsCache;
    this.warc = warc;
    this.log = log;
    this.control = new CrawlControl(store, log, clock, this::stop,
        origin -> config.siteSettings(origin).politeness().minDelay());
  }

  /** Opens (or creates) the data directory: store, WARC directory and crawl log. */
  public static Crawler open(CrawlConfig config) {
    return builder(config).open();
  }

  /**
   * Like {@link #open(CrawlConfig)}, with the store wrapped by {@code decorateStore} (e.g. to time its
   * calls); the crawler uses and closes the decorated store.
   */
  public static Crawler open(CrawlConfig config, UnaryOperator<CrawlStore> decorateStore) {
    return builder(config).decorateStore(decorateStore).open();
  }

  /**
   * Like {@link #open(CrawlConfig)}, on {@code clock}: the crawl loop's time (run cutoff, recrawl
   * times, robots.txt expiry). Tests move it to play a later run; a fetch's own timestamps stay real.
   */
  static Crawler open(CrawlConfig config, Clock clock) {
    return builder(config).clock(clock).open();
  }

  /** A crawler of {@code config} with parts of one's own: the store wrapped, another {@link Fetcher}. */
  public static Builder builder(CrawlConfig config) {
    return new Builder(config);
  }

  /** What {@link #open(CrawlConfig)} builds, part by part; {@link #open()} once. Not thread-safe. */
  public static final class Builder {
    private final CrawlConfig config;
    private UnaryOperator<CrawlStore> decorateStore = UnaryOperator.identity();
    private Function<CachingResolver, Fetcher> fetcher;
    private Clock clock = Clock.systemUTC();
    private boolean repairOutputs = true;
    private long robotsMemory = -1;

    private Builder(CrawlConfig config) {
      this.config = java.util.Objects.requireNonNull(config);
    }

    /** The store is wrapped by this (e.g. to time its calls); the crawler uses and closes the result. */
    public Builder decorateStore(UnaryOperator<CrawlStore> decorateStore) {
      this.decorateStore = java.util.Objects.requireNonNull(decorateStore);
      return this;
    }

    /**
     * Fetches with {@code fetcher} instead of the HTTP fetcher the configuration describes (a test
     * double, another HTTP stack, a proxy client); the crawler closes it. Every request still passes
     * the crawl's gates, robots.txt and politeness, which live above the fetcher. A {@link
     * org.forager.fetch.FetchRequest} may name the address to connect to (per-IP politeness chose
     * it): a fetcher that connects elsewhere weakens that limit.
     */
    public Builder fetcher(Fetcher fetcher) {
      java.util.Objects.requireNonNull(fetcher);
      this.fetcher = dns -> fetcher;
      return this;
    }

    Builder clock(Clock clock) {
      this.clock = java.util.Objects.requireNonNull(clock);
      return this;
    }

    /** The heap the active origins' large robots.txt files may hold ({@link RobotsMemory}; tests). */
    Builder robotsMemory(long bytes) {
      this.robotsMemory = bytes;
      return this;
    }

    /**
     * For an order given without a crawl running ({@code forager ctl block} on a stopped crawl): WARC
     * files a killed run left open are left for the next run to finish and index, not worked on (and
     * told of) here.
     */
    public Builder forControlOnly() {
      this.repairOutputs = false;
      return this;
    }

    /** Opens (or creates) the data directory: store, WARC directory and crawl log. */
    public Crawler open() {
      Crawler crawler = Crawler.open(config, decorateStore, clock,
          fetcher != null ? fetcher : dns -> new HttpFetcher(HttpFetcher.Options.from(config, dns)), repairOutputs);
      if (robotsMemory >= 0) crawler.robotsMemoryBytes = robotsMemory;
      return crawler;
    }
  }

  private static Crawler open(CrawlConfig config, UnaryOperator<CrawlStore> decorateStore, Clock clock,
      Function<CachingResolver, Fetcher> newFetcher, boolean repairOutputs) {
    Path dataDir = config.dataDir();
    try {
      Files.createDirectories(dataDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create data directory " + dataDir + ": " + IoFailures.reason(e, dataDir), e);
    }
    CrawlStore store = decorateStore.apply(Stores.open(config));
    List<AutoCloseable> opened = new ArrayList<>(List.of(store));
    try {
      // The store's lock makes this process the directory's only writer: files left open by a killed
      // run can be finished safely.
      for (WarcRepair.Repaired r : repairOutputs ? WarcRepair.repair(dataDir.resolve("warc")) : List.<WarcRepair.Repaired>of()) {
        Notice.printf("forager: finished WARC file %s left open by an interrupted run (%,d bytes kept, "
            + "%,d torn bytes cut)%n", r.file().getFileName(), r.keptBytes(), r.cutBytes());
      }
      // Their indexes, and any other finished file's a kill left unwritten: the index directory is to
      // hold one for every finished WARC file, whatever interrupted the run that wrote it.
      Path indexDir = dataDir.resolve(WarcIndexes.DIRECTORY);
      for (Path unindexed : repairOutputs ? WarcIndexes.unindexed(dataDir.resolve("warc"), indexDir) : List.<Path>of()) {
        try {
          WarcIndexes.ensure(indexDir, unindexed);
          Notice.printf("forager: indexed WARC file %s (its CDXJ index was not written)%n", unindexed.getFileName());
        } catch (UncheckedIOException e) {
          // An index is derived data: its failure costs the index, as the recorder's does, not the crawl.
          Notice.printf("forager: %s; the crawl goes on without it%n", e.getMessage());
        }
      }
      WarcRecorder warc = WarcRecorder.open(dataDir.resolve("warc"), config.warc().maxFileBytes(),
          recordCompression(config.warc()), "Forager/" + version(), indexDir,
          config.warc().directIo()).maxFileAge(config.warc().maxFileAge());
      opened.add(warc);
      CrawlLog log = CrawlLog.open(dataDir.resolve("logs").resolve("crawl.jsonl"), config.log(), clock);
      opened.add(log);
      CachingResolver dnsCache = HttpFetcher.Options.dnsCache(config);
      Fetcher fetcher = newFetcher.apply(dnsCache);
      return new Crawler(config, clock, store, fetcher, dnsCache, warc, log);
    } catch (RuntimeException e) {
      for (AutoCloseable c : opened.reversed()) closeQuietly(c);
      throw e;
    }
  }

  /**
   * The records' compression the configuration asks for; {@link RecordCompression#describe} says
   * which engine that is on this system.
   */
  public static RecordCompression recordCompression(CrawlConfig.Warc warc) {
    return switch (warc.compression()) {
      case GZIP -> RecordCompression.gzip(
          warc.gzipLevel() == CrawlConfig.Warc.GZIP_FASTEST ? RecordCompression.FASTEST : warc.gzipLevel(),
          RecordCompression.GzipEngine.valueOf(warc.gzipEngine().name()));
      case ZSTD -> RecordCompression.zstd(warc.zstdLevel());
    };
  }

  /** This build's version, for the WARC's software field. */
  static String version() {
    String v = Crawler.class.getPackage().getImplementationVersion();
    return v == null ? "development" : v;
  }


  /**
   * The operator's hold on this crawl: pause, block, add seeds, stop (docs/status.md, "Control"); what
   * the control API and {@code forager ctl} act through.
   */
  public CrawlControl control() {
    return control;
  }

  /** The crawl database of this crawl, for reading; the crawler owns it. */
  public CrawlStore store() {
    return store;
  }

  /**
   * Crawls until nothing is due or max_actions is reached (or, {@link #continuous}, until stopped);
   * returns the counts of this run.
   */
  public RunSummary run() throws InterruptedException {
    runLock.lock();
    try {
      return runLocked();
    } finally {
      runLock.unlock();
    }
  }

  private RunSummary runLocked() throws InterruptedException {
    Instant started = clock.instant();
    RunSummary summary = new RunSummary();
    FullOrigins fullOrigins = new FullOrigins(config, summary);
    store.capUrls(fullOrigins.cap());
    addSeeds();
    ActionBudget budget = new ActionBudget(config.maxActions());
    Map<Origin, OriginCrawler> crawlers = new ConcurrentHashMap<>();
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      // A fleet process's scheduler runs until its FleetCoordinator says the fleet's run is over.
      OriginLeases leases = store.leases().orElse(null);
      Scheduler s = new Scheduler(config.concurrency(), executor,
          () -> stopRequested || budget.exhausted(), this::unexpected, continuous || leases != null);
      ScheduledExecutorService alarms = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "forager-wake-at");
        t.setDaemon(true);
        return t;
      });
      scheduler = s;
      // The scope is read against the seeds' origins only: the origins an earlier run took on must not
      // widen a narrower scope given now (open, then domains).
      Gatekeeper gatekeeper = new Gatekeeper(config,
          Scope.of(ScopeSetting.resolve(config.scope(), store), new SeedOriginPages(store)), control.blocklist());
      KnownOrigins origins = new KnownOrigins(store, gatekeeper.scope()::mayAddOrigin,
          gatekeeper.scope().maxOriginsPerDomain());
      AtomicReference<CrawlContext> context = new AtomicReference<>();
      boolean fleetMode = leases != null;
      // A run crawls a bounded working set of origins, taken from the store's scope as room frees, and
      // takes an origin up again when it gets work (a link from another origin, a URL coming due in a
      // continuous crawl); a fleet process holds only what it leased, and new work of an origin reopens
      // it in the store instead.
      String owner = FleetCoordinator.ownerId();
      Optional<FleetAddresses> fleetAddresses = fleetMode
          ? Optional.of(new FleetAddresses(leases, owner, config.fleet().lease())) : Optional.empty();
      AtomicReference<OriginWorkingSet> passesOf = new AtomicReference<>();
      Optional<OriginWorkingSet.Passes> passes = continuous
          ? Optional.of(new OriginWorkingSet.Passes(clock::instant, at -> {
            long delayMillis = Math.max(0, Duration.between(clock.instant(), at).toMillis());
            alarms.schedule(() -> {
              if (passesOf.get().passDue()) s.sourceChanged();
            }, delayMillis, TimeUnit.MILLISECONDS);
          }))
          : Optional.empty();
      OriginWorkingSet workingSet = fleetMode ? null
          : new OriginWorkingSet(store, crawlers, o -> new OriginCrawler(o, context.get(), started), started, passes,
              control::blocks);
      passesOf.set(workingSet);
      Consumer<Origin> wake = origin -> {
        OriginCrawler c = crawlers.get(origin);
        if (c != null && s.wake(c)) return;
        if (workingSet != null && workingSet.wake(origin)) s.sourceChanged();
      };
      BiConsumer<Origin, Instant> wakeAt = (origin, at) -> {
        // An origin resting after it was given up, or one a sitemap brought a URL forward for: the
        // few alarms per origin left (work to come is on the store's agenda: OriginWorkingSet).
        long delayMillis = Math.max(0, Duration.between(clock.instant(), at).toMillis());
        if (!fleetMode) alarms.schedule(() -> wake.accept(origin), delayMillis, TimeUnit.MILLISECONDS);
      };
      EarlySends earlySends = new EarlySends(config.network().earlyRequests());
      s.goOnWhen(earlySends::on);
      HtmlExtractor extractor = new HtmlExtractor(config.productToken(), config.limits().maxUrlLength());
      CrawlContext ctx = new CrawlContext(config, clock, store, extractor,
          new CrawlContext.Network(fetcher, new RobotsFetcher(fetcher, config.robots().cacheTtl(), clock, gatekeeper),
              ipGate(config, dnsCache, s, fleetAddresses), new NetworkHealth(NETWORK_PROBE_NANOS, summary::note),
              new BorrowedRobots(store, config.robots().cacheTtl(), wake, origin -> {
                OriginCrawler c = crawlers.get(origin);
                if (c != null && s.wake(c)) return;
                if (workingSet != null && workingSet.takeUp(origin)) s.sourceChanged();
              }),
              // One request in flight per domain a sites rule makes one unit; each take gives its delay.
              new Slots<>(1, Duration.ZERO, config.limits().fetchTimeout(), s::hurry), new RobotsMemory(robotsMemoryBytes)),
          new CrawlContext.Policy(gatekeeper, extraGate, new Classifier(clock),
              new Recrawls(new RecrawlPolicy(config.recrawl()), store), ranking),
          new CrawlContext.Outputs(warc, log, summary, listener, pageListener),
          new CrawlContext.Run(budget, continuous, wake, wakeAt, origins, control,
              PageGate.forThisMachine(), earlySends, new InternalErrors(this::countUnexpected, () -> closed)));
      context.set(ctx);
      FleetCoordinator fleet = null;
      if (leases != null) {
        // Only origins this process leased are crawled; the coordinator adds them as it claims them
        // (and saves and releases them at the end). Wakes and alarms find no crawler in `crawlers`:
        // new work of an origin reopens it in the store instead.
        fleet = new FleetCoordinator(leases, owner, ctx, started, s,
            origin -> new OriginCrawler(origin, ctx, started).fetchRobotsFirst());
        s.workingSet(fleet, Integer.MAX_VALUE); // finished origins leave the scheduler, not parked
        fleet.start();
      } else {
        s.workingSet(workingSet, ActiveOrigins.capacity(config));
      }
      if (stopRequested) s.stop();
      control.attach(new CrawlControl.Run(s, gatekeeper, extraGate, origins, wake, crawlers));
      if (fleetMode) {
        // Another process of the fleet may block a host: its blocks are read again now and then.
        alarms.scheduleWithFixedDelay(() -> {
          try {
            control.refreshBlocks();
          } catch (RuntimeException e) {
            LOG.warn("cannot read the operators' blocks again; keeping those read last", e);
          }
        }, BLOCKS_REFRESH_SECONDS, BLOCKS_REFRESH_SECONDS, TimeUnit.SECONDS);
      }
      ctx.outputs().listener().runStarted(new LiveRun(started, summary, s, store, crawlers.values(), dnsCache, origins,
          workingSet == null ? List::of : workingSet::recentlyFinished, ctx.network().health()));
      earlySends.start();
      try {
        runScheduler(s, crawlers, summary, ctx.network().health(), fleetAddresses);
        if (summary.count(Outcome.BLOCKED_URL_BY_LOCAL_POLICY) > 0) noteRefusedSeeds(gatekeeper, summary);
        if (summary.actions() == 0 && !stopRequested && leases == null) noteNothingDone(summary, started);
        // The agenda says what is due when the scheduler stopped at the budget before any turn asked for
        // more (a fleet's agenda is its leases: only what its turns asked for is known there).
        if (!stopRequested && config.maxActions() > 0 && (budget.cutShort() || leases == null
            && budget.exhausted() && !store.agenda(clock.instant(), Optional.empty(), 1).isEmpty())) {
          // Else a run its budget ended reads like a finished crawl (a new user's 1,500 actions: a third of
          // the seeds' home pages never fetched, rc 0, nothing said).
          summary.note(String.format("max_actions (%,d) reached with work left: run again to go on, or raise"
              + " max_actions (--max-actions); forager status shows what is due", config.maxActions()));
        }
        noteBorrowedRobots(ctx.network().borrowedRobots(), summary);
        fullOrigins.note();
      } finally {
        earlySends.close();
        control.detach();
        alarms.shutdownNow();
        if (fleet != null) fleet.close();
        fleetAddresses.ifPresent(FleetAddresses::releaseAll);
        ctx.network().health().runEnded();
        ctx.outputs().listener().runFinished();
      }
    }
    for (OriginCrawler c : crawlers.values()) {
      try {
        c.saveState();
      } catch (RuntimeException e) {
        // Origin state is a cache (robots.txt, delay): after the crawl stopped on an output failure
        // (a full store), saving it fails the same way and must not hide the summary.
        if (fatal == null) throw e;
      }
    }
    return summary;
  }

  /** Politeness per IP address, on the addresses the fetcher's own resolver answers. */
  private static IpGate ipGate(CrawlConfig config, CachingResolver dnsCache, Scheduler s,
      Optional<FleetAddresses> fleet) {
    CrawlConfig.PerIp perIp = config.politeness().perIp();
    // A task that found its address busy is woken when a slot comes free; the recheck is only a
    // fallback, so it may be as long as a request can take.
    Slots<InetAddress> slots = new Slots<>(perIp.maxInFlight(), perIp.minDelay(), config.limits().fetchTimeout(), s::hurry);
    return new IpGate(AddressPicker.of(HttpFetcher.Options.from(config, dnsCache)), slots,
        perIp.minDelay().toMillis(), fleet);
  }

  private void runScheduler(Scheduler s, Map<Origin, OriginCrawler> crawlers, RunSummary summary,
      NetworkHealth health, Optional<FleetAddresses> fleet) throws InterruptedException {
    // The time to max_actions is worth a line only when someone chose the number: the default's is
    // no forecast of the crawl's end.
    long chosenMaxActions = config.maxActions() == CrawlConfig.DEFAULT_MAX_ACTIONS ? Long.MAX_VALUE : config.maxActions();
    Progress progress = Progress.start(quiet ? Progress.Mode.QUIET : Progress.Mode.AUTO, summary, s,
        store::urlCount, chosenMaxActions, () -> control.paused() ? Optional.of("PAUSED (forager ctl resume)")
            : health.down() ? Optional.of("HOLDING (the network looks down)")
            : fleet.flatMap(Crawler::addressesWaitedFor).or(() -> allWaiting(s)));
    try {
      s.run(crawlers.values());
    } finally {
      progress.close();
    }
  }

  /**
   * Every active origin waits (its delay, a retry's backoff, a Retry-After) for long enough to leave the
   * line at "0/s": said, with when the next request goes (a new user's run held 7 minutes by five sites
   * retrying robots.txt, the line saying only "0/s  5 origins active").
   */
  private static Optional<String> allWaiting(Scheduler s) {
    java.util.OptionalLong idle = s.idleForNanos();
    if (idle.isEmpty() || idle.getAsLong() < IDLE_WORTH_SAYING_NANOS) return Optional.empty();
    return Optional.of("WAITING (every active origin waits out its delay, a retry or a Retry-After; next request in "
        + Progress.format(Duration.ofNanos(idle.getAsLong())) + ")");
  }

  /** A wait of every origin shorter than this is a crawl's ordinary pace, not worth a word. */
  private static final long IDLE_WORTH_SAYING_NANOS = TimeUnit.SECONDS.toNanos(5);

  /**
   * Origins whose address another process of the fleet holds wait for it (a process may sit idle a
   * lease long): the progress line says so rather than show nothing happening.
   */
  private static Optional<String> addressesWaitedFor(FleetAddresses fleet) {
    int n = fleet.heldByOthers();
    return n == 0 ? Optional.empty() : Optional.of(String.format("WAITING for %,d address%s another process of the"
        + " fleet holds", n, n == 1 ? "" : "es"));
  }

  /**
   * Crawls on and on: when nothing is due the origins sleep until their next URL comes due
   * (recrawls, retries), robots.txt is re-read on its expiry, and only {@link #stop} (SIGINT or
   * SIGTERM from the command line) or max_actions end the run.
   */
  public Crawler continuous(boolean continuous) {
    this.continuous = continuous;
    return this;
  }

  /** Calls {@code listener} for every response fetched (see {@link PageListener}). Before {@link #run}. */
  public Crawler onPage(PageListener listener) {
    this.pageListener = java.util.Objects.requireNonNull(listener);
    return this;
  }

  /** Adds a gate of the caller's after the configured ones (see {@link UrlGate}). Before {@link #run}. */
  public Crawler gate(UrlGate gate) {
    this.extraGate = java.util.Objects.requireNonNull(gate);
    return this;
  }

  /**
   * Ranks the URLs the crawl finds (links, redirect and canonical targets, sitemap entries) in place
   * of the default ({@link Ranking#LINKS}, sitemap entries by their {@code <priority>}): within an
   * origin, never-crawled URLs are fetched highest priority first, and origins holding higher
   * priorities go first when more are ready than {@code concurrency} allows. Asked when a URL is
   * first stored (with 1 inlink when a page's first crawl found it, 0 for sitemap entries) and again
   * as more pages link to it; seeds always rank 1. Values are clamped to [0, 1]. Before {@link #run}.
   */
  public Crawler priority(Ranking ranking) {
    java.util.Objects.requireNonNull(ranking);
    // Asked inside the store's group write: one that throws would fail the other origins' writes of
    // the group. A failure ranks the URL 0, said once.
    java.util.concurrent.atomic.AtomicBoolean told = new java.util.concurrent.atomic.AtomicBoolean();
    this.ranking = (url, depth, inlinks) -> {
      try {
        return ranking.priority(url, depth, inlinks);
      } catch (RuntimeException | Error e) {
        // An Error too (a stack overflow in the hook): thrown inside a group write, it would fail the
        // writes of every origin in the group. One the JVM cannot go on after is still thrown.
        if (e instanceof Error error && !InternalErrors.survivable(error)) throw error;
        if (told.compareAndSet(false, true)) {
          Notice.println("forager: the priority hook failed on " + url + " (" + e + "); such URLs rank 0");
        }
        return 0;
      }
    };
    return this;
  }

  /** Whether to show progress on standard error while running (on unless set quiet). */
  public Crawler quiet(boolean quiet) {
    this.quiet = quiet;
    return this;
  }

  /**
   * Who is told of the run as it happens (one listener; set before {@link #run}). An exception its
   * {@link CrawlListener#action} throws (it must not) is said once and otherwise ignored.
   */
  public Crawler listener(CrawlListener listener) {
    java.util.Objects.requireNonNull(listener, "listener");
    // Told as each action is logged, inside the step that made it: an exception there would be taken
    // for the URL's own failure (InternalErrors), its request logged twice.
    java.util.concurrent.atomic.AtomicBoolean told = new java.util.concurrent.atomic.AtomicBoolean();
    this.listener = new CrawlListener() {
      @Override
      public void runStarted(RunView run) {
        listener.runStarted(run);
      }

      @Override
      public void action(org.forager.record.CrawlAction action) {
        try {
          listener.action(action);
        } catch (RuntimeException e) {
          if (told.compareAndSet(false, true)) {
            Notice.println("forager: the crawl listener failed on " + action.url() + " (" + e + "); its failures"
                + " are ignored (stack trace in logs/library.log)");
            LOG.warn("the crawl listener failed on {}; its failures are ignored", action.url(), e);
          }
        }
      }

      @Override
      public void runFinished() {
        listener.runFinished();
      }
    };
    return this;
  }

  /** Ends the run after the fetches in flight; safe from any thread, e.g. a signal handler. */
  public void stop() {
    stopRequested = true;
    Scheduler s = scheduler;
    if (s != null) s.stop();
  }

  /**
   * Whether {@link #stop} was called (a signal, forager ctl stop, a fatal error; {@link #close} too):
   * asked when {@link #run} returns, whether the run ended before it ran out of work or budget.
   */
  public boolean stopRequested() {
    return stopRequested;
  }

  /**
   * Why the run was stopped early by a failure of the crawler itself (an output that cannot be written,
   * a burst of unexpected errors), if it was. The data directory is consistent; once the cause is
   * fixed, running again resumes.
   */
  public Optional<String> fatalError() {
    return Optional.ofNullable(fatal);
  }

  /**
   * Turns that failed with an unexpected exception in this run, and errors the run went on after as
   * the failure of one URL or origin (a {@code StackOverflowError} or a {@code NullPointerException}
   * processing a page: INTERNAL_ERROR).
   */
  public long unexpectedErrors() {
    return unexpectedErrors.sum();
  }

  /**
   * A seed the local gates refuse (a query no url_query_parameters rule allows, a do_not_crawl rule) is
   * one refusal among the crawl log's lines; the operator named it, so the run's end says so.
   */
  private void noteRefusedSeeds(Gatekeeper gatekeeper, RunSummary summary) {
    for (String seed : config.seeds()) {
      Optional<String> url = UrlNormalizer.normalize(seed);
      if (url.isPresent() && gatekeeper.check(url.get(), 0) instanceof Verdict.Rejected refused) {
        summary.note("seed " + url.get() + " is not requested: " + refused.reason());
      }
    }
  }

  /**
   * A run that did nothing says why rather than ending on "TOTAL 0": no URL was due (the next due time,
   * from the store's agenda), or the origins with work were given up or blocked in an earlier run.
   */
  private void noteNothingDone(RunSummary summary, Instant started) {
    if (config.maxActions() == 0) {
      // Asked for (a killed crawl's outputs mended and nothing crawled, README): no cause to look for.
      summary.note("--max-actions 0: nothing crawled, as asked (the crawl database, WARC files and log are made whole)");
      return;
    }
    Optional<AgendaEntry> next = store.agenda(Instant.MAX, Optional.empty(), 1).stream().findFirst();
    if (next.isEmpty()) {
      summary.note("nothing was due: every known URL is crawled and none comes due again (recrawl settings); a new"
          + " --seed adds work");
    } else if (next.get().at().isAfter(started) && config.sitemaps().enabled()) {
      // The agenda's time is also when an origin's sitemaps are read again: not always a URL's.
      summary.note("nothing was due: the next origin comes due at " + next.get().at() + ", for a URL due then or to"
          + " read its sitemaps again (recrawl settings, sitemaps.reread_after; forager ctl retry-failed makes the"
          + " failed ones due now)");
    } else if (next.get().at().isAfter(started)) {
      summary.note("nothing was due: the next URL comes due at " + next.get().at() + " (recrawl settings; forager"
          + " ctl retry-failed makes the failed ones due now)");
    } else {
      summary.note("URLs may be due, but no origin with work was crawled: given up in its last run, or blocked"
          + " (forager status lists them)");
    }
  }

  /** Origins still waiting for the robots.txt theirs redirects to are crawled in a later run: said. */
  private static void noteBorrowedRobots(BorrowedRobots borrowed, RunSummary summary) {
    int waiting = borrowed.waiting();
    long overflowed = borrowed.overflowedCount();
    if (waiting > 0) {
      summary.note(String.format("%,d origin%s waited for the robots.txt of the origin %s redirects to, not read in this"
          + " run: crawled in a later one", waiting, waiting == 1 ? "" : "s", waiting == 1 ? "its own" : "theirs"));
    }
    if (overflowed > 0) {
      summary.note(String.format("%,d origin%s put off: %,d origins waited already for the robots.txt their own"
          + " redirects to", overflowed, overflowed == 1 ? "" : "s", BorrowedRobots.MAX_WAITERS));
    }
  }

  /** Seeds are added in batches of this many: a million seeds must not be one write (nor one heap). */
  static final int SEED_BATCH = 10_000;

  /** Adds the seeds and their origins to the store, batch by batch (the origins of a batch first). */
  private void addSeeds() {
    Set<Origin> origins = new LinkedHashSet<>();
    List<Candidate> seeds = new ArrayList<>();
    for (String seed : config.seeds()) {
      String url = UrlNormalizer.normalize(seed)
          .orElseThrow(() -> new IllegalArgumentException("seed is not an http(s) URL: " + seed));
      origins.add(Origin.ofUrl(url));
      seeds.add(Candidate.seed(url));
      if (seeds.size() == SEED_BATCH) {
        store.addScope(origins);
        store.addCandidates(seeds);
        origins.clear();
        seeds.clear();
      }
    }
    if (!seeds.isEmpty()) {
      store.addScope(origins);
      store.addCandidates(seeds);
    }
  }

  private void unexpected(Object task, Throwable e) {
    String where = task instanceof OriginCrawler c ? c.origin().toString() : String.valueOf(task);
    if (e instanceof Error) {
      unexpectedErrors.increment();
      // The run cannot be trusted to finish (out of memory, a class that cannot load, ...): it ends,
      // and says so. Nothing is printed here: the command line's handler prints the one line that says
      // what to change. The errors a crawl survives are contained before they get here (InternalErrors).
      synchronized (this) {
        if (fatal == null) fatal = "internal error crawling " + where + ": " + e;
      }
      stop();
      return;
    }
    if (InternalErrors.isOutputFailure(e)) {
      unexpectedErrors.increment();
      // The crawl cannot record what it fetches (disk full, store broken): every further fetch would be
      // wasted on the site, so stop at once.
      stopBecause("cannot record the crawl: " + e.getMessage());
      return;
    }
    // What the turns did not contain (InternalErrors): an exception of an interrupted turn, or of one
    // that met the outputs closing; or a task's other than an origin's turn.
    Notice.println("forager: unexpected error crawling " + where + "; that origin stops for this run: " + e
        + " (stack trace in logs/library.log)");
    LOG.error("unexpected error crawling {}", where, e);
    countUnexpected(where, e);
  }

  /**
   * Counts an unexpected error the crawl went on after (an error or exception contained as one URL's
   * or origin's failure: {@link InternalErrors}; an exception that stopped its origin); more than the
   * budget within a minute stop the crawl.
   */
  private void countUnexpected(String origin, Throwable e) {
    unexpectedErrors.increment();
    if (errorBudget.overBudget(System.nanoTime(), origin)) {
      stopBecause("unexpected errors on more than " + MAX_UNEXPECTED_ERRORS_PER_MINUTE + " sites within a minute (last: "
          + e + ")");
    }
  }

  private synchronized void stopBecause(String why) {
    if (fatal == null) {
      fatal = why;
      Notice.println("forager: stopping the crawl: " + why);
    }
    stop();
  }

  /** Closes the fetcher, the outputs and the store; a second call does nothing. */
  @Override
  public void close() {
    // A run still going is stopped first and waited for (its fetches in flight), so that nothing
    // is written to closed outputs.
    stop();
    try {
      if (!runLock.tryLock(60, TimeUnit.SECONDS)) {
        Notice.println("forager: the crawl did not stop within a minute; closing anyway");
      } else {
        runLock.unlock();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    closeOutputs();
  }

  private synchronized void closeOutputs() {
    if (closed) return;
    closed = true;
    closeQuietly(fetcher);
    closeQuietly(log);
    // The WARC (its last file and index) and the store (its memtables flushed) are independent and
    // finish on a core each: at the end of the benchmark's crawl about 0.28 s and 0.21 s, one after the
    // other with a core idle before (issue 15).
    Thread storeClose = Thread.ofPlatform().name("forager-store-close").start(() -> closeQuietly(store));
    closeQuietly(warc);
    boolean interrupted = false;
    while (storeClose.isAlive()) {
      try {
        storeClose.join();
      } catch (InterruptedException e) {
        interrupted = true; // the store's close is not abandoned half way: waited for, then the flag kept
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      Notice.println("forager: error while closing " + c.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }
}
