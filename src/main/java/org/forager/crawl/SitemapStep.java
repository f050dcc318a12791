package org.forager.crawl;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.FetchRequest;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Outcome;
import org.forager.policy.Verdict;
import org.forager.record.CrawlAction;
import org.forager.robots.RobotsRules;
import org.forager.sitemap.SitemapReader;
import org.forager.sitemap.SitemapResult;
import org.forager.store.Candidate;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;

/**
 * Reads the origin's sitemaps, one file a turn, after robots.txt: page URLs become candidates (depth
 * 1, found on the sitemap) when they pass the discovery gates; an index's children are queued; a
 * {@code <lastmod>} brings a known URL forward. Confined to the origin's turns; not thread-safe.
 */
final class SitemapStep {

  private final OriginSession session;
  private final SitemapQueue queue;
  /** How far the file being fetched got, for an internal error ({@link #fetch}): sent, what came back, logged. */
  private boolean requestSent;
  private FetchResult fetched;
  private boolean logged;

  SitemapStep(OriginSession session) {
    this.session = session;
    this.queue = new SitemapQueue(session.origin, session.ctx.config().sitemaps(),
        session.ctx.config().limits().maxUrlLength());
  }

  /** Whether sitemaps may still be read this run (before robots.txt tells which, or files left). */
  boolean hasWork() {
    return queue.hasWork();
  }

  /** Whether this run read (or began to read) the origin's sitemaps. */
  boolean read() {
    return queue.started();
  }

  /** The origin's sitemaps were read earlier in this run: not again. */
  void alreadyRead() {
    queue.alreadyRead();
  }

  /** Whether a sitemap file is waiting to be fetched, now that robots.txt says which there are. */
  boolean hasNext(RobotsRules robots) {
    logElsewhere(queue.start(robots), "the robots.txt of " + session.origin);
    return queue.hasNext();
  }

  /**
   * Sitemaps listed (by robots.txt or an index) on another origin: their requests would owe that
   * origin's delay, not this one's, so they are not read from here (that origin reads a sitemap its own
   * robots.txt lists). Logged, never dropped in silence.
   */
  private void logElsewhere(List<String> urls, String listedBy) {
    for (String url : urls) {
      session.log(session.refusal(CrawlAction.Kind.SITEMAP, url, new Verdict.Rejected(Outcome.OUT_OF_SCOPE,
          "a sitemap on another origin, listed by " + listedBy + ": read only by its own origin"), 1));
    }
  }

  /**
   * Fetches the next sitemap file (this turn's request). The fetch is a request like any other,
   * through the request gate and robots.txt first, logged as a {@code sitemap} action and written to
   * the WARC; it is not itself a candidate.
   */
  void fetchNext(RobotsRules robots) {
    fetch(queue.next().orElseThrow(), robots);
  }

  /**
   * {@link #fetchUnguarded}, where an error or exception the crawl survives ({@link InternalErrors}) is
   * the file's failure: before its request, the file is refused (the gates could not say it may be
   * fetched: closed, as a gate that refuses); after it, the request is logged INTERNAL_ERROR unless its
   * line was already, and costs the origin a patience point, as a persistent failure does. The origin
   * goes on (its next sitemap, its pages); what the file's entries added before the error stays. The
   * file is read again at the next reading of the origin's sitemaps, as after any failure.
   */
  private void fetch(String url, RobotsRules robots) {
    requestSent = false;
    logged = false;
    try {
      fetchUnguarded(url, robots);
    } catch (RuntimeException | Error e) {
      if (!session.ctx.run().internalErrors().containable(e)) throw e;
      if (!requestSent) {
        session.log(session.refusal(CrawlAction.Kind.SITEMAP, url,
            new Verdict.Rejected(Outcome.BLOCKED_URL_BY_LOCAL_POLICY, InternalErrors.gateReason(e)), 1));
      } else if (!logged) {
        session.log(session.failedRequest(CrawlAction.Kind.SITEMAP, url, 1, Optional.ofNullable(fetched), e));
      }
      session.ctx.run().internalErrors().contained(url, (requestSent ? "the sitemap is not read" : "the sitemap is"
          + " refused") + "; its origin goes on", e);
      if (requestSent) session.losePatience(Outcome.INTERNAL_ERROR + " for sitemap " + url);
    } finally {
      fetched = null; // not kept to the origin's next turn: a sitemap file may be megabytes
    }
  }

  private void fetchUnguarded(String url, RobotsRules robots) {
    CrawlContext ctx = session.ctx;
    fetched = null;
    if (ctx.policy().gatekeeper().checkRequest(url) instanceof Verdict.Rejected rejected) {
      session.log(session.refusal(CrawlAction.Kind.SITEMAP, url, rejected, 1));
      return;
    }
    if (!robots.isAllowed(url)) {
      session.log(session.refusal(CrawlAction.Kind.SITEMAP, url,
          new Verdict.Rejected(Outcome.BLOCKED_BY_ROBOTS_TXT, "robots.txt"), 1));
      return;
    }
    session.requestStarting();
    requestSent = true;
    FetchResult result = ctx.network().fetcher().fetch(FetchRequest.of(url).connectingTo(session.requestAddress()));
    fetched = result;
    if (session.requestEnded(result)) {
      // The crawler's network is down: the file is read again once it is back, as if not asked. Logged
      // as it failed: a request was made.
      session.log(session.action(result, CrawlAction.Kind.SITEMAP, ctx.policy().classifier().classify(result).outcome(),
          Optional.empty(), 1, Optional.empty()));
      logged = true;
      queue.again(url);
      return;
    }
    Classification classification = ctx.policy().classifier().classify(result);
    Optional<String> note = Optional.empty();
    Outcome outcome = classification.outcome();
    if (result instanceof FetchResult.Response response) {
      ctx.outputs().warc().write(response);
      if (outcome == Outcome.FETCHED) {
        note = Optional.of(read(response));
        if (response.truncated()) {
          // Read as far as it came, and logged as a page's cut body is: TRUNCATED, and why.
          outcome = Outcome.TRUNCATED;
          note = Optional.of(note.get() + "; body cut: " + OriginSession.reasonOf(response).orElse("truncated"));
        }
      }
    }
    switch (classification.feedback()) {
      case OK, DENIED -> session.politeness.answeredNormally();
      case RATE_LIMITED -> {
        // Not retried (read again next run), but the origin's next request waits as the site asked.
        session.politeness.rateLimited();
        classification.retryAfter().ifPresent(wait -> session.waitAsAsked(wait, ctx.clock().instant()));
      }
      case PERSISTENT -> session.losePatience(classification.outcome() + " for sitemap " + url);
      case REFUSED -> session.giveUp();
      case TRANSIENT -> { } // not retried: sitemaps are read again next run
    }
    session.log(session.action(result, CrawlAction.Kind.SITEMAP, outcome,
        classification.location().flatMap(l -> UrlNormalizer.resolve(url, l)), 1, note)
        .withRetryAfter(classification.retryAfter()));
    logged = true;
  }

  private String read(FetchResult.Response response) {
    CrawlContext ctx = session.ctx;
    int[] counts = new int[2]; // new, due sooner: the reader hands the entries on in batches as it reads
    long notLoggedBefore = queue.elsewhereNotLogged();
    SitemapResult result = SitemapReader.read(response.url(), response.body(), response.header("Content-Type"),
        ctx.clock().instant(), batch -> {
          List<Candidate> candidates = new ArrayList<>();
          List<SitemapResult.Entry> modified = new ArrayList<>();
          for (SitemapResult.Entry entry : batch) {
            Optional<String> url = UrlNormalizer.normalize(entry.url());
            // Outside the seeds' domains (a site a domains crawl wandered to), a sitemap speaks only for
            // its own origin, as the sitemap protocol says, and its entries are at the edge of
            // scope.max_hops: taken, but their links outside lead no further. An entry naming another
            // site out there would hand the crawl on from sitemap to sitemap past the bound.
            boolean inside = url.isPresent() && ctx.policy().gatekeeper().inScope(url.get());
            if (url.isPresent() && !inside && !session.origin.contains(url.get())) continue;
            int hops = inside ? 0 : ctx.policy().gatekeeper().scope().maxHops();
            url = url.filter(u -> ctx.policy().gatekeeper().isCandidate(u, 1, hops));
            if (url.isEmpty()) continue;
            candidates.add(new Candidate(url.get(), 1, Optional.of(response.url()), hops,
                ctx.sitemapRanking(entry.priority())));
            // A lastmod brings forward a recrawl of the sitemap's own origin only: another site's pages
            // on one host's word would let a hostile sitemap set the pace of any site of the crawl.
            if (entry.lastmod().isPresent() && session.origin.contains(url.get())) {
              modified.add(new SitemapResult.Entry(url.get(), entry.lastmod()));
            }
          }
          List<Candidate> admitted = ctx.run().origins().admit(session.origin, candidates);
          counts[0] += ctx.store().addCandidates(admitted);
          session.wakeOtherOrigins(admitted);
          counts[1] += bringForwardModified(modified);
        }, children -> logElsewhere(queue.add(children), "the sitemap index " + response.url()));
    return switch (result) {
      case SitemapResult.Failure failure ->
          failure.reason().startsWith("not a sitemap") ? failure.reason() : "not a sitemap: " + failure.reason();
      case SitemapResult.Index index ->
          "sitemap index of " + index.sitemaps() + " files" + index.cut().map(c -> ", cut: " + c).orElse("")
              + notLogged(queue.elsewhereNotLogged() - notLoggedBefore);
      case SitemapResult.UrlSet set -> "sitemap of " + set.urls() + " URLs, " + counts[0] + " new"
          + (counts[1] > 0 ? ", " + counts[1] + " due sooner by lastmod" : "")
          + set.cut().map(c -> ", cut: " + c).orElse("");
    };
  }

  /** The index's children on other origins that have no line of their own, when any. */
  private static String notLogged(long n) {
    return n == 0 ? "" : ", " + n + " on other origins not logged one by one (past sitemaps.max_files of them, or"
        + " longer than limits.max_url_length)";
  }

  /**
   * Known URLs of this origin the sitemap says changed since their last fetch come due sooner (a hint,
   * bounded by {@code recrawl.min_interval}); returns how many moved. New URLs are due at once anyway;
   * the origin asks the store for due URLs as it goes.
   */
  private int bringForwardModified(List<SitemapResult.Entry> modified) {
    CrawlContext ctx = session.ctx;
    Instant now = ctx.clock().instant();
    int moved = 0;
    for (SitemapResult.Entry entry : modified) {
      if (ctx.policy().recrawls().afterSitemapLastmod(entry.url(), entry.lastmod().orElseThrow(), now).isPresent()) {
        moved++;
      }
    }
    return moved;
  }
}
