package org.forager.crawl;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import org.forager.config.CrawlConfig;
import org.forager.fetch.BodyMemory;
import org.forager.fetch.Outcome;
import org.forager.frontier.OriginTask;
import org.forager.policy.Verdict;
import org.forager.store.DueCandidate;
import org.forager.store.OriginState;
import org.forager.url.Origin;

/**
 * One origin's crawl loop (DESIGN.md "The origin crawl loop"). Each turn it does one of: refuse what
 * the local gates refuse (no request); fetch robots.txt when missing or expired ({@link RobotsStep});
 * read a sitemap ({@link SitemapStep}); crawl one URL ({@link PageStep}). What the steps share lives
 * in the {@link OriginSession}; this class decides which step comes next and keeps the URLs taken.
 * Every request first takes its IP address's slot ({@link OriginSession#takeIpSlot}); a turn that
 * finds the address busy puts its work back and returns when to come again, holding no thread.
 *
 * <p>The run's ignore list is the cutoff: only candidates due at or before the run's start are taken,
 * and every crawl action moves its URL's due time past it, so a URL is taken at most once per run
 * (retries aside) however short the recrawl interval, without remembering what was taken.
 */
final class OriginCrawler implements OriginTask {

  static final int INITIAL_PATIENCE = OriginSession.INITIAL_PATIENCE;
  /** In continuous mode, how long an origin out of patience is left alone before it is tried again. */
  static final java.time.Duration GIVEN_UP_REST = java.time.Duration.ofHours(1);
  // Small, so that what the last pages found (new URLs, more inlinks) reorders the origin's next URLs soon.
  private static final int TODO_BATCH = 16;
  /**
   * The most a read of todo takes while every URL read is refused without a request (robots.txt or a
   * local gate): such URLs find nothing that could reorder the rest, and each read and write has a
   * fixed cost (an iterator, a store write, a log write) that a run of refusals pays per batch.
   */
  static final int MAX_REFUSAL_BATCH = 256;

  private record Retry(PendingUrl pending, long readyAt) {}

  private final Origin origin;
  private final CrawlContext ctx;
  private final Instant cutoff;
  // Built at the first turn (load): an origin waiting for its turn costs only this object and its
  // place in the scheduler, which matters with a million origins in scope (docs/benchmarks.md,
  // issue 14 baseline).
  private OriginSession session;
  private RobotsStep robots;
  private SitemapStep sitemaps;
  private PageStep pages;
  private ArrayDeque<PendingUrl> todo;
  private PriorityQueue<Retry> retries;

  private boolean loaded;
  private long pagesFetched;
  private Instant restUntil;
  private boolean fetchRobotsFirst;
  /** The state as last read from or written to the store: an unchanged one is not written again. */
  private OriginState saved;
  /** Whether a turn failed unexpectedly: {@link #failed()}. */
  private volatile boolean failed;
  /** When this crawler was taken up (its first turn). */
  private Instant takenUpAt;
  /** When this run's take-up that read the origin's sitemaps began, once they are read (or were). */
  private Optional<Instant> sitemapsReadAt = Optional.empty();
  /** When the origin has work next, as it left the working set: {@link #nextWork}. */
  private Optional<Instant> nextWork = Optional.empty();
  /** Whether the last page crawled was a new URL (not a recrawl): the next read goes on alternating. */
  private boolean lastCrawledWasNew;
  /** Pages crawled since todo was last read from the store. */
  private int pagesSinceRead;
  /** How many URLs the last read of todo asked for, how many it found, and how many have been refused since. */
  private int lastReadLimit;
  private int lastReadSize;
  private int refusedSinceRead;

  OriginCrawler(Origin origin, CrawlContext ctx, Instant cutoff) {
    this.origin = origin;
    this.ctx = ctx;
    this.cutoff = cutoff;
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
    OriginSession s = session;
    ArrayDeque<PendingUrl> t = todo;
    PriorityQueue<Retry> r = retries;
    if (s == null || t == null || r == null) {
      return new OriginSnapshot(origin, ctx.config().politeness().minDelay().toMillis(),
          OriginSession.INITIAL_PATIENCE, 0, 0, false);
    }
    int queued = Math.max(0, t.size()) + Math.max(0, r.size());
    return new OriginSnapshot(origin, s.politeness.delayMillis(), s.patience(), queued, pagesFetched, s.givenUp());
  }

  /**
   * {@inheritDoc} Whatever way it ends, the turn's refusals are in the store by then ({@link
   * PageStep#writeRefusals}): between turns the store holds all the origin's crawl actions.
   *
   * <p>An error or exception the crawl survives ({@link InternalErrors}: a bug, not an output failure)
   * is the failure of the URL it was thrown for when the steps know one (they record it and the origin
   * goes on); thrown anywhere else in the turn, it stops the origin for the run, and the turn returns
   * finished. What the crawl does not survive is thrown on, for the scheduler to report: an output
   * failure stops the crawl, an {@code Error} the JVM cannot go on after ends the run.
   */
  @Override
  public OptionalLong turn() {
    // The turn's response bodies count on the process's body memory until the turn ends with them.
    try (BodyMemory.Lease bodies = BodyMemory.process().lease()) {
      OptionalLong next = turnUnguarded();
      writeRefusals();
      return next;
    } catch (RuntimeException | Error e) {
      if (session != null) session.requestOver(); // whatever comes of it, the address is not held
      InternalErrors errors = ctx.run().internalErrors();
      boolean containable = errors.containable(e);
      if (!containable && e instanceof Error) throw e; // the run ends
      failed = true; // the working set does not take the origin up again this run
      if (!containable) {
        try {
          writeRefusals(); // as they were written at once before: a failure after them leaves them in
        } catch (RuntimeException again) {
          e.addSuppressed(again);
        }
        throw e;
      }
      errors.contained(origin.toString(), "that origin stops for this run", e);
      writeRefusals(); // a store failure here is the crawl's (thrown: the scheduler reports it)
      return OptionalLong.empty();
    }
  }

  /** Whether a turn of this origin failed unexpectedly (a bug): it stops for this run. */
  boolean failed() {
    return failed;
  }

  private OptionalLong turnUnguarded() {
    if (!loaded) load();
    // The operator's orders (CrawlControl): a delay set for the origin holds from this turn on; a
    // paused origin sends nothing until resumed (which brings its turn forward).
    CrawlControl control = ctx.run().control();
    session.politeness.operatorDelay(control.delayMillis(origin));
    if (control.paused(origin)) return OptionalLong.of(System.nanoTime() + CrawlControl.PAUSED_ORIGIN_RECHECK_NANOS);
    // Defensive: whoever dispatched this turn, no request before the origin's time.
    long allowed = session.requestAllowedAt();
    if (allowed - System.nanoTime() > 0) return OptionalLong.of(allowed);
    if (session.givenUp() && ctx.run().continuous() && restUntil != null && !ctx.clock().instant().isBefore(restUntil)) {
      // A crawl that never ends gives a failing origin another chance after a rest, with fresh patience.
      restUntil = null;
      session.rested();
      robots.rested();
      pagesFetched = 0; // limits.max_pages_per_origin is per run, or per pass in continuous mode
    }
    // Whether local policy lets the origin be contacted at all, read once a turn (the exclusion file
    // may change while the crawl runs): robots.txt comes first, so an origin whose robots.txt may not
    // be requested can have no request at all.
    Optional<Verdict.Rejected> closed = closedByLocalPolicy();
    // Blocked by the operator: the origin leaves the run with its URLs untouched, for an unblock.
    if (control.blocks(origin)) return finish();
    while (true) {
      if (session.givenUp()) return finish();
      if (ctx.run().budget().exhausted()) return budgetSpent();
      PendingUrl next = nextPending();
      if (next == null && (closed.isPresent() || !sitemaps.hasWork()) && !robotsWanted(closed)) {
        if (retries.isEmpty()) {
          if (ctx.run().continuous()) pagesFetched = 0; // caught up: the next pass has its own page budget
          return finish();
        }
        return OptionalLong.of(Math.max(retries.peek().readyAt(), session.requestAllowedAt()));
      }
      if (next != null) {
        // The local gates first: a URL they refuse costs no request, robots.txt included, so an
        // excluded host is never contacted at all.
        Optional<Verdict.Rejected> refused = localRefusal(next).or(() -> closed);
        if (refused.isPresent()) {
          if (control.blocks(origin)) { // blocked since the turn began
            todo.addFirst(next);
            return finish();
          }
          if (!ctx.run().budget().tryTake()) {
            todo.addFirst(next);
            return finish();
          }
          pages.refuse(next, refused.get());
          refusedSinceRead++;
          continue;
        }
      }
      if (robots.needed(ctx.clock().instant())) {
        if (next != null) todo.addFirst(next);
        if (robots.awaitingOther()) {
          // Its robots.txt redirects to another origin's, which that origin's turn reads.
          OptionalLong waiting = awaitOtherRobots();
          if (waiting != null) return waiting;
          continue; // the rules are in force now
        }
        writeRefusals(); // the steps below end the turn and read or write the origin's state
        OptionalLong busy = session.takeIpSlot(this);
        if (busy.isPresent()) return busy;
        if (!ctx.run().budget().tryTake()) return finishWithoutRequest();
        try {
          robots.fetch();
        } finally {
          session.requestOver(); // held still only when no request was sent after all, or the step threw
        }
        saveState(Saving.TURN);
        // In the store now: origins whose robots.txt redirects here may read it.
        if (robots.hasRules()) ctx.network().borrowedRobots().settled(origin, true);
        return afterRequest(false);
      }
      if (sitemaps.hasNext(robots.rules())) {
        if (next != null) todo.addFirst(next);
        writeRefusals();
        OptionalLong busy = session.takeIpSlot(this);
        if (busy.isPresent()) return busy;
        if (!ctx.run().budget().tryTake()) return finishWithoutRequest();
        try {
          sitemaps.fetchNext(robots.rules());
        } finally {
          session.requestOver();
        }
        return afterRequest(true);
      }
      if (next == null) continue; // the sitemaps are done; what is left are retries
      if (pagesFetched >= session.settings.maxPagesPerOrigin()) {
        // The budget that bounds any spider trap: the rest stays due for a later run (or pass).
        todo.addFirst(next);
        Notice.printf("forager: %s: fetched its page limit (%d pages: limits.max_pages_per_origin or its sites "
            + "rule's max_pages); done with it for this %s", origin, pagesFetched, ctx.run().continuous() ? "pass" : "run");
        session.giveUp();
        return finish();
      }
      Optional<Verdict.Rejected> disallowed = robotsRefusal(next);
      if (disallowed.isPresent()) {
        if (!ctx.run().budget().tryTake()) {
          todo.addFirst(next);
          return finish();
        }
        pages.refuse(next, disallowed.get());
        refusedSinceRead++;
        continue;
      }
      // The address's slot before the budget: a turn that must wait for it spends nothing.
      OptionalLong busy = session.takeIpSlot(this);
      if (busy.isPresent()) {
        todo.addFirst(next);
        return busy;
      }
      if (!ctx.run().budget().tryTake()) {
        todo.addFirst(next);
        return finishWithoutRequest();
      }
      pagesFetched++;
      lastCrawledWasNew = next.candidate().fetchCount() == 0;
      List<DueCandidate> held = heldFresh();
      try {
        pages.crawl(next, held, pagesFetched);
      } finally {
        session.requestOver();
      }
      if (held.isEmpty()) return afterRequest(pages.offeredCandidates());
      hold(pages.heldAfter());
      // What others wrote meanwhile (recrawls come due, links from other origins' pages) is in the
      // merge of no write of this origin's: read again at least every batch of pages.
      return afterRequest(++pagesSinceRead >= TODO_BATCH);
    }
  }

  /**
   * The priority of the best work this origin holds, for the scheduler's choice among ready origins:
   * 0 until its first turn (what it holds is not read yet: a million origins of the working set with
   * nothing to do must not go before the pages of those under way, which they did at 1, stalling the
   * crawl; each still starts as soon as a slot is free of better work), 1 while robots.txt or sitemaps
   * are to be read (sitemaps are where a site names its important pages), then that of the next URL
   * it takes. Read between turns, never during one.
   */
  @Override
  public double priority() {
    if (!loaded) return 0.0;
    if (sitemaps.hasWork()) return 1.0;
    PendingUrl next = todo.peek();
    return next == null ? 0.0 : next.candidate().priority();
  }

  /** A fleet forgets the origin without its turn's end (its lease lost): what its rules held is given back. */
  void forgotten() {
    if (loaded) robots.release();
  }

  /** Whether a continuous crawl gave the origin up and it rests until a time (then it is woken). */
  boolean resting() {
    return restUntil != null && session != null && session.givenUp();
  }

  /**
   * Whether the origin was given up for this run (out of patience, page limit, put off by the site), or
   * stopped by a failure of the crawler's ({@link #failed}).
   */
  boolean givenUp() {
    return failed || session != null && session.givenUp();
  }

  /**
   * Fleet: the first turn fetches robots.txt rather than using the copy another process stored, so
   * that this process's own crawl log shows robots.txt before any page of the origin (the audit).
   */
  OriginCrawler fetchRobotsFirst() {
    fetchRobotsFirst = true;
    return this;
  }

  /**
   * Saves what the next run needs to know about this origin, and how far it got in this one (taken up
   * again later in the run, it goes on from there: {@link OriginWorkingSet}), as it leaves the run (or
   * the working set): its delay as it is.
   */
  void saveState() {
    saveState(Saving.LEAVING);
  }

  /** Why the origin's state is saved, which decides the delay stored. */
  private enum Saving {
    /** The origin leaves: the delay as it is (the next take-up waits it from then). */
    LEAVING,
    /** Within a turn (robots.txt's rules taken): not below the delay stored since the run took it up. */
    TURN,
    /**
     * A line is to say a delay in force above the one stored ({@link OriginSession#keepPolitenessDurable}):
     * twice that delay (up to politeness.max_delay, unless the delay is above already), so that the
     * response times' ups and downs cost no write a request.
     */
    RAISED
  }

  private void saveState(Saving why) {
    if (!loaded) return;
    writeRefusals();
    // No progress in this run is as good as none saved: an origin the working set took up with nothing
    // to do leaves its state as it found it, with no write (a million idle origins, a million puts).
    boolean progressed = pagesFetched > 0 || sitemaps.read() || session.givenUp();
    Optional<Instant> readAt = sitemaps.read() ? sitemapsReadAt.or(() -> Optional.of(takenUpAt)) : Optional.empty();
    Optional<OriginState.RunProgress> progress = progressed
        ? Optional.of(new OriginState.RunProgress(cutoff, pagesFetched, sitemaps.read(), session.givenUp(), readAt))
        : Optional.ofNullable(saved).flatMap(OriginState::run);
    long delay = session.politeness.delayMillis();
    if (why == Saving.TURN) {
      delay = Math.max(delay, session.storedDelayMillis());
    } else if (why == Saving.RAISED) {
      long max = session.settings.politeness().maxDelay().toMillis();
      delay = delay >= max ? delay : Math.min(2 * delay, max);
    }
    OriginState state = new OriginState(origin, robots.stored(), delay, session.patience(), progress,
        session.waitUntil(ctx.clock().instant()));
    if (!state.equals(saved)) ctx.store().saveOriginState(state);
    saved = state;
    session.politenessStored(state.delayMillis(), state.waitUntil());
  }

  /**
   * When the origin has work next, as the store's agenda said when it last left the working set
   * (empty while it has not left, or when it has no work at all).
   */
  Optional<Instant> nextWork() {
    return nextWork;
  }

  /**
   * Brings the origin's agenda entry up to date as it leaves the working set: a run then takes it up
   * only when it has work (docs/crawl-loop.md, "The origin working set"). With sitemaps on, it is taken
   * up again after sitemaps.reread_after even with nothing due, to read them again, counted from the
   * run's start (so that a daily run with the default of a day reads them daily, not every other day)
   * or, in a continuous crawl, from when it was taken up.
   */
  private void settle() {
    if (ctx.store().leases().isPresent()) return; // a fleet's agenda is its leases (FleetCoordinator)
    CrawlConfig.Sitemaps sitemapConfig = ctx.config().sitemaps();
    // In a continuous run, from the take-up that read the sitemaps (this one, or an earlier one whose
    // reading this one kept), so that they are read every reread_after, not up to twice that apart.
    Instant from = ctx.run().continuous() ? sitemapsReadAt.orElse(takenUpAt) : cutoff;
    Optional<Instant> takeUpBy = sitemapConfig.enabled()
        ? Optional.of(from.plus(sitemapConfig.rereadAfter()))
        : Optional.empty();
    nextWork = ctx.store().settle(origin, takeUpBy);
  }

  /** Why the origin may not be contacted at all, when local policy refuses its robots.txt. */
  private Optional<Verdict.Rejected> closedByLocalPolicy() {
    return ctx.policy().gatekeeper().checkRequest(origin.robotsTxtUrl()) instanceof Verdict.Rejected rejected
        ? Optional.of(new Verdict.Rejected(rejected.outcome(), rejected.reason() + " (for the origin's robots.txt)"))
        : Optional.empty();
  }

  /**
   * Why robots.txt refuses a URL of this origin as a page's link to it is found, when the turn that
   * reads it would refuse it so: the rules in hand are current and disallow it, the origin is still
   * being crawled this run (not given up, not at its page limit, not blocked, not closed by local
   * policy), and no local gate refuses it first (that refusal, with its own outcome, is left to the
   * turn). Empty to let the URL be stored and decided at its turn. The local gates are asked only for
   * a URL robots.txt disallows: an embedder's {@code UrlGate} is not asked twice for the others.
   */
  private Optional<Verdict.Rejected> refusedAsFound(PendingUrl pending) {
    if (robots.needed(ctx.clock().instant())) return Optional.empty();
    Optional<Verdict.Rejected> disallowed = robotsRefusal(pending);
    if (disallowed.isEmpty()
        || session.givenUp() || pagesFetched >= session.settings.maxPagesPerOrigin()
        || ctx.run().control().blocks(origin) || closedByLocalPolicy().isPresent()
        || localRefusal(pending).isPresent()) {
      return Optional.empty();
    }
    return disallowed;
  }

  /**
   * The configured gates and the caller's, in that order; robots.txt comes after them. A gate that fails
   * on the URL with an error or exception the crawl survives (a do_not_crawl regex overflowing the
   * stack, the embedder's gate throwing) refuses it: it could not say the URL may be fetched ({@link
   * #refusedOnError}).
   */
  private Optional<Verdict.Rejected> localRefusal(PendingUrl pending) {
    try {
      return localRefusalUnguarded(pending);
    } catch (RuntimeException | Error e) {
      if (!ctx.run().internalErrors().containable(e)) throw e;
      return Optional.of(refusedOnError(pending, Outcome.BLOCKED_URL_BY_LOCAL_POLICY, e));
    }
  }

  /** Why robots.txt refuses the URL, if it does; failing on it, it refuses it ({@link #refusedOnError}). */
  private Optional<Verdict.Rejected> robotsRefusal(PendingUrl pending) {
    try {
      return robots.rules().isAllowed(pending.candidate().url()) ? Optional.empty() : Optional.of(ROBOTS_REFUSAL);
    } catch (RuntimeException | Error e) {
      if (!ctx.run().internalErrors().containable(e)) throw e;
      return Optional.of(refusedOnError(pending, Outcome.BLOCKED_BY_ROBOTS_TXT, e));
    }
  }

  private static final Verdict.Rejected ROBOTS_REFUSAL = new Verdict.Rejected(Outcome.BLOCKED_BY_ROBOTS_TXT, "robots.txt");

  /**
   * A gate's error or exception on a URL, contained ({@link InternalErrors}): the URL is refused as that
   * gate refuses (fail closed: no request for what the gates could not clear), its reason naming the
   * error, and recorded so, due again when a refusal is. No request was made, but the site's URLs set
   * the errors off: each costs the origin a patience point, so that a site whose every URL does is given
   * up after a few, not told of on the terminal URL after URL. The origin goes on while it has patience.
   */
  private Verdict.Rejected refusedOnError(PendingUrl pending, Outcome outcome, Throwable e) {
    ctx.run().internalErrors().contained(pending.candidate().url(), "refused without a request (" + outcome
        + "); a patience point of its origin", e);
    if (session != null) session.losePatience(outcome + " on an internal error for " + pending.candidate().url());
    return new Verdict.Rejected(outcome, InternalErrors.gateReason(e));
  }

  private Optional<Verdict.Rejected> localRefusalUnguarded(PendingUrl pending) {
    String url = pending.candidate().url();
    if (ctx.policy().gatekeeper().check(url, pending.candidate().depth(), pending.candidate().hops())
        instanceof Verdict.Rejected rejected) {
      return Optional.of(rejected);
    }
    return ctx.policy().extraGate().refuse(url, pending.candidate().depth())
        .map(reason -> new Verdict.Rejected(Outcome.BLOCKED_URL_BY_LOCAL_POLICY, reason));
  }

  private void load() {
    takenUpAt = ctx.clock().instant();
    session = new OriginSession(origin, ctx);
    robots = new RobotsStep(session);
    sitemaps = new SitemapStep(session);
    pages = new PageStep(session, this::retry, this::refusedAsFound);
    todo = new ArrayDeque<>();
    retries = new PriorityQueue<>(Comparator.comparingLong(Retry::readyAt));
    loaded = true;
    saved = ctx.store().originState(origin).orElse(null);
    session.savesPolitenessWith(() -> saveState(Saving.RAISED));
    Optional.ofNullable(saved).ifPresent(state -> {
      session.politenessStored(state.delayMillis(), state.waitUntil());
      // A fleet process fetches robots.txt itself before its first page of an origin (its own log shows
      // robots.txt first for the audit); an origin it claims again in the same run already has.
      boolean sameRun = state.run().map(run -> run.runStarted().equals(cutoff)).orElse(false);
      state.robotsTxt().filter(txt -> !fetchRobotsFirst || sameRun).ifPresent(robots::use);
      session.politeness.restore(state.delayMillis());
      state.run().filter(run -> run.runStarted().equals(cutoff) && !ctx.run().continuous()).ifPresent(run -> {
        // Taken up again in the run that put it aside: the page limit counts on, sitemaps are not read
        // twice, an origin given up stays so.
        pagesFetched = run.pagesFetched();
        session.resumePatience(state.patience());
        if (run.sitemapsRead()) {
          sitemaps.alreadyRead();
          sitemapsReadAt = run.sitemapsReadAt();
        }
        if (run.givenUp()) session.giveUp();
      });
      if (ctx.run().continuous()) {
        // A continuous run starts its budgets again at each take-up, but not its sitemaps: read once,
        // they are read again sitemaps.reread_after later (docs/configuration.md), not each time a URL
        // of the origin comes due.
        state.run().filter(run -> run.runStarted().equals(cutoff) && run.sitemapsRead())
            .flatMap(OriginState.RunProgress::sitemapsReadAt)
            .filter(at -> takenUpAt.isBefore(at.plus(ctx.config().sitemaps().rereadAfter())))
            .ifPresent(at -> {
              sitemaps.alreadyRead();
              sitemapsReadAt = Optional.of(at);
            });
      }
      if (!fetchRobotsFirst) {
        // Crawled by an earlier run, which may have ended a moment ago (a resume, a restart after a
        // crash): its last request's end is not kept, so the delay counts from now. A fleet process
        // waits the same way when it claims the origin (FleetCoordinator).
        session.notBefore(System.nanoTime() + session.politeness.delayMillis() * 1_000_000L);
      }
      // A Retry-After an earlier run (or take-up) was given holds across runs, robots.txt included.
      state.waitUntil().ifPresent(until -> session.resumeWait(until, ctx.clock().instant()));
    });
  }

  /**
   * A turn that made its request: the next one when the origin's delay allows.
   *
   * @param readAgain whether todo is to be read again: the request offered candidates to the store
   *     (a page's offer to the URLs todo held was merged in by the store instead), or a batch of pages
   *     went by since the last read
   */
  private OptionalLong afterRequest(boolean readAgain) {
    if (session.givenUp()) return finish();
    // What was offered (new URLs, more inlinks) may have changed which URLs come first: the next ones
    // are read again (everything in todo is still due in the store). Read now rather than at the next
    // turn: the first one's priority is the origin's in line.
    if (readAgain) todo.clear();
    if (todo.isEmpty()) fillTodo();
    if (todo.isEmpty() && retries.isEmpty() && !sitemaps.hasWork()) {
      // Nothing left to ask: the origin is done now, not when its delay has passed (a slow last page
      // with response_time_factor held the run's end that long). Work that comes later wakes it.
      if (ctx.run().continuous()) pagesFetched = 0; // caught up: the next pass has its own page budget
      return finish();
    }
    return OptionalLong.of(session.requestAllowedAt());
  }

  /** The run's max_actions are spent: the origin leaves, telling the budget when it had work left. */
  private OptionalLong budgetSpent() {
    PendingUrl next = nextPending();
    if (next != null || sitemaps.hasWork()) ctx.run().budget().workLeft();
    if (next != null) todo.addFirst(next);
    return finish();
  }

  /** Finishes a turn that took its address's slot and then sent nothing (the budget ran out). */
  private OptionalLong finishWithoutRequest() {
    session.releaseIpSlot(false);
    return finish();
  }

  private OptionalLong finish() {
    writeRefusals(); // before settle() reads what the origin holds (saveState too would)
    saveState();
    settle();
    // Leaving the working set, its rules leave the heap with it; a continuous crawl's resting origin
    // stays, and holds them.
    if (loaded && !(session.givenUp() && ctx.run().continuous())) robots.release();
    // Origins whose robots.txt redirects here learn that this turn is over: they read the rules from
    // the store, or, without any, are put off (unless this origin waits for another's in turn).
    BorrowedRobots borrowed = ctx.network().borrowedRobots();
    if (loaded && borrowed.awaited(origin) && !robots.awaitingOther()) borrowed.settled(origin, robots.hasRules());
    if (session.givenUp() && ctx.run().continuous() && restUntil == null) {
      // An hour, or as long as the server's Retry-After asked, whichever is longer.
      Instant hour = ctx.clock().instant().plus(GIVEN_UP_REST);
      restUntil = session.restAtLeastUntil().filter(hour::isBefore).orElse(hour);
      ctx.run().wakeAt().accept(origin, restUntil);
    }
    return OptionalLong.empty();
  }

  /**
   * While the origin waits for the robots.txt of the origin its own redirects to: no request meanwhile,
   * and no place in the working set taken (that origin's turn wakes this one when it is over). Returns
   * what the turn returns, or null once the rules are in force and a request may go now. Kept out of
   * the turn's loop: a page's path does not come here.
   */
  private OptionalLong awaitOtherRobots() {
    if (!robots.awaitOther() || session.givenUp()) return finish();
    saveState(Saving.TURN); // the rules taken, in the store for origins whose robots.txt redirects here in turn
    if (robots.hasRules()) ctx.network().borrowedRobots().settled(origin, true);
    // The rules are in force now, and their Crawl-delay with them: the next request waits for it.
    long allowedAt = session.requestAllowedAt();
    return allowedAt - System.nanoTime() > 0 ? OptionalLong.of(allowedAt) : null;
  }

  /**
   * Whether this origin's robots.txt is to be read although nothing else is to be done: other origins'
   * robots.txt redirect to it and wait for its rules.
   */
  private boolean robotsWanted(Optional<Verdict.Rejected> closed) {
    return closed.isEmpty() && robots.needed(ctx.clock().instant()) && !robots.awaitingOther()
        && ctx.network().borrowedRobots().awaited(origin);
  }

  private PendingUrl nextPending() {
    Retry retry = retries.peek();
    if (retry != null && retry.readyAt() - System.nanoTime() <= 0) return retries.poll().pending();
    if (todo.isEmpty()) fillTodo();
    return todo.poll();
  }

  /**
   * What todo holds when that is only never-crawled URLs, read in the store's order; otherwise none
   * (recrawls interleave with new URLs: with any in todo, a page's offer reads todo again).
   */
  private List<DueCandidate> heldFresh() {
    List<DueCandidate> held = new ArrayList<>(todo.size());
    for (PendingUrl p : todo) {
      // A retry put back may have been recorded since it was read (its due key moved): not held.
      if (p.candidate().fetchCount() != 0 || p.attempt() > 1) return List.of();
      held.add(p.candidate());
    }
    return held;
  }

  /**
   * Makes todo {@code due} (what the store said the held URLs are after a page's write), keeping the
   * pending URLs of those held before (their attempts); at most a batch.
   */
  private void hold(List<DueCandidate> due) {
    lastReadSize = 0; // not a read: a run of refusals grows the reads from the next one
    Map<DueCandidate, PendingUrl> before = new IdentityHashMap<>();
    for (PendingUrl p : todo) before.put(p.candidate(), p);
    todo.clear();
    for (int i = 0; i < due.size() && i < TODO_BATCH; i++) {
      PendingUrl kept = before.get(due.get(i));
      todo.add(kept != null ? kept : new PendingUrl(due.get(i), 1));
    }
  }

  private void fillTodo() {
    writeRefusals(); // a refused URL not written yet is still due: it would be read, and refused, again
    pagesSinceRead = 0;
    // A full read whose every URL was refused: the next takes more (a run of refusals, as at the end of
    // an origin whose disallowed URLs rank last), up to MAX_REFUSAL_BATCH.
    boolean allRefused = lastReadSize > 0 && lastReadSize == lastReadLimit && refusedSinceRead >= lastReadSize;
    int limit = allRefused ? Math.min(4 * lastReadLimit, MAX_REFUSAL_BATCH) : TODO_BATCH;
    refusedSinceRead = 0;
    // Continuous crawling takes what is due now; a single run only what was due when it started.
    Instant upTo = ctx.run().continuous() ? ctx.clock().instant() : cutoff;
    List<DueCandidate> read = ctx.store().due(origin, upTo, limit);
    lastReadLimit = limit;
    lastReadSize = read.size();
    for (DueCandidate c : read) todo.add(new PendingUrl(c, 1));
    // The store alternates new URLs and recrawls starting with a new one; read again after every page,
    // that would be new after new for ever (a site that keeps offering pages starved its recrawls).
    // The alternation goes on across the reads: after a new URL, a recrawl due comes first.
    if (lastCrawledWasNew && !todo.isEmpty() && todo.peek().candidate().fetchCount() == 0) {
      for (PendingUrl p : todo) {
        if (p.candidate().fetchCount() > 0) {
          todo.remove(p);
          todo.addFirst(p);
          break;
        }
      }
    }
  }

  /**
   * Writes the refusals of the turn not written with a page yet: before the store is read for this
   * origin (a refused URL not written is still due there) and at the turn's end.
   */
  private void writeRefusals() {
    if (pages != null) pages.writeRefusals();
  }

  /** Queues a retry when attempts are left; otherwise the failure costs a patience point. */
  private boolean retry(PendingUrl pending, long readyAt, boolean counted) {
    if (!counted) {
      retries.add(new Retry(pending, readyAt));
      return true;
    }
    if (pending.attempt() <= ctx.config().limits().maxRetries()) {
      retries.add(new Retry(pending.next(), readyAt));
      return true;
    }
    session.losePatience("gave up on " + pending.candidate().url() + " after " + pending.attempt() + " attempts");
    return false;
  }
}
