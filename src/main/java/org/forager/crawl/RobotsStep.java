package org.forager.crawl;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.crawl.Classification.Feedback;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Outcome;
import org.forager.policy.Verdict;
import org.forager.record.CrawlAction;
import org.forager.robots.RobotsFetcher;
import org.forager.robots.RobotsRules;
import org.forager.store.Candidate;
import org.forager.store.OriginState;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;

/**
 * The origin's robots.txt (DESIGN.md, the crawl loop's first step): its rules as last fetched, when
 * they expire, and the fetch itself, retried like a page when the file is unreachable. Confined to
 * the origin's turns; not thread-safe.
 */
final class RobotsStep {

  private final OriginSession session;
  private RobotsRules rules;
  private Instant expiresAt = Instant.EPOCH;
  private OriginState.RobotsTxt stored;
  /** What the rules in use hold of {@link RobotsMemory}; given back from another thread when a fleet drops the origin. */
  private final java.util.concurrent.atomic.AtomicLong heldCost = new java.util.concurrent.atomic.AtomicLong();
  private int failures;
  /** The origin whose robots.txt this one's redirects to, while its rules are awaited; else null. */
  private Origin awaited;
  /** Whether the fetch under way has logged its requests' lines (an internal error then adds none). */
  private boolean loggedHops;

  RobotsStep(OriginSession session) {
    this.session = session;
  }

  /** Whether robots.txt must be fetched before any page: missing, expired, or last unreachable. */
  boolean needed(Instant now) {
    return rules == null || !rules.isReachable() || !now.isBefore(expiresAt);
  }

  /** The rules in force; only after {@link #needed} said no. */
  RobotsRules rules() {
    return rules;
  }

  /** The file as last fetched, to keep for the next run. */
  Optional<OriginState.RobotsTxt> stored() {
    return Optional.ofNullable(stored);
  }

  /** The origin leaves the working set: what its rules held of {@link RobotsMemory} is given back. */
  void release() {
    session.ctx.network().robotsMemory().take(-heldCost.getAndSet(0));
  }

  /** A new chance after a continuous crawl's rest. */
  void rested() {
    failures = 0;
  }

  /**
   * Uses a fetched (or stored) robots.txt; its Crawl-delay becomes part of the origin's delay. A large
   * file whose rules the heap cannot hold now ({@link RobotsMemory}) is not used: the origin is put off
   * to a later run, with its URLs, and keeps the rules it had.
   */
  boolean use(OriginState.RobotsTxt txt) {
    CrawlContext ctx = session.ctx;
    long cost = RobotsMemory.cost(txt);
    if (!ctx.network().robotsMemory().take(cost - heldCost.get())) {
      session.giveUp();
      String line = String.format("forager: %s: its robots.txt of %,d KiB would take more of the heap than the"
          + " active origins' large robots.txt files may hold now (an eighth of it); %s", session.origin,
          txt.body().length / 1024, ctx.run().continuous() ? session.putOff() : "putting the origin off to a later run");
      if (ctx.network().robotsMemory().nameNext()) Notice.println(line);
      else ctx.outputs().summary().note(line.substring("forager: ".length()));
      return false;
    }
    heldCost.set(cost);
    // Parsed first: a file the parser fails on is not kept (saved, it would fail every later run's load).
    rules = RobotsRules.of(txt, session.origin.robotsTxtUrl(), ctx.config().productToken());
    stored = txt;
    expiresAt = txt.expiresAt();
    if (rules.isReachable()) session.politeness.crawlDelay(rules.crawlDelay());
    return true;
  }

  /** Whether the rules in force were read: not missing, not unreachable (expired or not). */
  boolean hasRules() {
    return rules != null && rules.isReachable();
  }

  /**
   * Whether the origin waits for the rules of the origin its robots.txt redirects to: since its last
   * robots.txt fetch, or, taken up again, as the crawl's {@link BorrowedRobots} remembers.
   */
  boolean awaitingOther() {
    if (awaited == null) awaited = session.ctx.network().borrowedRobots().targetOf(session.origin).orElse(null);
    return awaited != null;
  }

  /**
   * While {@link #awaitingOther}: takes the other origin's rules once its turn has them in the store
   * and returns true; gives the origin up (no rules: nothing may be fetched) when that turn ended
   * without them, and returns true; returns false while they are still to come (the origin leaves the
   * working set, and is woken when that turn is over). Sends nothing.
   */
  boolean awaitOther() {
    CrawlContext ctx = session.ctx;
    BorrowedRobots board = ctx.network().borrowedRobots();
    Optional<OriginState.RobotsTxt> theirs = board.rulesOf(awaited, ctx.clock().instant());
    if (theirs.isPresent()) {
      adopt(theirs.get());
      return true;
    }
    if (!board.failed(awaited)) return false;
    Origin target = awaited;
    stopWaiting();
    session.giveUp();
    Notice.printf("forager: %s: its robots.txt redirects to %s, which could not be read; %s", session.origin,
        target.robotsTxtUrl(), ctx.run().continuous() ? session.putOff() : "putting the origin off to a later run");
    return true;
  }

  /** The awaited origin's robots.txt becomes this origin's (RFC 9309 section 2.3.1.2). */
  private void adopt(OriginState.RobotsTxt theirs) {
    stopWaiting();
    if (!use(theirs)) return;
    failures = 0;
    checkCrawlDelay();
  }

  private void stopWaiting() {
    session.ctx.network().borrowedRobots().done(session.origin);
    awaited = null;
  }

  /**
   * The chain ended at {@code target}'s robots.txt, not requested from this turn: its rules are this
   * origin's. Taken at once when the target's store has them; else the origin waits for the target's
   * turn, which is taken up for it (its root offered like a redirect's target, so that a target in
   * scope but unknown to the crawl is crawled at all). A loop of such redirects, or a target this run
   * does not take on (past scope.max_origins, or outside the seeds' domains for an origin outside them
   * too), has no rules to give: the file counts as unavailable (allow all), as past the redirect limit.
   */
  private void rulesOf(Origin target, String redirect) {
    CrawlContext ctx = session.ctx;
    BorrowedRobots board = ctx.network().borrowedRobots();
    Optional<OriginState.RobotsTxt> theirs = board.rulesOf(target, ctx.clock().instant());
    if (theirs.isPresent()) {
      adopt(theirs.get());
      return;
    }
    String root = target + "/";
    var scope = ctx.policy().gatekeeper().scope();
    // Hops from this origin: known only inside the seeds' domains (0); a target outside them, reached
    // from an origin outside them too, would be one hop further than this origin's unknown count.
    boolean reachable = scope.contains(root) || scope.contains(session.origin + "/");
    int hops = scope.hopsTo(root, 0);
    List<Candidate> admitted = reachable && ctx.policy().gatekeeper().isCandidate(root, 0, hops)
        ? ctx.run().origins().admit(session.origin, List.of(new Candidate(root, 0, Optional.of(redirect), hops,
            ctx.policy().ranking())))
        : List.of();
    BorrowedRobots.Start start = admitted.isEmpty() ? null : board.await(session.origin, target);
    if (start == BorrowedRobots.Start.WAITING) {
      awaited = target;
      ctx.store().addCandidates(admitted);
      return;
    }
    if (start == BorrowedRobots.Start.FAILED) {
      awaited = target;
      awaitOther(); // gives the origin up, saying why
      return;
    }
    if (start == BorrowedRobots.Start.FULL) {
      // No place to wait in: put off to a later run, counted for the summary (no line each: there are many).
      session.giveUp();
      board.overflowed();
      return;
    }
    String why = start == null ? "an origin this crawl does not take on"
        : "an origin whose robots.txt redirects back, a loop";
    session.log(session.refusal(CrawlAction.Kind.ROBOTS, target.robotsTxtUrl(), new Verdict.Rejected(
        Outcome.BLOCKED_URL_BY_LOCAL_POLICY, "robots.txt redirect to " + why + ": no rules to read, unavailable"
        + " (RFC 9309 2.3.1.2)"), failures + 1));
    Instant now = ctx.clock().instant();
    use(new OriginState.RobotsTxt(404, new byte[0], now, now.plus(ctx.config().robots().cacheTtl())));
    failures = 0;
  }

  /**
   * Fetches robots.txt: this turn's request (with its redirects). An error or exception the crawl
   * survives ({@link InternalErrors}) while it is fetched or read leaves the origin with no rules: its
   * request is logged INTERNAL_ERROR (unless its lines were logged already) and the origin is put off
   * to a later run, as when robots.txt cannot be reached (the next run fetches it again: one request a
   * run).
   */
  void fetch() {
    loggedHops = false;
    try {
      session.requestStarting();
      fetchUnguarded();
    } catch (RuntimeException | Error e) {
      if (!session.ctx.run().internalErrors().containable(e)) throw e;
      failed(e);
    }
  }

  private void failed(Throwable e) {
    String url = session.origin.robotsTxtUrl();
    if (!loggedHops) session.log(session.failedRequest(CrawlAction.Kind.ROBOTS, url, failures + 1, Optional.empty(), e));
    session.giveUp();
    CrawlContext ctx = session.ctx;
    ctx.run().internalErrors().contained(url, "no rules read; " + (ctx.run().continuous() ? session.putOff()
        : "putting the origin off to a later run"), e);
  }

  private void fetchUnguarded() {
    CrawlContext ctx = session.ctx;
    // Every hop goes to the origin's host, so to the address whose slot is held; between hops both the
    // origin's delay and the address's are owed. A redirect is a request like any other: its response
    // time counts toward the origin's delay before the next hop, as the log then says of it.
    List<Long> delayAfterRedirect = new ArrayList<>();
    RobotsFetcher.Result result = ctx.network().robotsFetcher().fetch(session.origin, redirect -> {
      session.politeness.responseTime(redirect.durationMillis());
      delayAfterRedirect.add(session.politeness.delayMillis());
      // The domain's delay too, when its hosts are one unit (sites rule unit: domain): its slot is held.
      long unit = session.settings.domainUnit().map(u -> u.minDelay().toMillis()).orElse(0L);
      return Math.max(Math.max(session.politeness.delayMillis(), ctx.network().ipGate().minDelayMillis()), unit);
    }, session.requestAddress());
    if (result.hops().isEmpty()) {
      // Local policy refuses the origin's own robots.txt: without its rules nothing may be fetched.
      session.requestNotSent();
      RobotsFetcher.Refusal refusal = result.refused().orElseThrow();
      session.log(session.refusal(CrawlAction.Kind.ROBOTS, refusal.url(), refusal.verdict(), 1));
      session.giveUp();
      return;
    }
    List<FetchResult> hops = result.hops();
    boolean outage = session.requestEnded(hops.getLast());
    boolean held = result.rulesOf().isPresent() || use(result.robotsTxt());
    int attempt = failures + 1;
    Classification last = null;
    // Logged once the delay reflects this fetch (Crawl-delay included), as the audit reads it; a
    // redirect with the delay its next hop waited.
    for (int i = 0; i < hops.size(); i++) {
      FetchResult hop = hops.get(i);
      long delay = i < delayAfterRedirect.size() ? delayAfterRedirect.get(i) : session.politeness.delayMillis();
      Classification c = ctx.policy().classifier().classify(hop);
      last = c;
      // The origin's own address refused: nothing of it can be fetched. A redirect hop refused only
      // makes the file unavailable (RobotsFetcher).
      if (c.feedback() == Feedback.REFUSED && i == 0) {
        session.giveUp();
        // A seed whose name does not exist ends without a word otherwise: the summary's notes name it.
        if (hop instanceof FetchResult.Failure f && f.kind() == FetchResult.FailureKind.NO_SUCH_HOST) {
          ctx.outputs().summary().note(session.origin + ": no such host (" + f.message() + "); nothing of it crawled");
        }
      }
      Optional<String> location = c.location().flatMap(l -> UrlNormalizer.resolve(hop.url(), l));
      if (hop instanceof FetchResult.Response r) ctx.outputs().warc().write(r);
      // A file cut short (deadline, reset) reads as unreachable (RobotsFetcher): logged TRUNCATED, as a
      // page's cut body is, not FETCHED, so that the log (and the audit) say no rules came of it.
      Outcome outcome = i == hops.size() - 1 && rules != null && !rules.isReachable() && hop instanceof FetchResult.Response r
          && r.truncated() && c.outcome() == Outcome.FETCHED ? Outcome.TRUNCATED : c.outcome();
      // The wait is logged where the crawl keeps it: the origin's own hops (a redirect's target elsewhere
      // asked it of its own origin, which this turn does not hold).
      Optional<String> note = i == hops.size() - 1 && result.rulesOf().isPresent()
          ? Optional.of("robots.txt of " + result.rulesOf().get() + ": its rules are this origin's (RFC 9309 2.3.1.2),"
              + " read in that origin's own turn")
          : !held && i == hops.size() - 1 ? Optional.of("rules not held: the active origins' large robots.txt"
              + " files take the heap's share for them; the origin is put off to a later run") : note(hop);
      session.log(session.action(hop, CrawlAction.Kind.ROBOTS, outcome, location, attempt, note, delay)
          .withRetryAfter(session.isOwnUrl(hop.url()) ? c.retryAfter() : Optional.empty()));
      loggedHops = true;
    }
    if (result.rulesOf().isPresent()) {
      rulesOf(result.rulesOf().get(), hops.getLast().url());
      return;
    }
    if (!held) return; // put off (use): nothing of the origin is fetched in this run
    result.refused().ifPresent(r ->
        session.log(session.refusal(CrawlAction.Kind.ROBOTS, r.url(), r.verdict(), attempt)));
    // A 429 (or a 503 with Retry-After) on robots.txt paces the origin as on a page: the delay at least
    // doubles, and no request (the retry of robots.txt included) comes before the Retry-After.
    if (last.feedback() == Feedback.RATE_LIMITED) {
      session.politeness.rateLimited();
      if (last.retryAfter().isPresent() && session.waitAsAsked(last.retryAfter().get(), ctx.clock().instant())) return;
    }
    if (rules.isReachable()) {
      failures = 0;
      checkCrawlDelay();
    } else if (outage) {
      // The crawler's network is down, not the site: tried again once it is back, as if not tried.
      session.notBefore(session.lastRequestEnd() + session.backoffMillis(failures + 1) * 1_000_000L);
    } else if (attempt > ctx.config().limits().maxRetries()) {
      // Retried like a page (limits.max_retries, growing delay); without robots.txt nothing may be
      // fetched, so the origin waits for a later run.
      session.giveUp();
      Notice.printf("forager: %s: robots.txt unreachable after %d attempts; %s", session.origin, attempt,
          ctx.run().continuous() ? session.putOff() : "putting the origin off to a later run");
    } else {
      failures++;
      session.notBefore(session.lastRequestEnd() + session.backoffMillis(failures) * 1_000_000L);
    }
  }

  /** RFC 9309 reads 401 and 403 on robots.txt as "unavailable" (allow all): said in the log. */
  private static Optional<String> note(FetchResult hop) {
    return hop instanceof FetchResult.Response r && (r.status() == 401 || r.status() == 403)
        ? Optional.of("robots.txt access denied (" + r.status() + "): no rules, everything allowed (RFC 9309 2.3.1.3)")
        : Optional.empty();
  }

  /**
   * A Crawl-delay above politeness.max_crawl_delay is not cut down (that would be faster than the
   * site asked): the origin is put off to a later run instead.
   */
  private void checkCrawlDelay() {
    Optional<Duration> asked = rules.crawlDelay();
    Duration ceiling = session.settings.politeness().maxCrawlDelay();
    if (asked.isPresent() && asked.get().compareTo(ceiling) > 0) {
      session.giveUp();
      Notice.printf("forager: %s asks for a Crawl-delay of %d s, more than politeness.max_crawl_delay (%d s); %s",
          session.origin, asked.get().toSeconds(), ceiling.toSeconds(),
          session.ctx.run().continuous() ? session.putOff() : "putting it off to a later run");
    }
  }
}
