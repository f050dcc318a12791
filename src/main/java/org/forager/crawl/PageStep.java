package org.forager.crawl;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.forager.crawl.Classification.Feedback;
import org.forager.dedup.SimHash;
import org.forager.extract.ExtractedPage;
import org.forager.fetch.FetchRequest;
import org.forager.fetch.BodyMemory;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Outcome;
import org.forager.policy.Verdict;
import org.forager.record.CrawlAction;
import org.forager.scope.Scope;
import org.forager.store.Candidate;
import org.forager.store.CrawlRecord;
import org.forager.store.DiscoveryGate;
import org.forager.store.DueCandidate;
import org.forager.url.UrlNormalizer;
import org.forager.warc.BodyDigests;

/**
 * Crawls one URL of the origin (DESIGN.md, the crawl loop's third step): fetch, classify, extract,
 * look for a duplicate, offer what was discovered, feed back to the origin's politeness and patience,
 * and record it all: the crawl log first, then the store in one atomic write. Also records the URLs
 * a gate refused, without a request: logged at once, written with the turn's page (or at
 * {@link #writeRefusals}). Confined to the origin's turns; not thread-safe.
 */
final class PageStep {

  /** Where a failed URL waits for its retry. */
  interface Retries {
    /**
     * Queues the next attempt at {@code pending} for {@code readyAt} when attempts are left; whether it
     * did. An attempt not {@code counted} (it failed in an outage of the crawler's own network) is made
     * again as it was, and always.
     */
    boolean retry(PendingUrl pending, long readyAt, boolean counted);
  }

  private final OriginSession session;
  private final Retries retries;
  /** The origin as its URLs start: {@code scheme://host[:port]}, as {@link org.forager.url.Origin#toString} has it. */
  private final String originPrefix;
  /** Whether the last page crawled offered any candidate: new URLs or inlinks may reorder the origin's next. */
  private boolean offeredCandidates;
  /**
   * How far the URL being crawled got, for a failure of the crawler's own on it ({@link #failed}): what
   * its fetch returned (null before), whether its request's line is logged, whether its record is written.
   */
  private FetchResult fetched;
  private boolean requestLogged;
  private boolean recorded;
  private List<DueCandidate> heldAfter = List.of();
  /**
   * The page's redirect or canonical target when it is not followed (out of scope, past an origin
   * limit, a trap limit): its action, logged after the page's own.
   */
  private final List<CrawlAction> droppedTargets = new ArrayList<>();
  /** Refusals logged and not in the store yet, in the order they were refused: {@link #refuse}. */
  private final List<CrawlRecord> unwrittenRefusals = new ArrayList<>();
  /** Why a candidate of the origin is refused as it is found, if it is ({@link DiscoveryGate}). */
  private final Function<PendingUrl, Optional<Verdict.Rejected>> refusedAsFound;
  /**
   * The page's candidates of other origins the store found unknown (new URLs once written), when the
   * store offers those to {@link #gate}: their origins are the ones to wake after the write.
   */
  private final List<Candidate> newElsewhere = new ArrayList<>();
  /** The page's candidates the store found unknown and {@link #refusedAsFound} refused: refused and logged. */
  private final DiscoveryGate gate = new DiscoveryGate() {
    @Override
    public Optional<CrawlRecord> refuse(Candidate candidate) {
      if (!isOfOwnOrigin(candidate.url())) {
        newElsewhere.add(candidate);
        return Optional.empty();
      }
      return refuseAsFound(candidate);
    }

    /** The page's lines and the refusals' go to the OS together, before the write: one system call. */
    @Override
    public void decided() {
      session.handOverLog();
    }
  };

  /**
   * @param refusedAsFound why a candidate of this origin is refused as it is found (robots.txt), when
   *     the store does not know it yet; empty to store it and decide at its turn
   */
  PageStep(OriginSession session, Retries retries, Function<PendingUrl, Optional<Verdict.Rejected>> refusedAsFound) {
    this.session = session;
    this.retries = retries;
    this.refusedAsFound = refusedAsFound;
    this.originPrefix = session.origin.toString();
  }

  /** Why a redirect leads nowhere the crawl can follow: its Location is no http(s) URL. */
  /** The log's reason for a page whose links were cut short (docs/extraction.md, "The links' budget"). */
  static String linksCutReason(ExtractedPage.LinksCut why, int kept) {
    return switch (why) {
      case PAGE_BUDGET -> "links cut at the page's budget: " + kept + " kept";
      case MEMORY -> "links cut: no memory for more within " + BodyMemory.LINK_WAIT.toSeconds() + " s (the crawl's"
          + " pages hold it): " + kept + " kept";
    };
  }

  private static Optional<String> unfollowedRedirect(Outcome outcome, Optional<String> redirectTo, FetchResult result) {
    if (outcome != Outcome.REDIRECT || redirectTo.isPresent() || !(result instanceof FetchResult.Response r)) {
      return Optional.empty();
    }
    return r.header("Location").map(l -> "Location is no http(s) URL to follow: "
        + (l.length() > 200 ? l.substring(0, 200) + "..." : l));
  }

  /**
   * Records a URL a gate refused: no request, a crawl action with the gate's outcome and reason. It is
   * logged at once (its line handed to the OS before its store write); its store write waits for the
   * turn's next one ({@link #crawl}) or for {@link #writeRefusals}, which the caller must call before
   * anything reads the origin's URLs from the store (until then the URL is still due there) and before
   * its turn ends.
   */
  void refuse(PendingUrl pending, Verdict.Rejected rejected) {
    CrawlContext ctx = session.ctx;
    Instant now = ctx.clock().instant();
    String url = pending.candidate().url();
    CrawlRecord record = CrawlRecord.withoutRequest(url, now, rejected.outcome(),
        ctx.policy().recrawls().nextFetchAt(pending.candidate(), rejected.outcome(), 0, Optional.empty(), now).at());
    // The log first: an action the log could not take (a full disk) must not be in the store alone.
    // A crash before the store write has it logged and still due: the next run refuses it again.
    session.logBeforeWrite(session.refusal(CrawlAction.Kind.PAGE, url, rejected, pending.attempt()));
    unwrittenRefusals.add(record);
    session.crawled.add(url);
  }

  /**
   * A candidate the store does not know, refused now when {@link #refusedAsFound} says so and the
   * budget has an action for it: logged as its turn would log it, and its record given to the store
   * to write with the page. Only the origin's own URLs (its robots.txt is the one in hand): the gate asks
   * it of no other.
   */
  private Optional<CrawlRecord> refuseAsFound(Candidate candidate) {
    String url = candidate.url();
    PendingUrl pending = new PendingUrl(new DueCandidate(url, candidate.depth(), Optional.empty(), Optional.empty(), 0,
        1.0, candidate.hops()), 1);
    Optional<Verdict.Rejected> rejected = refusedAsFound.apply(pending);
    if (rejected.isEmpty() || !session.ctx.run().budget().tryTake()) return Optional.empty();
    CrawlContext ctx = session.ctx;
    Instant now = ctx.clock().instant();
    CrawlRecord record = CrawlRecord.withoutRequest(url, now, rejected.get().outcome(),
        ctx.policy().recrawls().nextFetchAt(pending.candidate(), rejected.get().outcome(), 0, Optional.empty(), now).at());
    session.logBeforeWrite(session.refusal(CrawlAction.Kind.PAGE, url, rejected.get(), pending.attempt()));
    session.crawled.add(url);
    return Optional.of(record);
  }

  /**
   * Writes the refusals not written yet, in one store call (issue 15: one call each was 5 % of a
   * crawl's CPU). Dropped when the write fails: the failure is the turn's; they are still due.
   */
  void writeRefusals() {
    if (unwrittenRefusals.isEmpty()) return;
    try {
      session.handOverLog();
      session.ctx.store().recordAll(unwrittenRefusals);
    } finally {
      unwrittenRefusals.clear();
    }
  }

  /**
   * Fetches the URL (this turn's request) and records what came of it.
   *
   * While early requests are on ({@link EarlySends}), the response is read and processed through the
   * run's {@link PageGate}: the request goes out at once, then the turn waits for its permit.
   *
   * <p>An error or exception the crawl survives ({@link InternalErrors}: a bug the page set off, not an
   * output failure), from the fetch to the store's write, is the URL's failure ({@link #failed}): this
   * returns as after any page.
   *
   * @param held the never-crawled URLs the origin holds next, in the store's due order (empty when it
   *     holds recrawls too): {@link #heldAfter} says what they are once the page's candidates are in
   * @param progress the pages the origin has fetched this run, this one included (the gate's order)
   */
  void crawl(PendingUrl pending, List<DueCandidate> held, long progress) {
    CrawlContext ctx = session.ctx;
    DueCandidate candidate = pending.candidate();
    FetchRequest request = new FetchRequest(candidate.url(), candidate.etag(), candidate.lastModified())
        .connectingTo(session.requestAddress());
    fetched = null;
    requestLogged = false;
    recorded = false;
    Runnable afterGate;
    try {
      session.requestStarting();
      if (ctx.run().earlySends().on()) {
        try (PageGate.Pass pass = ctx.run().pageGate().pass(progress)) {
          FetchResult result = ctx.network().fetcher().fetch(request, pass);
          afterGate = process(pending, held, result);
        }
      } else {
        afterGate = process(pending, held, ctx.network().fetcher().fetch(request));
      }
    } catch (RuntimeException | Error e) {
      // From the fetch (a decoder) to the write: this URL's failure, not the run's (InternalErrors).
      if (!ctx.run().internalErrors().containable(e)) throw e;
      failed(pending, e);
      return;
    } finally {
      // Not kept to the origin's next turn: a response held by each of a thousand origins between their
      // turns was 60 MB more live heap, twice the promotions and 3 % more CPU a crawl (session 67).
      fetched = null;
    }
    afterGate.run();
  }

  /**
   * The crawler failed on the URL being crawled ({@link InternalErrors}): its request is logged
   * INTERNAL_ERROR, unless its own line was logged already (one line a request, as the audit reads
   * them), and the URL is recorded so, with no candidate, due again as a failed URL is ({@code forager
   * ctl retry-failed} makes it due at once): no later turn or run fetches it and meets the same error
   * again. It costs the origin a patience point, as a persistent failure does, and the origin goes on
   * with its next URL: one pathological page must not cost a site's other pages, and a site whose every
   * page sets the error off runs out of patience. Once the URL is recorded, what failed after it
   * (telling other origins of their new URLs) costs nothing more.
   */
  private void failed(PendingUrl pending, Throwable e) {
    CrawlContext ctx = session.ctx;
    DueCandidate candidate = pending.candidate();
    String url = candidate.url();
    Optional<FetchResult> result = Optional.ofNullable(fetched);
    droppedTargets.clear();
    newElsewhere.clear();
    // The URLs the origin holds next are read again from the store, where this one is due no longer.
    heldAfter = List.of();
    offeredCandidates = true;
    if (recorded) {
      ctx.run().internalErrors().contained(url, "after its crawl was recorded; the crawl goes on", e);
      return;
    }
    if (!requestLogged) {
      session.logBeforeWrite(session.failedRequest(CrawlAction.Kind.PAGE, url, pending.attempt(), result, e));
    }
    Instant now = ctx.clock().instant();
    int status = result.orElse(null) instanceof FetchResult.Response r ? r.status() : 0;
    Optional<String> contentType = result.orElse(null) instanceof FetchResult.Response r
        ? KeptHeaders.contentType(r) : Optional.empty();
    CrawlRecord record = new CrawlRecord(url, now, Outcome.INTERNAL_ERROR, status,
        result.map(FetchResult::durationMillis).orElse(0L), contentType, -1, Optional.empty(), Optional.empty(),
        Optional.empty(), false, false, Optional.empty(), Optional.empty(),
        ctx.policy().recrawls().nextFetchAt(candidate, Outcome.INTERNAL_ERROR, status, Optional.empty(), now).at());
    try {
      session.handOverLog(); // the log first, as for any page
      ctx.store().record(unwrittenRefusals, record, List.of(), List.of());
    } catch (RuntimeException storeFailure) {
      // The crawl's failure now (an output: it stops), with what led to it (a store's may be that one).
      if (storeFailure != e) storeFailure.addSuppressed(e);
      throw storeFailure;
    } finally {
      unwrittenRefusals.clear();
    }
    session.crawled.add(url);
    ctx.run().internalErrors().contained(url, "recorded as INTERNAL_ERROR, not fetched again until"
        + " forager ctl retry-failed; its origin goes on", e);
    session.losePatience(Outcome.INTERNAL_ERROR + " for " + url);
  }

  /**
   * What came of the page's request: {@link #crawl}'s processing and writes. Returns what is left to
   * do once the gate's permit is given back: telling the embedder's page listener, whose time is not
   * the crawl's to bound.
   */
  private Runnable process(PendingUrl pending, List<DueCandidate> held, FetchResult result) {
    CrawlContext ctx = session.ctx;
    DueCandidate candidate = pending.candidate();
    String url = candidate.url();
    fetched = result;
    boolean outage = session.requestEnded(result);
    Instant now = ctx.clock().instant();

    Classification classification = ctx.policy().classifier().classify(result);
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
    int outOfScopeLinks = 0;
    Optional<String> linksCut = Optional.empty();

    if (result instanceof FetchResult.Response response) {
      // One SHA-1 of the body serves the WARC payload digest and the log's digest.
      BodyDigests digests = BodyDigests.of(response);
      ctx.outputs().warc().write(response, digests);
      status = response.status();
      contentType = KeptHeaders.contentType(response);
      length = response.body().length;
      digest = Optional.of(digests.content());
      etag = KeptHeaders.etag(response);
      lastModified = KeptHeaders.lastModified(response);
      boolean fromSeed = candidate.depth() == 0;
      if (outcome == Outcome.NOT_MODIFIED) {
        etag = etag.or(candidate::etag);
        lastModified = lastModified.or(candidate::lastModified);
        digest = Optional.empty();
      } else if (outcome == Outcome.REDIRECT) {
        redirectTo = classification.location().flatMap(l -> UrlNormalizer.resolve(url, l));
        redirectTo.ifPresent(target -> offerTarget(discovered, target, candidate.depth() + 1, candidate.hops(), url,
            "redirect", fromSeed));
      } else if (outcome == Outcome.FETCHED) {
        if (ContentTypes.isHtml(response)) {
          ExtractedPage page = ctx.extractor().extract(url, response.body(), contentType,
              response.headers("X-Robots-Tag"), response.headers("Link"));
          noindex = page.noindex();
          nofollow = page.nofollow();
          canonical = page.canonical();
          simhash = SimHash.ofHtml(response.body(), page.charset());
          if (canonical.isPresent() && !canonical.get().equals(url)) {
            // The page is a copy: only its canonical URL is worth crawling, one step deeper as a
            // redirect's target is, so that pages each naming the next as canonical (a trap) end at
            // limits.max_depth.
            outcome = Outcome.NON_CANONICAL;
            offerTarget(discovered, canonical.get(), candidate.depth() + 1, candidate.hops(), url, "canonical", fromSeed);
          } else {
            outOfScopeLinks = offerLinks(discovered, page.links(), candidate);
            linksCut = page.linksCut().map(why -> linksCutReason(why, page.links().size()));
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

    Recrawls.Next next = ctx.policy().recrawls().nextFetchAt(candidate, outcome, status, digest, now);
    if (candidate.fetchCount() > 0) ctx.outputs().summary().recrawled(next.seen());
    Instant nextFetchAt = feedback(pending, classification, outcome, status, outage, next.at(), now);
    CrawlRecord record = new CrawlRecord(url, now, outcome, status, result.durationMillis(), contentType,
        length, digest, redirectTo, canonical, noindex, nofollow, etag, lastModified, nextFetchAt,
        duplicateOf, simhash);
    List<Candidate> admitted = ctx.run().origins().admit(session.origin, discovered);
    if (admitted.size() < discovered.size()) { // past scope.max_origins or max_origins_per_domain
      outOfScopeLinks += discovered.size() - admitted.size();
      droppedTargets(discovered, admitted, redirectTo, "redirect", url);
      droppedTargets(discovered, admitted, canonical, "canonical", url);
    }
    // The log first: a request made is always in the log (the audit's evidence), even when the store
    // or the log then fails; after a crash in between, the next run fetches the URL again. The lines
    // reach the OS together, just before the store write (one system call, not one a line).
    Optional<String> unfollowed = unfollowedRedirect(outcome, redirectTo, result);
    Optional<String> cut = linksCut;
    session.logBeforeWrite(session.sentTo(new CrawlAction(result.startedAt(), CrawlAction.Kind.PAGE, url, outcome, status,
        contentType, Math.max(length, 0), result.durationMillis(), redirectTo, digest, pending.attempt(),
        session.politeness.delayMillis(),
        duplicateOf.map(first -> "duplicate of " + first).or(() -> unfollowed)
            .or(() -> OriginSession.reasonOf(result)).or(() -> cut), outOfScopeLinks)
        .withRetryAfter(classification.retryAfter()),
        result));
    requestLogged = true;
    logDroppedTargets();
    List<Candidate> toStore = notCrawledLately(admitted);
    // The store says what the URLs the origin holds next are once this page's candidates are in. The
    // turn's refusals go with the page's write, before it: one store call.
    newElsewhere.clear();
    try {
      // The page's line and the turn's refusals reach the OS when the gate has decided (gate.decided),
      // before the write.
      List<DueCandidate> after = ctx.store().record(unwrittenRefusals, record, toStore, held, gate);
      recorded = true;
      if (!held.isEmpty()) heldAfter = after;
    } finally {
      unwrittenRefusals.clear();
    }
    offeredCandidates = !toStore.isEmpty();
    session.crawled.add(url);
    // Other origins have new work only where the page added URLs: a link to a URL the store knew woke
    // its origin when that URL was added (waking every linked origin, most of them running, was 2 % of
    // a crawl's CPU: docs/benchmarks.md, session 39). A store that does not say which are new: all.
    session.wakeOtherOrigins(ctx.store().offersUnknownToGate() ? newElsewhere : admitted);
    newElsewhere.clear();
    if (!(result instanceof FetchResult.Response response) || ctx.outputs().pageListener() == PageListener.NONE) {
      return NOTHING;
    }
    Outcome told = outcome;
    return () -> tellListener(response, candidate, told, admitted);
  }

  private static final Runnable NOTHING = () -> {};

  /**
   * Offers a page's links as candidates one level deeper; returns how many are out of scope. (Its own
   * method, like the other loops of a page: a loop in {@link #crawl}, which a thousand origins wait in
   * at the fetch when the JIT replaces it, had it compiled twice more on the stack.)
   */
  private int offerLinks(List<Candidate> discovered, List<String> links, DueCandidate from) {
    Scope scope = session.ctx.policy().gatekeeper().scope();
    // Whether a URL is in the scope proper depends on its origin alone (scheme, host and port in
    // every scope mode), so most of a page's links, to its own origin, share one answer (two scope
    // lookups a link were 1.7 % of a crawl's CPU: docs/benchmarks.md, issue 15).
    Boolean ownOriginContained = null; // not looked up yet
    int outOfScope = 0;
    for (String link : links) {
      boolean contained;
      if (isOfOwnOrigin(link)) {
        if (ownOriginContained == null) ownOriginContained = scope.contains(link);
        contained = ownOriginContained;
      } else {
        contained = scope.contains(link);
      }
      int hops = contained ? 0 : from.hops() + 1;
      if (!offer(discovered, link, from.depth() + 1, hops, from.url(), contained)
          && !contained && !scope.reachableOutside(link, hops)) {
        outOfScope++;
      }
    }
    return outOfScope;
  }

  /** Whether the (normalized) URL is of the origin crawled: {@code scheme://host[:port]}, then a path, query or end. */
  private boolean isOfOwnOrigin(String url) {
    if (!url.startsWith(originPrefix)) return false;
    if (url.length() == originPrefix.length()) return true;
    char next = url.charAt(originPrefix.length());
    return next == '/' || next == '?' || next == '#';
  }

  /**
   * The page's {@code target} (a redirect's or a canonical's) when it was offered and the origins
   * refused it (past scope.max_origins or max_origins_per_domain): OUT_OF_SCOPE, said in the log.
   */
  private void droppedTargets(List<Candidate> discovered, List<Candidate> admitted, Optional<String> target,
      String what, String from) {
    if (target.isEmpty() || session.origin.contains(target.get())) return;
    String url = target.get();
    if (discovered.stream().noneMatch(c -> c.url().equals(url)) || admitted.stream().anyMatch(c -> c.url().equals(url))) {
      return;
    }
    droppedTargets.add(CrawlAction.withoutRequest(session.ctx.clock().instant(), CrawlAction.Kind.PAGE, url,
        Outcome.OUT_OF_SCOPE, 1, session.politeness.delayMillis(), what + " of " + from
            + ": its origin is past scope.max_origins or scope.max_origins_per_domain"));
  }

  private void logDroppedTargets() {
    for (CrawlAction target : droppedTargets) session.logBeforeWrite(target);
    droppedTargets.clear();
  }

  /** Links to URLs of the origin crawled lately change nothing in the store: not sent there. */
  private List<Candidate> notCrawledLately(List<Candidate> admitted) {
    List<Candidate> toStore = new ArrayList<>(admitted.size());
    for (Candidate c : admitted) {
      if (!session.crawled.contains(c.url())) toStore.add(c);
    }
    return toStore;
  }

  /**
   * The URLs held when the last page was crawled as they are once its candidates are in the store
   * ({@link org.forager.store.CrawlStore#record(CrawlRecord, java.util.Collection, List)}): the
   * origin's next due URLs, or a first part of them (none when the store could not say).
   */
  List<DueCandidate> heldAfter() {
    return heldAfter;
  }

  /** Whether the last page crawled offered candidates to the store (which may reorder what is due). */
  boolean offeredCandidates() {
    return offeredCandidates;
  }

  /**
   * What the answer means for the origin (delay, patience, retries) and so for the URL's next due
   * time: {@code nextFetchAt} as the recrawl policy has it, or now when a retry was queued, or later
   * when the site asked to wait longer than politeness.max_retry_after.
   */
  private Instant feedback(PendingUrl pending, Classification classification, Outcome outcome, int status,
      boolean outage, Instant nextFetchAt, Instant now) {
    CrawlContext ctx = session.ctx;
    String url = pending.candidate().url();
    session.answered(classification.feedback() == Feedback.DENIED, classification.feedback() == Feedback.RATE_LIMITED,
        status + " for " + url);
    switch (classification.feedback()) {
      case OK, DENIED -> session.politeness.answeredNormally();
      case RATE_LIMITED -> {
        session.politeness.rateLimited();
        Duration wait = classification.retryAfter().orElse(Duration.ofMillis(session.politeness.delayMillis()));
        if (session.waitAsAsked(wait, now)) return now.plus(wait); // beyond max_retry_after: a later run
        if (retries.retry(pending, session.notBefore(), true)) return now;
      }
      case TRANSIENT -> {
        long readyAt = session.lastRequestEnd() + session.backoffMillis(pending.attempt()) * 1_000_000L;
        // The crawler's network is down: the URL is tried again as it was once it is back.
        if (retries.retry(pending, readyAt, !outage)) return now;
      }
      case PERSISTENT -> session.losePatience(outcome + " for " + url);
      case REFUSED -> session.giveUp();
    }
    return nextFetchAt;
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
    PageListener listener = session.ctx.outputs().pageListener();
    if (listener == PageListener.NONE) return; // no page or link list built for no one
    try {
      listener.onPage(new FetchedPage(response.url(), candidate.depth(), outcome,
          response.status(), response.headers(), response.body(), discovered.stream().map(Candidate::url).toList()));
    } catch (RuntimeException e) {
      Notice.println("forager: the page listener failed on " + response.url() + ": " + e);
    } catch (Error e) {
      // The page is recorded: the listener's error is the embedder's, said and counted, and the crawl goes on.
      InternalErrors errors = session.ctx.run().internalErrors();
      if (!errors.containable(e)) throw e;
      errors.contained(response.url(), "in the page listener; the page is recorded as crawled", e);
    }
  }

  /** Adds the URL to the candidates when the discovery gates let it; whether they did. */
  private boolean offer(List<Candidate> discovered, String url, int depth, int hops, String from) {
    return offer(discovered, url, depth, hops, from, session.ctx.policy().gatekeeper().scope().contains(url));
  }

  /** {@link #offer(List, String, int, int, String)} for a URL whose place in the scope proper is known. */
  private boolean offer(List<Candidate> discovered, String url, int depth, int hops, String from, boolean contained) {
    if (session.ctx.policy().gatekeeper().isCandidate(url, depth, hops, contained)) {
      discovered.add(new Candidate(url, depth, Optional.of(from), hops, session.ctx.policy().ranking()));
      return true;
    }
    return false;
  }

  /**
   * A redirect or canonical target: offered like a link, but never dropped in silence when it leaves
   * the scope: an {@code OUT_OF_SCOPE} action says so, and a seed's redirect out of scope is noted for
   * the run's summary with the setting that would include it.
   */
  private void offerTarget(List<Candidate> discovered, String target, int depth, int fromHops, String from,
      String what, boolean fromSeed) {
    CrawlContext ctx = session.ctx;
    int hops = ctx.policy().gatekeeper().scope().hopsTo(target, fromHops);
    if (offer(discovered, target, depth, hops, from)) return;
    Optional<String> outOfScope = ctx.policy().gatekeeper().outOfScope(target, hops);
    if (outOfScope.isEmpty()) {
      // A trap limit or a skipped extension: the target is not followed, and the log says why.
      if (ctx.policy().gatekeeper().check(target, depth, hops) instanceof Verdict.Rejected rejected) {
        droppedTargets.add(CrawlAction.withoutRequest(ctx.clock().instant(), CrawlAction.Kind.PAGE, target,
            rejected.outcome(), 1, session.politeness.delayMillis(), what + " of " + from + ": " + rejected.reason()));
      }
      return;
    }
    droppedTargets.add(CrawlAction.withoutRequest(ctx.clock().instant(), CrawlAction.Kind.PAGE, target,
        Outcome.OUT_OF_SCOPE, 1, session.politeness.delayMillis(), what + " of " + from + ": " + outOfScope.get()));
    if (fromSeed) {
      ctx.outputs().summary().note("seed " + from + " " + (what.equals("redirect") ? "redirects to " : "names as canonical ")
          + target + ", " + outOfScope.get() + ScopeHints.toInclude(from, target, ctx.policy().gatekeeper().scope()));
    }
  }
}
