package org.forager.crawl;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.Set;
import org.forager.config.Sites;
import org.forager.crawl.Classification.Feedback;
import org.forager.dedup.SimHash;
import org.forager.extract.ExtractedPage;
import org.forager.fetch.FetchRequest;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Outcome;
import org.forager.frontier.OriginTask;
import org.forager.policy.Verdict;
import org.forager.record.CrawlAction;
import org.forager.robots.RobotsFetcher;
import org.forager.robots.RobotsRules;
import org.forager.sitemap.SitemapReader;
import org.forager.sitemap.SitemapResult;
import org.forager.store.Candidate;
import org.forager.store.CrawlRecord;
import org.forager.store.DueCandidate;
import org.forager.store.OriginState;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;
import org.forager.warc.Digests;

/**
 * One origin's crawl loop (DESIGN.md "The origin crawl loop"). Each turn it does one of: fetch
 * robots.txt when missing or expired; fill the todo list from the store; crawl one URL. URLs refused
 * by a gate are logged in the same turn without a request.
 *
 * <p>The run's ignore list is the cutoff: only candidates due at or before the run's start are taken,
 * and every crawl action moves its URL's due time past it, so a URL is taken at most once per run
 * (retries aside) however short the recrawl interval, without remembering what was taken.
 */
final class OriginCrawler implements OriginTask {

  static final int INITIAL_PATIENCE = 5;
  /** In continuous mode, how long an origin out of patience is left alone before it is tried again. */
  static final java.time.Duration GIVEN_UP_REST = java.time.Duration.ofHours(1);
  private static final int TODO_BATCH = 64;
  private static final long MIN_RETRY_BACKOFF_MILLIS = 100;

  private record Pending(DueCandidate candidate, int attempt) {}

  private record Retry(Pending pending, long readyAt) {}

  private final Origin origin;
  private final CrawlContext ctx;
  private final Instant cutoff;
  /** This origin's politeness settings and page limit: the {@code sites} rules over the global values. */
  private final Sites.Settings settings;
  private final OriginPoliteness politeness;
  private final ArrayDeque<Pending> todo = new ArrayDeque<>();
  private final SitemapQueue sitemaps;
  private final PriorityQueue<Retry> retries = new PriorityQueue<>(Comparator.comparingLong(Retry::readyAt));

  private boolean loaded;
  private RobotsRules robots;
  private Instant robotsExpiresAt = Instant.EPOCH;
  private OriginState.RobotsTxt robotsTxt;
  private int robotsFailures;
  /** Consecutive 401, 403 and 451 answers: a site that denies everything runs out of patience. */
  private int deniedInARow;
  private int patience = INITIAL_PATIENCE;
  private long pagesFetched;
  private Instant restUntil;
  private boolean givenUp;
  private boolean requested;
  private long lastRequestEnd;
  private long notBefore;
  private boolean fetchRobotsFirst;

  OriginCrawler(Origin origin, CrawlContext ctx, Instant cutoff) {
    this.origin = origin;
    this.ctx = ctx;
    this.cutoff = cutoff;
    this.settings = ctx.config().siteSettings(origin);
    this.politeness = new OriginPoliteness(settings.politeness());
    this.sitemaps = new SitemapQueue(origin, ctx.config().sitemaps());
  }

  Origin origin() {
    return origin;
  }

  /**
   * This origin's state for display, called from another thread than the turns: the fields are read
   * without synchronization, so a snapshot may mix moments or lag behind. Acceptable for a status
   * page, never to be used for decisions.
   */
  OriginSnapshot snapshot() {
    int queued = Math.max(0, todo.size()) + Math.max(0, retries.size());
    return new OriginSnapshot(origin, politeness.delayMillis(), patience, queued, pagesFetched, givenUp);
  }

  @Override
  public OptionalLong turn() {
    if (!loaded) load();
    // Defensive: whoever dispatched this turn, no request before the origin's time.
    long allowed = requestAllowedAt();
    if (allowed - System.nanoTime() > 0) return OptionalLong.of(allowed);
    if (givenUp && ctx.continuous() && restUntil != null && !ctx.clock().instant().isBefore(restUntil)) {
      // A crawl that never ends gives a failing origin another chance after a rest, with fresh patience.
      givenUp = false;
      restUntil = null;
      patience = INITIAL_PATIENCE;
      robotsFailures = 0;
      deniedInARow = 0;
      pagesFetched = 0; // limits.max_pages_per_origin is per run, or per pass in continuous mode
    }
    // Whether local policy lets the origin be contacted at all, read once a turn (the exclusion file
    // may change while the crawl runs): robots.txt comes first, so an origin whose robots.txt may not
    // be requested can have no request at all.
    Optional<Verdict.Rejected> closed = closedByLocalPolicy();
    while (true) {
      if (givenUp || ctx.budget().exhausted()) return finish();
      Pending next = nextPending();
      if (next == null && (closed.isPresent() || !sitemaps.hasWork())) {
        if (retries.isEmpty()) {
          if (ctx.continuous()) {
            scheduleNextDue();
            pagesFetched = 0; // caught up: the next pass has its own page budget
          }
          return finish();
        }
        return OptionalLong.of(Math.max(retries.peek().readyAt(), requestAllowedAt()));
      }
      if (next != null) {
        // The local gates first: a URL they refuse costs no request, robots.txt included, so an
        // excluded host is never contacted at all.
        Optional<Verdict.Rejected> refused = localRefusal(next).or(() -> closed);
        if (refused.isPresent()) {
          if (!ctx.budget().tryTake()) {
            todo.addFirst(next);
            return finish();
          }
          recordRefusal(next, refused.get());
          continue;
        }
      }
      if (robotsNeeded()) {
        if (next != null) todo.addFirst(next);
        if (!ctx.budget().tryTake()) return finish();
        fetchRobots();
        return givenUp ? finish() : OptionalLong.of(requestAllowedAt());
      }
      sitemaps.start(robots);
      if (sitemaps.hasNext()) {
        if (next != null) todo.addFirst(next);
        if (!ctx.budget().tryTake()) return finish();
        fetchSitemap(sitemaps.next().orElseThrow());
        return givenUp ? finish() : OptionalLong.of(requestAllowedAt());
      }
      if (next == null) continue; // the sitemaps are done; what is left are retries
      if (pagesFetched >= settings.maxPagesPerOrigin()) {
        // The budget that bounds any spider trap: the rest stays due for a later run (or pass).
        todo.addFirst(next);
        Notice.printf("forager: %s: fetched limits.max_pages_per_origin (%d) pages; done with it for this %s%n",
            origin, pagesFetched, ctx.continuous() ? "pass" : "run");
        givenUp = true;
        return finish();
      }
      if (!ctx.budget().tryTake()) {
        todo.addFirst(next);
        return finish();
      }
      if (!robots.isAllowed(next.candidate().url())) {
        recordRefusal(next, new Verdict.Rejected(Outcome.BLOCKED_BY_ROBOTS_TXT, "robots.txt"));
        continue;
      }
      pagesFetched++;
      crawl(next);
      return givenUp ? finish() : OptionalLong.of(requestAllowedAt());
    }
  }

  /** Why the origin may not be contacted at all, when local policy refuses its robots.txt. */
  private Optional<Verdict.Rejected> closedByLocalPolicy() {
    return ctx.gatekeeper().checkRequest(origin.robotsTxtUrl()) instanceof Verdict.Rejected rejected
        ? Optional.of(new Verdict.Rejected(rejected.outcome(), rejected.reason() + " (for the origin's robots.txt)"))
        : Optional.empty();
  }

  /** The configured gates and the caller's, in that order; robots.txt comes after them. */
  private Optional<Verdict.Rejected> localRefusal(Pending pending) {
    String url = pending.candidate().url();
    if (ctx.gatekeeper().check(url, pending.candidate().depth()) instanceof Verdict.Rejected rejected) {
      return Optional.of(rejected);
    }
    return ctx.extraGate().refuse(url, pending.candidate().depth())
        .map(reason -> new Verdict.Rejected(Outcome.BLOCKED_URL_BY_LOCAL_POLICY, reason));
  }

  /** Whether the origin was given up for this run (out of patience, page limit, put off by the site). */
  boolean givenUp() {
    return givenUp;
  }

  /**
   * Fleet: the first turn fetches robots.txt rather than using the copy another process stored, so
   * that this process's own crawl log shows robots.txt before any page of the origin (the audit).
   */
  OriginCrawler fetchRobotsFirst() {
    fetchRobotsFirst = true;
    return this;
  }

  /** Saves what the next run needs to know about this origin. */
  void saveState() {
    if (!loaded) return;
    ctx.store().saveOriginState(
        new OriginState(origin, Optional.ofNullable(robotsTxt), politeness.delayMillis(), patience));
  }

  private void load() {
    loaded = true;
    ctx.store().originState(origin).ifPresent(state -> {
      state.robotsTxt().filter(robots -> !fetchRobotsFirst).ifPresent(this::useRobots);
      politeness.restore(state.delayMillis());
    });
  }

  private OptionalLong finish() {
    saveState();
    if (givenUp && ctx.continuous() && restUntil == null) {
      restUntil = ctx.clock().instant().plus(GIVEN_UP_REST);
      ctx.wakeAt().accept(origin, restUntil);
    }
    return OptionalLong.empty();
  }

  private Pending nextPending() {
    Retry retry = retries.peek();
    if (retry != null && retry.readyAt() - System.nanoTime() <= 0) return retries.poll().pending();
    if (todo.isEmpty()) {
      // Continuous crawling takes what is due now; a single run only what was due when it started.
      Instant upTo = ctx.continuous() ? ctx.clock().instant() : cutoff;
      for (DueCandidate c : ctx.store().due(origin, upTo, TODO_BATCH)) todo.add(new Pending(c, 1));
    }
    return todo.poll();
  }

  /** Continuous mode, nothing due now: be woken when the earliest candidate of the origin comes due. */
  private void scheduleNextDue() {
    Instant horizon = ctx.clock().instant().plus(java.time.Duration.ofDays(3650));
    List<DueCandidate> next = ctx.store().due(origin, horizon, 1);
    if (next.isEmpty()) return; // nothing known: woken when another origin finds some
    ctx.store().url(next.get(0).url()).ifPresent(u -> ctx.wakeAt().accept(origin, u.nextFetchAt()));
  }

  private long requestAllowedAt() {
    long now = System.nanoTime();
    if (!requested) return Math.max(now, notBefore);
    long allowed = lastRequestEnd + politeness.delayMillis() * 1_000_000L;
    return Math.max(allowed, notBefore);
  }

  // --- robots.txt

  private boolean robotsNeeded() {
    return robots == null || !robots.isReachable() || !ctx.clock().instant().isBefore(robotsExpiresAt);
  }

  private void fetchRobots() {
    RobotsFetcher.Result result = ctx.robotsFetcher().fetch(origin, politeness::delayMillis);
    if (result.hops().isEmpty()) {
      // Local policy refuses the origin's own robots.txt: without its rules nothing may be fetched.
      RobotsFetcher.Refusal refusal = result.refused().orElseThrow();
      log(refusalAction(CrawlAction.Kind.ROBOTS, refusal.url(), refusal.verdict(), 1));
      givenUp = true;
      return;
    }
    requested = true;
    lastRequestEnd = System.nanoTime();
    long total = 0;
    for (FetchResult hop : result.hops()) total += hop.durationMillis();
    politeness.responseTime(total);
    useRobots(result.robotsTxt());
    int attempt = robotsFailures + 1;
    // Logged once the delay reflects this fetch (Crawl-delay included), as the audit reads it.
    for (FetchResult hop : result.hops()) {
      Classification c = ctx.classifier().classify(hop);
      // The origin's own address refused: nothing of it can be fetched. A redirect hop refused only
      // makes the file unavailable (RobotsFetcher).
      if (c.feedback() == Feedback.REFUSED && hop == result.hops().get(0)) givenUp = true;
      Optional<String> location = c.location().flatMap(l -> UrlNormalizer.resolve(hop.url(), l));
      if (hop instanceof FetchResult.Response r) ctx.warc().write(r);
      log(action(hop, CrawlAction.Kind.ROBOTS, c.outcome(), location, attempt, robotsNote(hop)));
    }
    result.refused().ifPresent(r -> log(refusalAction(CrawlAction.Kind.ROBOTS, r.url(), r.verdict(), attempt)));
    if (robots.isReachable()) {
      robotsFailures = 0;
      checkCrawlDelay();
    } else if (attempt > ctx.config().limits().maxRetries()) {
      // Retried like a page (limits.max_retries, growing delay); without robots.txt nothing may be
      // fetched, so the origin waits for a later run.
      givenUp = true;
      Notice.printf("forager: %s: robots.txt unreachable after %d attempts; putting the origin off to a "
          + "later run%n", origin, attempt);
    } else {
      robotsFailures++;
      notBefore = lastRequestEnd + backoffMillis(robotsFailures) * 1_000_000L;
    }
    saveState();
  }

  /** RFC 9309 reads 401 and 403 on robots.txt as "unavailable" (allow all): said in the log. */
  private static Optional<String> robotsNote(FetchResult hop) {
    return hop instanceof FetchResult.Response r && (r.status() == 401 || r.status() == 403)
        ? Optional.of("robots.txt access denied (" + r.status() + "): no rules, everything allowed (RFC 9309 2.3.1.3)")
        : Optional.empty();
  }

  /**
   * A Crawl-delay above politeness.max_crawl_delay is not cut down (that would be faster than the
   * site asked): the origin is put off to a later run instead.
   */
  private void checkCrawlDelay() {
    Optional<Duration> asked = robots.crawlDelay();
    Duration ceiling = settings.politeness().maxCrawlDelay();
    if (asked.isPresent() && asked.get().compareTo(ceiling) > 0) {
      givenUp = true;
      Notice.printf("forager: %s asks for a Crawl-delay of %d s, more than politeness.max_crawl_delay (%d s); "
          + "putting it off to a later run%n", origin, asked.get().toSeconds(), ceiling.toSeconds());
    }
  }

  // --- sitemaps

  /**
   * Fetches one sitemap file: its page URLs become candidates (depth 1, found on the sitemap) when
   * they pass the discovery gates; an index's children are queued. The fetch is a request like any
   * other, logged as a {@code sitemap} action and written to the WARC; it is not itself a candidate.
   */
  private void fetchSitemap(String url) {
    if (ctx.gatekeeper().checkRequest(url) instanceof Verdict.Rejected rejected) {
      log(refusalAction(CrawlAction.Kind.SITEMAP, url, rejected, 1));
      return;
    }
    if (!robots.isAllowed(url)) {
      log(refusalAction(CrawlAction.Kind.SITEMAP, url,
          new Verdict.Rejected(Outcome.BLOCKED_BY_ROBOTS_TXT, "robots.txt"), 1));
      return;
    }
    FetchResult result = ctx.fetcher().fetch(FetchRequest.of(url));
    requested = true;
    lastRequestEnd = System.nanoTime();
    politeness.responseTime(result.durationMillis());
    Classification classification = ctx.classifier().classify(result);
    Optional<String> note = Optional.empty();
    if (result instanceof FetchResult.Response response) {
      ctx.warc().write(response);
      if (classification.outcome() == Outcome.FETCHED) {
        note = Optional.of(readSitemap(response));
      }
    }
    switch (classification.feedback()) {
      case OK, DENIED -> politeness.answeredNormally();
      case RATE_LIMITED -> politeness.rateLimited();
      case PERSISTENT -> losePatience(classification.outcome() + " for sitemap " + url);
      case REFUSED -> givenUp = true;
      case TRANSIENT -> { } // not retried: sitemaps are read again next run
    }
    log(action(result, CrawlAction.Kind.SITEMAP, classification.outcome(),
        classification.location().flatMap(l -> UrlNormalizer.resolve(url, l)), 1, note));
  }

  private String readSitemap(FetchResult.Response response) {
    int[] counts = new int[2]; // new, due sooner: the reader hands the entries on in batches as it reads
    SitemapResult result = SitemapReader.read(response.url(), response.body(), response.header("Content-Type"),
        ctx.clock().instant(), batch -> {
          List<Candidate> candidates = new ArrayList<>();
          List<SitemapResult.Entry> modified = new ArrayList<>();
          for (SitemapResult.Entry entry : batch) {
            Optional<String> url =
                UrlNormalizer.normalize(entry.url()).filter(u -> ctx.gatekeeper().isCandidate(u, 1));
            if (url.isEmpty()) continue;
            candidates.add(new Candidate(url.get(), 1, Optional.of(response.url())));
            if (entry.lastmod().isPresent()) modified.add(new SitemapResult.Entry(url.get(), entry.lastmod()));
          }
          counts[0] += ctx.store().addCandidates(candidates);
          wakeOtherOrigins(candidates);
          counts[1] += bringForwardModified(modified);
        }, sitemaps::add);
    return switch (result) {
      case SitemapResult.Failure failure -> "not a sitemap: " + failure.reason();
      case SitemapResult.Index index ->
          "sitemap index of " + index.sitemaps() + " files" + index.cut().map(c -> ", cut: " + c).orElse("");
      case SitemapResult.UrlSet set -> "sitemap of " + set.urls() + " URLs, " + counts[0] + " new"
          + (counts[1] > 0 ? ", " + counts[1] + " due sooner by lastmod" : "")
          + set.cut().map(c -> ", cut: " + c).orElse("");
    };
  }

  /**
   * Known URLs the sitemap says changed since their last fetch come due sooner (a hint, bounded by
   * {@code recrawl.min_interval}); returns how many moved. New URLs are due at once anyway.
   */
  private int bringForwardModified(List<SitemapResult.Entry> modified) {
    Instant now = ctx.clock().instant();
    int moved = 0;
    for (SitemapResult.Entry entry : modified) {
      Optional<Instant> due = ctx.recrawls().afterSitemapLastmod(entry.url(), entry.lastmod().orElseThrow(), now);
      if (due.isEmpty()) continue;
      moved++;
      if (origin.contains(entry.url())) continue; // this origin asks the store for due URLs as it goes
      Origin other = Origin.ofUrl(entry.url());
      if (!due.get().isAfter(now)) ctx.wake().accept(other);
      else if (ctx.continuous()) ctx.wakeAt().accept(other, due.get());
    }
    return moved;
  }

  private void useRobots(OriginState.RobotsTxt txt) {
    robotsTxt = txt;
    robots = RobotsRules.of(txt, origin.robotsTxtUrl(), ctx.config().productToken());
    robotsExpiresAt = txt.expiresAt();
    if (robots.isReachable()) politeness.crawlDelay(robots.crawlDelay());
  }

  // --- crawling one URL

  private void recordRefusal(Pending pending, Verdict.Rejected rejected) {
    Instant now = ctx.clock().instant();
    String url = pending.candidate().url();
    CrawlRecord record = new CrawlRecord(url, now, rejected.outcome(), 0, 0, Optional.empty(), -1,
        Optional.empty(), Optional.empty(), Optional.empty(), false, false, Optional.empty(),
        Optional.empty(), ctx.recrawls().nextFetchAt(pending.candidate(), rejected.outcome(), 0, Optional.empty(), now));
    // The log first: an action the log could not take (a full disk) must not be in the store alone.
    log(refusalAction(CrawlAction.Kind.PAGE, url, rejected, pending.attempt()));
    ctx.store().record(record, List.of());
  }

  /** The log line of a request a gate refused: nothing was sent. */
  private CrawlAction refusalAction(CrawlAction.Kind kind, String url, Verdict.Rejected rejected, int attempt) {
    return new CrawlAction(ctx.clock().instant(), kind, url, rejected.outcome(), 0, Optional.empty(), 0, 0,
        Optional.empty(), Optional.empty(), attempt, politeness.delayMillis(), Optional.of(rejected.reason()));
  }

  private void crawl(Pending pending) {
    DueCandidate candidate = pending.candidate();
    String url = candidate.url();
    FetchResult result = ctx.fetcher().fetch(
        new FetchRequest(url, candidate.etag(), candidate.lastModified()));
    requested = true;
    lastRequestEnd = System.nanoTime();
    politeness.responseTime(result.durationMillis());
    Instant now = ctx.clock().instant();

    Classification classification = ctx.classifier().classify(result);
    Outcome outcome = classification.outcome();
    List<Candidate> discovered = new ArrayList<>();
    Optional<String> redirectTo = Optional.empty();
    Optional<String> canonical = Optional.empty();
    Optional<String> contentType = Optional.empty();
    Optional<String> digest = Optional.empty();
    Optional<String> etag = Optional.empty();
    Optional<String> lastModified = Optional.empty();
    Optional<String> duplicateOf = Optional.empty();
    OptionalLong simhash = OptionalLong.empty();
    boolean noindex = false;
    boolean nofollow = false;
    long length = -1;
    int status = 0;

    if (result instanceof FetchResult.Response response) {
      ctx.warc().write(response);
      status = response.status();
      contentType = response.header("Content-Type");
      length = response.body().length;
      digest = Optional.of(Digests.sha1Base32(response.body()));
      etag = response.header("ETag");
      lastModified = response.header("Last-Modified");
      if (outcome == Outcome.NOT_MODIFIED) {
        etag = etag.or(candidate::etag);
        lastModified = lastModified.or(candidate::lastModified);
        digest = Optional.empty();
      } else if (outcome == Outcome.REDIRECT) {
        redirectTo = classification.location().flatMap(l -> UrlNormalizer.resolve(url, l));
        redirectTo.ifPresent(target -> offer(discovered, target, candidate.depth() + 1, url));
      } else if (outcome == Outcome.FETCHED) {
        if (ContentTypes.isHtml(response)) {
          ExtractedPage page = ctx.extractor().extract(url, response.body(), contentType,
              response.headers("X-Robots-Tag"), response.headers("Link"));
          noindex = page.noindex();
          nofollow = page.nofollow();
          canonical = page.canonical();
          simhash = SimHash.ofHtml(response.body(), page.charset());
          if (canonical.isPresent() && !canonical.get().equals(url)) {
            // The page is a copy: only its canonical URL is worth crawling, at the same depth.
            outcome = Outcome.NON_CANONICAL;
            offer(discovered, canonical.get(), candidate.depth(), url);
          } else {
            for (String link : page.links()) offer(discovered, link, candidate.depth() + 1, url);
            outcome = noindex ? Outcome.NOINDEX : response.truncated() ? Outcome.TRUNCATED : Outcome.FETCHED;
          }
        } else {
          outcome = response.truncated() ? Outcome.TRUNCATED : Outcome.UNSUPPORTED_CONTENT_TYPE;
        }
        if (isWholeOwnBody(outcome) && length > 0) {
          duplicateOf = ctx.store().firstWithDigest(digest.orElseThrow(), url);
          if (duplicateOf.isPresent()) {
            outcome = Outcome.DUPLICATE_CONTENT;
            if (ctx.config().duplicates().skipLinks()) discovered.clear();
          }
        }
      }
    }

    Instant nextFetchAt = ctx.recrawls().nextFetchAt(candidate, outcome, status, digest, now);
    if (classification.feedback() == Feedback.DENIED) {
      deniedInARow++;
    } else {
      deniedInARow = 0;
    }
    switch (classification.feedback()) {
      case OK -> politeness.answeredNormally();
      case DENIED -> {
        politeness.answeredNormally();
        // One forbidden page is an answer; a site that denies request after request is refusing the
        // crawler, and asking on would be impolite.
        if (deniedInARow > 1) losePatience(deniedInARow + " answers in a row denied access (last: " + status + " for " + url + ")");
      }
      case RATE_LIMITED -> {
        politeness.rateLimited();
        Duration wait = classification.retryAfter().orElse(Duration.ofMillis(politeness.delayMillis()));
        if (wait.compareTo(settings.politeness().maxRetryAfter()) > 0) {
          // Beyond max_retry_after: put the origin off to a later run.
          givenUp = true;
          nextFetchAt = now.plus(wait);
          Notice.printf("forager: %s asks to wait %d s (Retry-After), more than "
              + "politeness.max_retry_after; putting it off to a later run%n", origin, wait.toSeconds());
        } else {
          notBefore = Math.max(notBefore, lastRequestEnd + wait.toNanos());
          if (retry(pending, notBefore)) nextFetchAt = now;
        }
      }
      case TRANSIENT -> {
        long readyAt = lastRequestEnd + backoffMillis(pending.attempt()) * 1_000_000L;
        if (retry(pending, readyAt)) nextFetchAt = now;
      }
      case PERSISTENT -> losePatience(outcome + " for " + url);
      case REFUSED -> givenUp = true;
    }

    CrawlRecord record = new CrawlRecord(url, now, outcome, status, result.durationMillis(), contentType,
        length, digest, redirectTo, canonical, noindex, nofollow, etag, lastModified, nextFetchAt,
        duplicateOf, simhash);
    // The log first: a request made is always in the log (the audit's evidence), even when the store
    // or the log then fails; after a crash in between, the next run fetches the URL again.
    log(new CrawlAction(result.startedAt(), CrawlAction.Kind.PAGE, url, outcome, status, contentType,
        Math.max(length, 0), result.durationMillis(), redirectTo, digest, pending.attempt(),
        politeness.delayMillis(), duplicateOf.map(first -> "duplicate of " + first).or(() -> reasonOf(result))));
    ctx.store().record(record, discovered);
    if (result instanceof FetchResult.Response response) tellListener(response, candidate, outcome, discovered);
    wakeOtherOrigins(discovered);
  }

  /**
   * Whether a content outcome is a body the URL serves as itself, complete: the ones an exact
   * duplicate is looked for in. Not a cut body (its digest is of a prefix) nor a page naming another
   * canonical URL (that one is the original, and must not become a duplicate of its copy).
   */
  private static boolean isWholeOwnBody(Outcome outcome) {
    return outcome == Outcome.FETCHED || outcome == Outcome.NOINDEX || outcome == Outcome.UNSUPPORTED_CONTENT_TYPE;
  }

  private void tellListener(FetchResult.Response response, DueCandidate candidate, Outcome outcome,
      List<Candidate> discovered) {
    try {
      ctx.pageListener().onPage(new FetchedPage(response.url(), candidate.depth(), outcome, response.status(),
          response.headers(), response.body(), discovered.stream().map(Candidate::url).toList()));
    } catch (RuntimeException e) {
      Notice.println("forager: the page listener failed on " + response.url() + ": " + e);
    }
  }

  /** Queues a retry when attempts are left; otherwise the failure costs a patience point. */
  private boolean retry(Pending pending, long readyAt) {
    if (pending.attempt() <= ctx.config().limits().maxRetries()) {
      retries.add(new Retry(new Pending(pending.candidate(), pending.attempt() + 1), readyAt));
      return true;
    }
    losePatience("gave up on " + pending.candidate().url() + " after " + pending.attempt() + " attempts");
    return false;
  }

  private long backoffMillis(int failures) {
    long base = Math.max(politeness.delayMillis(), MIN_RETRY_BACKOFF_MILLIS);
    long backoff = base << Math.min(failures - 1, 20);
    return Math.min(backoff, Math.max(settings.politeness().maxDelay().toMillis(), base));
  }

  private void losePatience(String why) {
    patience--;
    if (patience <= 0 && !givenUp) {
      givenUp = true;
      Notice.printf("forager: %s: out of patience (last: %s); giving up on it for this run%n", origin, why);
    }
  }

  private void offer(List<Candidate> discovered, String url, int depth, String from) {
    if (ctx.gatekeeper().isCandidate(url, depth)) {
      discovered.add(new Candidate(url, depth, Optional.of(from)));
    }
  }

  private void wakeOtherOrigins(List<Candidate> discovered) {
    Set<Origin> others = null;
    for (Candidate c : discovered) {
      if (origin.contains(c.url())) continue;
      if (others == null) others = new HashSet<>();
      others.add(Origin.ofUrl(c.url()));
    }
    if (others != null) others.forEach(ctx.wake());
  }

  private CrawlAction action(FetchResult result, CrawlAction.Kind kind, Outcome outcome,
      Optional<String> location, int attempt, Optional<String> reason) {
    int status = 0;
    Optional<String> contentType = Optional.empty();
    Optional<String> digest = Optional.empty();
    long bytes = 0;
    if (result instanceof FetchResult.Response r) {
      status = r.status();
      contentType = r.header("Content-Type");
      digest = Optional.of(Digests.sha1Base32(r.body()));
      bytes = r.body().length;
    }
    return new CrawlAction(result.startedAt(), kind, result.url(), outcome, status, contentType, bytes,
        result.durationMillis(), location, digest, attempt, politeness.delayMillis(),
        reason.or(() -> reasonOf(result)));
  }

  /** What the log says of a fetch that failed (kind and message) or whose body was cut (why). */
  private static Optional<String> reasonOf(FetchResult result) {
    return switch (result) {
      case FetchResult.Failure f -> Optional.of(f.kind().name().toLowerCase(java.util.Locale.ROOT) + ": " + f.message());
      case FetchResult.Response r -> r.truncation().map(FetchResult.Truncation::label);
    };
  }

  private void log(CrawlAction action) {
    ctx.log().write(action);
    ctx.summary().count(action);
    ctx.listener().action(action);
  }
}
