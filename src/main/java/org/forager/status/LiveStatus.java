package org.forager.status;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.forager.crawl.CrawlControl;
import org.forager.crawl.CrawlListener;
import org.forager.crawl.OriginSnapshot;
import org.forager.crawl.RunView;
import org.forager.fetch.Outcome;
import org.forager.record.CrawlAction;
import org.forager.record.RunSummary;

/**
 * Follows a run for the status page: counts page requests, keeps the recent failures and the rate
 * history, and makes a {@link StatusReport} on demand. Thread-safe.
 */
final class LiveStatus implements CrawlListener {

  static final int TOP_ORIGINS = 10;
  static final int RECENT_ERRORS = 50;
  /** Ten minutes of one-second samples. */
  static final int RATE_SAMPLES = 600;

  private final Clock clock;
  /** An AtomicLong, not a LongAdder: see RunSummary. */
  private final AtomicLong pagesRequested = new AtomicLong();
  private final RecentErrors errors = new RecentErrors(RECENT_ERRORS);
  private final RateHistory rate = new RateHistory(RATE_SAMPLES);
  private volatile RunView run;
  private volatile Instant finishedAt;
  private volatile Supplier<CrawlControl.State> control;

  LiveStatus(Clock clock) {
    this.clock = clock;
  }

  @Override
  public void runStarted(RunView run) {
    this.finishedAt = null;
    this.run = run;
  }

  @Override
  public void action(CrawlAction action) {
    if (action.kind() == CrawlAction.Kind.PAGE && !action.outcome().isBlocked()) pagesRequested.getAndIncrement();
    errors.offer(action);
  }

  @Override
  public void runFinished() {
    finishedAt = clock.instant();
  }

  /** The control's state goes into the reports from now on. */
  void control(Supplier<CrawlControl.State> state) {
    this.control = state;
  }

  /** Takes one sample of the rates; called once a second. */
  void sample() {
    RunView r = run;
    rate.sample(clock.millis(), System.nanoTime(), pagesRequested.get(), r == null ? 0 : r.summary().actions());
  }

  StatusReport report() {
    Instant now = clock.instant();
    RunView r = run;
    Instant finished = finishedAt;
    if (r == null) {
      return new StatusReport("waiting", "", now.toString(), 0, new StatusReport.Totals(0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
          outcomes(new RunSummary()), rate.points(), List.of(), List.of(), errors.newestFirst(), control());
    }
    RunSummary summary = r.summary();
    // Sorting every origin is O(n log n) per poll: fine for a page polled once a second by a person.
    List<OriginSnapshot> origins = r.origins();
    List<StatusReport.OriginRow> busiest = top(origins,
        Comparator.comparingLong(OriginSnapshot::pagesFetched).thenComparingInt(OriginSnapshot::queued));
    List<StatusReport.OriginRow> slowest = top(origins,
        Comparator.comparingLong(OriginSnapshot::delayMillis).thenComparingLong(OriginSnapshot::pagesFetched));
    long failures = 0;
    long fetched = 0;
    for (Outcome o : Outcome.values()) {
      if (RecentErrors.FAILURES.contains(o)) failures += summary.count(o);
      else if (!o.isBlocked()) fetched += summary.count(o);
    }
    // A robots.txt or sitemap that is not there is an answer the crawl uses (no rules; no sitemap).
    failures -= summary.absentFiles();
    fetched += summary.absentFiles();
    StatusReport.Totals totals = new StatusReport.Totals(summary.actions(), fetched, pagesRequested.get(), failures,
        summary.robotsFetches(), summary.bytes(), r.knownUrls(), r.activeOrigins(),
        (int) Math.min(Integer.MAX_VALUE, r.originsInScope()), summary.urlsNotKept());
    Instant end = finished == null ? now : finished;
    double elapsed = Math.max(0, Duration.between(r.started(), end).toMillis()) / 1000.0;
    StatusReport.Control control = control();
    String state = finished != null ? "finished" : r.networkDown() ? "held" : control.paused() ? "paused" : "running";
    return new StatusReport(state, r.started().toString(), now.toString(),
        elapsed, totals, outcomes(summary), rate.points(), busiest, slowest, errors.newestFirst(), control);
  }

  private StatusReport.Control control() {
    Supplier<CrawlControl.State> c = control;
    return c == null ? StatusReport.Control.NONE : StatusReport.Control.of(c.get());
  }

  private static List<StatusReport.OriginRow> top(List<OriginSnapshot> origins, Comparator<OriginSnapshot> by) {
    return origins.stream().sorted(by.reversed()).limit(TOP_ORIGINS).map(StatusReport.OriginRow::of).toList();
  }

  private static Map<String, Long> outcomes(RunSummary summary) {
    Map<String, Long> counts = new LinkedHashMap<>();
    for (Outcome o : Outcome.values()) counts.put(o.name(), summary.count(o));
    return counts;
  }
}
