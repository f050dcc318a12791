package org.forager.crawl;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
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
  /**
   * How long an origin waits for the rules of the origin its robots.txt redirects to; then it is put
   * off to a later run (its rules unknown, nothing of it may be fetched).
   */
  static final long MAX_AWAIT_NANOS = TimeUnit.MINUTES.toNanos(5);
  /** How often a waiting origin looks for them (a map read, and a store read of the target's state). */
  static final long AWAIT_LOOK_NANOS = TimeUnit.SECONDS.toNanos(1);

  private RobotsRules rules;
  private Instant expiresAt = Instant.EPOCH;
  private OriginState.RobotsTxt stored;
  private int failures;
  /** The origin whose robots.txt this one's redirects to, while its rules are awaited; else null. */
  private Origin awaited;
  private long awaitedSince;

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

  /** A new chance after a continuous crawl's rest. */
  void rested() {
    failures = 0;
  }

  /**
   * Uses a fetched (or stored) robots.txt; its Crawl-delay becomes part of the origin's delay. Origins
   * whose robots.txt redirects here are told ({@link BorrowedRobots}).
   */
  void use(OriginState.RobotsTxt txt) {
    CrawlContext ctx = session.ctx;
    stored = txt;
    rules = RobotsRules.of(txt, session.origin.robotsTxtUrl(), ctx.config().productToken());
    expiresAt = txt.expiresAt();
    if (rules.isReachable()) session.politeness.crawlDelay(rules.crawlDelay());
    ctx.network().borrowedRobots().read(session.origin, txt);
  }

  /** Whether the origin waits for the rules of the origin its robots.txt redirects to. */
  boolean awaitingOther() {
    return awaited != null;
  }

  /**
   * While {@link #awaitingOther}: takes the other origin's rules once its own turn has read them and
   * returns empty; returns empty too once the wait is over (the origin given up); else when to look
   * again ({@link System#nanoTime}). No request of this origin's meanwhile: its rules are unknown.
   */
  OptionalLong awaitOther() {
    CrawlContext ctx = session.ctx;
    Optional<OriginState.RobotsTxt> theirs = ctx.network().borrowedRobots().rulesOf(awaited, ctx.clock().instant());
    if (theirs.isPresent()) {
      adopt(theirs.get());
      return OptionalLong.empty();
    }
    if (System.nanoTime() - awaitedSince < MAX_AWAIT_NANOS) return OptionalLong.of(System.nanoTime() + AWAIT_LOOK_NANOS);
    Origin target = awaited;
    awaited = null;
    session.giveUp();
    Notice.printf("forager: %s: its robots.txt redirects to %s, whose robots.txt was not read within %d minutes;"
        + " %s", session.origin, target.robotsTxtUrl(), TimeUnit.NANOSECONDS.toMinutes(MAX_AWAIT_NANOS),
        ctx.run().continuous() ? session.putOff() : "putting the origin off to a later run");
    return OptionalLong.empty();
  }

  /** The awaited origin's robots.txt becomes this origin's (RFC 9309 section 2.3.1.2). */
  private void adopt(OriginState.RobotsTxt theirs) {
    awaited = null;
    use(theirs);
    failures = 0;
    checkCrawlDelay();
  }

  /**
   * The chain ended at {@code target}'s robots.txt, not requested from this turn: its rules are this
   * origin's. Taken at once when known (read in this run, or in force in the store); else the origin
   * waits while {@code target}'s turn reads them: its root is offered like a redirect's target, so that
   * the target is crawled (robots.txt first). A target this run does not crawl (past scope.max_origins,
   * say) has no rules to give: the file counts as unavailable (allow all), as before.
   */
  private void rulesOf(Origin target, String redirect) {
    CrawlContext ctx = session.ctx;
    BorrowedRobots board = ctx.network().borrowedRobots();
    board.await(target);
    awaited = target;
    awaitedSince = System.nanoTime();
    Optional<OriginState.RobotsTxt> theirs = board.rulesOf(target, ctx.clock().instant());
    if (theirs.isPresent()) {
      adopt(theirs.get());
      return;
    }
    String root = target + "/";
    int hops = ctx.policy().gatekeeper().scope().hopsTo(root, 0);
    List<Candidate> admitted = ctx.policy().gatekeeper().isCandidate(root, 1, hops)
        ? ctx.run().origins().admit(session.origin, List.of(new Candidate(root, 1, Optional.of(redirect), hops,
            ctx.policy().ranking())))
        : List.of();
    if (admitted.isEmpty()) {
      awaited = null;
      session.log(session.refusal(CrawlAction.Kind.ROBOTS, target.robotsTxtUrl(), new Verdict.Rejected(
          Outcome.BLOCKED_URL_BY_LOCAL_POLICY, "robots.txt redirect to an origin this crawl does not take on: no"
          + " rules to read, unavailable (RFC 9309 2.3.1.3)"), failures + 1));
      Instant now = ctx.clock().instant();
      use(new OriginState.RobotsTxt(404, new byte[0], now, now.plus(ctx.config().robots().cacheTtl())));
      failures = 0;
      return;
    }
    // A new root puts the target on the agenda; a known one leaves it to the URLs it has due (a target
    // with none and no rules in force is not crawled in this run: the wait ends, the origin put off).
    ctx.store().addCandidates(admitted);
    session.wakeOtherOrigins(admitted);
  }

  /** Fetches robots.txt: this turn's request (with its redirects). */
  void fetch() {
    CrawlContext ctx = session.ctx;
    // Every hop goes to the origin's host, so to the address whose slot is held; between hops both the
    // origin's delay and the address's are owed. A redirect is a request like any other: its response
    // time counts toward the origin's delay before the next hop, as the log then says of it.
    List<Long> delayAfterRedirect = new ArrayList<>();
    RobotsFetcher.Result result = ctx.network().robotsFetcher().fetch(session.origin, redirect -> {
      session.politeness.responseTime(redirect.durationMillis());
      delayAfterRedirect.add(session.politeness.delayMillis());
      return Math.max(session.politeness.delayMillis(), ctx.network().ipGate().minDelayMillis());
    }, session.requestAddress());
    if (result.hops().isEmpty()) {
      // Local policy refuses the origin's own robots.txt: without its rules nothing may be fetched.
      RobotsFetcher.Refusal refusal = result.refused().orElseThrow();
      session.log(session.refusal(CrawlAction.Kind.ROBOTS, refusal.url(), refusal.verdict(), 1));
      session.giveUp();
      return;
    }
    List<FetchResult> hops = result.hops();
    boolean outage = session.requestEnded(hops.getLast());
    if (result.rulesOf().isEmpty()) use(result.robotsTxt());
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
          : note(hop);
      session.log(session.action(hop, CrawlAction.Kind.ROBOTS, outcome, location, attempt, note, delay)
          .withRetryAfter(session.isOwnUrl(hop.url()) ? c.retryAfter() : Optional.empty()));
    }
    if (result.rulesOf().isPresent()) {
      rulesOf(result.rulesOf().get(), hops.getLast().url());
      return;
    }
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
