package org.forager.crawl;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.forager.config.Sites;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Outcome;
import org.forager.frontier.Slots;
import org.forager.frontier.OriginTask;
import org.forager.policy.Verdict;
import org.forager.record.CrawlAction;
import org.forager.store.Candidate;
import org.forager.url.Origin;
import org.forager.warc.Digests;

/**
 * What the steps of one origin's crawl share during a run: its politeness, when its next request may
 * start, the IP address slot its request holds, its patience, and the crawl log. The steps ({@link RobotsStep}, {@link SitemapStep}, {@link
 * PageStep}) each make at most one request a turn and report it here.
 *
 * <p>Confined to the origin's turns (see {@link org.forager.frontier.OriginTask}); not thread-safe.
 */
final class OriginSession {

  static final int INITIAL_PATIENCE = 5;
  private static final long MIN_RETRY_BACKOFF_MILLIS = 100;

  final Origin origin;
  /** {@code scheme://host[:port]/}: how the origin's own URLs start. */
  private final String ownUrlPrefix;
  final CrawlContext ctx;
  /** This origin's politeness settings and page limit: the {@code sites} rules over the global values. */
  final Sites.Settings settings;
  final OriginPoliteness politeness;
  /** The origin's URLs crawled lately: links to them skip the store. */
  final CrawledUrls crawled = new CrawledUrls();
  private boolean requested;
  private long lastRequestEnd;
  /** Whether this turn's request is on its way: from {@link #requestStarting} until it ended. */
  private boolean requestOpen;
  /** When this turn's request started, by the wall clock (as the crawl log says) and {@link System#nanoTime()}. */
  private java.time.Instant requestStartedAt = java.time.Instant.EPOCH;
  private long requestStartNanos;
  /** The per-IP slot this turn's request holds, if it holds one, and its address. */
  private Slots.Slot ipSlot;
  private InetAddress ipSlotAddress;
  /** The slot of the origin's domain, when a sites rule makes the domain one unit and this turn holds it. */
  private Slots.Slot domainSlot;
  /** The address of this turn's (or the last) request, when its host resolved. */
  private Optional<InetAddress> requestAddress = Optional.empty();
  private long notBefore;
  private int patience = INITIAL_PATIENCE;
  private boolean givenUp;
  private java.time.Instant restAtLeastUntil;
  /** Consecutive 401, 403 and 451 answers: a site that denies everything runs out of patience. */
  private int deniedInARow;
  /** The end of the last wait the site asked for (Retry-After), or null. */
  private java.time.Instant waitUntil;
  private int rateLimitedInARow;
  /** Outcomes of lines that made no request (the politeness audit's reading). */
  private static final java.util.Set<Outcome> SENT_NOTHING = java.util.EnumSet.of(Outcome.OUT_OF_SCOPE,
      Outcome.BLOCKED_BY_ROBOTS_TXT, Outcome.BLOCKED_URL_BY_LOCAL_POLICY, Outcome.BLOCKED_BY_NETWORK_POLICY);
  /** What the store holds of the origin's delay and wait ({@link #politenessStored}). */
  private long storedDelayMillis;
  private java.time.Instant storedWaitUntil;
  private Runnable savePoliteness = () -> {};
  /** Rate-limited answers in a row that cost no patience. */
  static final int RATE_LIMITED_FREE = 2;

  OriginSession(Origin origin, CrawlContext ctx) {
    this.origin = origin;
    this.ownUrlPrefix = origin + "/";
    this.ctx = ctx;
    this.settings = ctx.config().siteSettings(origin);
    this.politeness = new OriginPoliteness(settings.politeness());
  }

  // --- time

  /**
   * A request of the origin ended now, with {@code result} (the last hop's, for a chain of redirects):
   * the delay counts from here, the origin's and its IP address's (whose slot is released). Returns
   * whether the crawl holds for an outage of its own network ({@link NetworkHealth}): a failure then
   * is the network's, not the URL's.
   */
  boolean requestEnded(FetchResult result) {
    requestOpen = false;
    requested = true;
    lastRequestEnd = System.nanoTime();
    // A robots.txt redirect's hop to another host went to an address of its own: it says nothing of
    // this origin's address or name.
    boolean own = isOwnUrl(result.url());
    InetAddress address = own && ipSlot != null ? ipSlotAddress : null;
    // An address that took no connection: the host's next request tries its next address, if it has one.
    if (result instanceof FetchResult.Failure f && f.unconnected() && address != null) {
      ctx.network().ipGate().addresses().unreachable(address, origin.port());
    }
    releaseIpSlot(true);
    politeness.responseTime(result.durationMillis());
    if (!own) return ctx.network().health().down();
    return ctx.network().health().observe(address == null ? null : new InetSocketAddress(address, origin.port()),
        origin.host(), result);
  }

  /**
   * This turn's request is about to be sent (a page's, robots.txt's with its redirects, a sitemap's):
   * should the crawler fail on it before it is logged, {@link #failedRequest} logs it from here.
   */
  void requestStarting() {
    requestOpen = true;
    requestStartedAt = java.time.Instant.now();
    requestStartNanos = System.nanoTime();
  }

  /** The request {@link #requestStarting} announced was not sent after all (a gate refused it). */
  void requestNotSent() {
    requestOpen = false;
  }

  /**
   * The log line of this turn's request, which the crawler failed on ({@link InternalErrors}) before
   * its own line was logged: outcome INTERNAL_ERROR, what came back when the fetch returned ({@code
   * result}), else the time from {@link #requestStarting}, when the request's slots were held already, to
   * its end: when a fetch that threw ends, now, as {@link #requestEnded} would have ended it (the
   * origin's delay and its address's count from here, and the slots are free from here).
   */
  CrawlAction failedRequest(CrawlAction.Kind kind, String url, int attempt, Optional<FetchResult> result, Throwable e) {
    requestOver();
    Optional<String> reason = Optional.of(InternalErrors.reason(e));
    if (result.isPresent()) {
      return action(result.get(), kind, Outcome.INTERNAL_ERROR, Optional.empty(), attempt, reason);
    }
    // In whole milliseconds cut down, as a fetch's: a later end than the request's would overlap the next
    // request to its address (the audit allows for the cut, not for more).
    long durationMillis = Math.max(0, (lastRequestEnd - requestStartNanos) / 1_000_000L);
    return new CrawlAction(requestStartedAt, kind, url, Outcome.INTERNAL_ERROR, 0, Optional.empty(), 0, durationMillis,
        Optional.empty(), Optional.empty(), attempt, politeness.delayMillis(), reason, 0,
        requestAddress.map(InetAddress::getHostAddress));
  }

  /**
   * The turn is done with its request, however its step ended (returned or threw): a request still on
   * its way (its fetch threw, or what followed it before {@link #requestEnded}) ends now, with {@link
   * #requestEnded}'s bookkeeping: a request sent is a request, whatever the crawler made of it, so the
   * origin's delay and its address's count from here. The slots are given back, unused when no request
   * was sent; nothing when they are back already. Every step's caller ends so, on every path: a slot
   * handed back as unused after its request went out let the next request to the address go at once.
   */
  void requestOver() {
    if (!requestOpen) {
      releaseIpSlot(false);
      return;
    }
    requestOpen = false;
    requested = true;
    lastRequestEnd = System.nanoTime();
    releaseIpSlot(true);
  }

  /** Whether {@code url} (normalized) is of this origin. */
  boolean isOwnUrl(String url) {
    return url.startsWith(ownUrlPrefix);
  }

  // --- the IP address

  /**
   * Takes the slot of the address this turn's request will go to, for {@code task}: empty when the
   * request may go (with the slot, or without one when the host has no address: the fetch then fails
   * as it would have), or the time ({@link System#nanoTime()}) to come back when the address is busy
   * or its delay runs, or while the crawl holds for an outage of its own network ({@link NetworkHealth});
   * the task is woken sooner when a slot comes free.
   */
  OptionalLong takeIpSlot(OriginTask task) {
    releaseIpSlot(false);
    // The crawler's network is down: requests wait, but for one now and then that tries it (this one,
    // when it is its time: taken here, just before a request, so that no turn sending none uses it up).
    NetworkHealth health = ctx.network().health();
    if (!health.mayRequest()) return OptionalLong.of(health.nextProbeAt());
    requestAddress = ctx.network().ipGate().address(origin);
    // A domain crawled as one unit (sites rule unit: domain): its slot first, then the address's.
    Optional<FleetAddresses> fleet = ctx.network().ipGate().fleet();
    if (settings.domainUnit().isPresent()) {
      Sites.DomainUnit unit = settings.domainUnit().get();
      switch (ctx.network().domainSlots().take(unit.domain(), task, unit.minDelay().toNanos())) {
        case Slots.Slot slot -> domainSlot = slot;
        case Slots.Wait wait -> {
          // Woken for the address's free slot, this task does not take it: the next one waiting for it may.
          requestAddress.ifPresent(ctx.network().ipGate().slots()::passOn);
          return OptionalLong.of(wait.readyAt());
        }
      }
      // In a fleet the unit is the whole fleet's: another process may hold the domain's lease.
      OptionalLong domainWait = fleet.isPresent()
          ? fleet.get().domainWait(unit.domain(), unit.minDelay().toNanos()) : OptionalLong.empty();
      if (domainWait.isPresent()) {
        releaseIpSlot(false);
        requestAddress.ifPresent(ctx.network().ipGate().slots()::passOn);
        return domainWait;
      }
    }
    if (requestAddress.isEmpty()) return OptionalLong.empty();
    if (fleet.isPresent() && !fleet.get().mayRequest(requestAddress.get())) {
      // Another process of the fleet holds the address: its origins wait, whichever process leased them.
      releaseIpSlot(false);
      return OptionalLong.of(System.nanoTime() + fleet.get().recheckNanos());
    }
    return switch (ctx.network().ipGate().slots().take(requestAddress.get(), task)) {
      case Slots.Slot slot -> {
        ipSlot = slot;
        ipSlotAddress = requestAddress.get();
        yield OptionalLong.empty();
      }
      case Slots.Wait wait -> {
        releaseIpSlot(false); // the domain's slot, unused
        yield OptionalLong.of(wait.readyAt());
      }
    };
  }

  /**
   * Hands the slots back (the address's, and the domain's when the origin's domain is one unit): after
   * the request ended ({@code requested}), or unused when the turn made none after all. Nothing when
   * none is held.
   */
  void releaseIpSlot(boolean requested) {
    if (domainSlot != null) {
      Slots.Slot slot = domainSlot;
      domainSlot = null;
      slot.release(requested);
    }
    if (ipSlot == null) return;
    Slots.Slot slot = ipSlot;
    ipSlot = null;
    slot.release(requested);
  }

  /** The address this turn's request must connect to: the one its slot was taken for. */
  Optional<InetAddress> requestAddress() {
    return ipSlot == null ? Optional.empty() : Optional.of(ipSlotAddress);
  }

  /** The address the last request went to, for the log: the slot's, else the one connected to. */
  private Optional<String> ipOf(FetchResult result) {
    Optional<String> connected = result instanceof FetchResult.Response r ? r.remoteAddress() : Optional.empty();
    return requestAddress.map(InetAddress::getHostAddress).or(() -> connected);
  }

  /** When the last request ended ({@link System#nanoTime()}). */
  long lastRequestEnd() {
    return lastRequestEnd;
  }

  /** No request before {@code nanos} ({@link System#nanoTime()}), whatever the delay says. */
  void notBefore(long nanos) {
    notBefore = Math.max(notBefore, nanos);
  }

  long notBefore() {
    return notBefore;
  }

  /** The end of the wait the site last asked for, while it is ahead of {@code now}: what the next run keeps. */
  Optional<java.time.Instant> waitUntil(java.time.Instant now) {
    return Optional.ofNullable(waitUntil).filter(now::isBefore);
  }

  /**
   * A wait an earlier run was asked for and that is not over: nothing is sent before its end, and an end
   * further than politeness.max_retry_after puts the origin off again (a run started at once after one
   * that was asked for two hours sent three requests 20 s later: the attacker review).
   */
  void resumeWait(java.time.Instant until, java.time.Instant now) {
    if (!until.isAfter(now)) return;
    waitUntil = until;
    java.time.Duration left = java.time.Duration.between(now, until);
    if (left.compareTo(settings.politeness().maxRetryAfter()) > 0) {
      giveUpUntil(until);
      Notice.printf("forager: %s asked to wait until %s (Retry-After), more than politeness.max_retry_after from"
          + " now; %s", origin, until, ctx.run().continuous() ? putOff(left) : "putting it off to a later run");
      return;
    }
    notBefore(System.nanoTime() + left.toNanos());
  }

  /**
   * Honours a Retry-After of any request of the origin (a page, robots.txt, a sitemap): no request before
   * it has passed, or, beyond politeness.max_retry_after, the origin put off (a continuous run rests it
   * that long), with a notice.
   *
   * @return whether the origin was put off
   */
  boolean waitAsAsked(java.time.Duration wait, java.time.Instant now) {
    java.time.Instant until = now.plus(wait);
    if (waitUntil == null || until.isAfter(waitUntil)) waitUntil = until; // kept for the runs to come
    if (wait.compareTo(settings.politeness().maxRetryAfter()) > 0) {
      giveUpUntil(until);
      Notice.printf("forager: %s asks to wait %d s (Retry-After), more than politeness.max_retry_after; %s", origin,
          wait.toSeconds(), ctx.run().continuous() ? putOff(wait) : "putting it off to a later run");
      return true;
    }
    notBefore(lastRequestEnd() + wait.toNanos());
    return false;
  }

  /** The earliest time ({@link System#nanoTime()}) the next request may start. */
  long requestAllowedAt() {
    long now = System.nanoTime();
    if (!requested) return Math.max(now, notBefore);
    long allowed = lastRequestEnd + politeness.delayMillis() * 1_000_000L;
    return Math.max(allowed, notBefore);
  }

  /** The wait before retry number {@code failures}: max(delay, 100 ms) × 2^(failures−1), capped. */
  long backoffMillis(int failures) {
    long base = Math.max(politeness.delayMillis(), MIN_RETRY_BACKOFF_MILLIS);
    long backoff = base << Math.min(failures - 1, 20);
    return Math.min(backoff, Math.max(settings.politeness().maxDelay().toMillis(), base));
  }

  // --- patience

  void losePatience(String why) {
    patience--;
    if (patience <= 0 && !givenUp) {
      givenUp = true;
      Notice.printf("forager: %s: out of patience (last: %s); %s", origin, why, putOff());
    }
  }

  /** What a given-up origin's notice says happens to it: a continuous run, which never ends, rests it. */
  String putOff() {
    return putOff(OriginCrawler.GIVEN_UP_REST);
  }

  /** As {@link #putOff()}, for a rest of at least {@code rest} (the hour's, or longer when the server asked). */
  String putOff(java.time.Duration rest) {
    java.time.Duration longest = rest.compareTo(OriginCrawler.GIVEN_UP_REST) > 0 ? rest : OriginCrawler.GIVEN_UP_REST;
    return ctx.run().continuous()
        ? "resting it " + org.forager.config.Durations.format(longest) + " before trying again"
        : "giving up on it for this run";
  }

  /**
   * An answer of the origin: a 401/403/451 ({@code denied}) after another one costs patience, and so does
   * a 429 or a 503 with Retry-After ({@code rateLimited}) after {@value #RATE_LIMITED_FREE} in a row.
   */
  void answered(boolean denied, boolean rateLimited, String what) {
    deniedInARow = denied ? deniedInARow + 1 : 0;
    rateLimitedInARow = rateLimited ? rateLimitedInARow + 1 : 0;
    // One forbidden page is an answer; a site that denies request after request is refusing the
    // crawler, and asking on would be impolite.
    if (deniedInARow > 1) losePatience(deniedInARow + " answers in a row denied access (last: " + what + ")");
    // A few 429s are a site's pacing, which the delay follows; one that answers nothing else is refusing
    // service, and its retries (each after a longer delay) held a run open for an hour per ten URLs.
    if (rateLimitedInARow > RATE_LIMITED_FREE) {
      losePatience(rateLimitedInARow + " answers in a row rate limited (last: " + what + ")");
    }
  }

  /** Done with the origin for this run (or pass): out of patience, put off by the site, a budget. */
  void giveUp() {
    givenUp = true;
  }

  /**
   * Gives the origin up, and asks a continuous run to rest it at least until {@code until} (a Retry-After
   * beyond max_retry_after: the hour's rest alone would ask again before the server said).
   */
  void giveUpUntil(java.time.Instant until) {
    givenUp = true;
    if (restAtLeastUntil == null || until.isAfter(restAtLeastUntil)) restAtLeastUntil = until;
  }

  /** The earliest end of a continuous run's rest that the server asked for, if it asked ({@link #giveUpUntil}). */
  java.util.Optional<java.time.Instant> restAtLeastUntil() {
    return java.util.Optional.ofNullable(restAtLeastUntil);
  }

  boolean givenUp() {
    return givenUp;
  }

  int patience() {
    return patience;
  }

  /** The patience left when the run put the origin aside (it goes on with that, not afresh). */
  void resumePatience(int left) {
    patience = Math.min(left, INITIAL_PATIENCE);
  }

  /** After the rest of a continuous crawl: fresh patience, another chance. */
  void rested() {
    givenUp = false;
    patience = INITIAL_PATIENCE;
    deniedInARow = 0;
  }

  // --- the log

  void log(CrawlAction action) {
    RuntimeException unsaved = keepPolitenessDurable(action);
    ctx.outputs().log().write(action);
    counted(action);
    if (unsaved != null) throw unsaved;
  }

  /**
   * Logs an action whose store write follows in this turn: its line reaches the operating system
   * with {@link #handOverLog}, which the caller makes before that write (the log comes first).
   */
  void logBeforeWrite(CrawlAction action) {
    RuntimeException unsaved = keepPolitenessDurable(action);
    ctx.outputs().log().append(action);
    counted(action);
    if (unsaved != null) throw unsaved;
  }

  /**
   * Sets what saves the origin's politeness in the store ({@link #keepPolitenessDurable}), and what the
   * store holds of it now: the delay and the end of the wait the site asked for.
   */
  void savesPolitenessWith(Runnable save) {
    savePoliteness = save;
  }

  /** The store holds this delay and wait for the origin now (what a run taken up after a kill -9 keeps). */
  void politenessStored(long delayMillis, Optional<java.time.Instant> waitUntil) {
    storedDelayMillis = delayMillis;
    storedWaitUntil = waitUntil.orElse(null);
  }

  /** The delay the store holds for the origin, as far as this run knows. */
  long storedDelayMillis() {
    return storedDelayMillis;
  }

  /**
   * Before a line says that a request was made under a delay or a wait (Retry-After) the store does not
   * hold: the origin's state is saved first, so that a run started after a kill -9 waits as long (it
   * waits the stored delay from when it takes the origin up). Else a delay raised by slow answers or a
   * rate limit was lost with the process, and the next run sent its first request too soon (a new user's
   * kill -9 and resume: 82 violations in the audit). A failure to save is thrown once the line is logged:
   * the request made is in the log whatever happens after.
   */
  private RuntimeException keepPolitenessDurable(CrawlAction action) {
    // A refusal sent nothing (as the audit reads it); one made as links are found is logged from within
    // the page's store write, which a save here would re-enter.
    if (!requested || SENT_NOTHING.contains(action.outcome())) return null;
    boolean delayRaised = politeness.delayMillis() > storedDelayMillis;
    boolean waitNew = waitUntil != null && (storedWaitUntil == null || waitUntil.isAfter(storedWaitUntil));
    if (!delayRaised && !waitNew) return null;
    try {
      savePoliteness.run();
      return null;
    } catch (RuntimeException e) {
      return e;
    }
  }

  /** Hands the lines {@link #logBeforeWrite} appended (this origin's and any other's) to the OS. */
  void handOverLog() {
    ctx.outputs().log().handOver();
  }

  private void counted(CrawlAction action) {
    ctx.outputs().summary().count(action);
    ctx.outputs().listener().action(action);
  }

  /** The log line of a request made (a response or a failure). */
  CrawlAction action(FetchResult result, CrawlAction.Kind kind, Outcome outcome, Optional<String> location,
      int attempt, Optional<String> reason) {
    return action(result, kind, outcome, location, attempt, reason, politeness.delayMillis());
  }

  /** As {@link #action}, with the delay that was in force after the request (a redirect's, in a chain). */
  CrawlAction action(FetchResult result, CrawlAction.Kind kind, Outcome outcome, Optional<String> location,
      int attempt, Optional<String> reason, long delayMillis) {
    int status = 0;
    Optional<String> contentType = Optional.empty();
    Optional<String> digest = Optional.empty();
    long bytes = 0;
    if (result instanceof FetchResult.Response r) {
      status = r.status();
      contentType = KeptHeaders.contentType(r);
      digest = Optional.of(Digests.sha1Base32(r.body()));
      bytes = r.body().length;
    }
    return new CrawlAction(result.startedAt(), kind, result.url(), outcome, status, contentType, bytes,
        result.durationMillis(), location, digest, attempt, delayMillis,
        reason.or(() -> reasonOf(result)), 0, ipOf(result));
  }

  /** {@code action}, a request of this turn, with the address it was sent to. */
  CrawlAction sentTo(CrawlAction action, FetchResult result) {
    return action.withIp(ipOf(result));
  }

  /** The log line of a request a gate refused: nothing was sent. */
  CrawlAction refusal(CrawlAction.Kind kind, String url, Verdict.Rejected rejected, int attempt) {
    return CrawlAction.withoutRequest(ctx.clock().instant(), kind, url, rejected.outcome(), attempt,
        politeness.delayMillis(), rejected.reason());
  }

  /** What the log says of a fetch that failed (kind and message) or whose body was cut (why). */
  static Optional<String> reasonOf(FetchResult result) {
    return switch (result) {
      case FetchResult.Failure f -> Optional.of(f.kind().name().toLowerCase(java.util.Locale.ROOT) + ": " + f.message());
      case FetchResult.Response r -> r.truncation().map(FetchResult.Truncation::label);
    };
  }

  /** Tells the other origins among the candidates' that they may have new work. */
  void wakeOtherOrigins(List<Candidate> discovered) {
    Set<Origin> others = null;
    for (Candidate c : discovered) {
      if (origin.contains(c.url())) continue;
      if (others == null) others = new HashSet<>();
      others.add(Origin.ofUrl(c.url()));
    }
    if (others != null) others.forEach(ctx.run().wake());
  }
}
