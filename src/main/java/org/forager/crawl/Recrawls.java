package org.forager.crawl;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.Outcome;
import org.forager.recrawl.Decision;
import org.forager.recrawl.Observation;
import org.forager.recrawl.RecrawlPolicy;
import org.forager.recrawl.RecrawlState;
import org.forager.store.CrawlRecord;
import org.forager.store.CrawlStore;
import org.forager.store.DueCandidate;
import org.forager.store.UrlRecord;

/**
 * When a URL is due again after a crawl action, by {@link RecrawlPolicy}. The policy's state of a URL
 * is not stored: it is rebuilt by replaying the URL's last {@value #REPLAY} crawl actions from its
 * history, which the store keeps anyway. A first fetch (the bulk of a growing crawl) reads nothing.
 * Thread-safe.
 */
final class Recrawls {

  /** How many past actions are replayed: the policy's memory fades after about five comparisons. */
  static final int REPLAY = 20;

  /** The due time of a retired URL (gone for good): never, in practice. */
  static final Instant RETIRED = Instant.parse("9999-12-31T00:00:00Z");

  private final RecrawlPolicy policy;
  private final CrawlStore store;

  Recrawls(RecrawlPolicy policy, CrawlStore store) {
    this.policy = policy;
    this.store = store;
  }

  /** When a URL is due again, and what this action saw of it (for a recrawl: changed or not). */
  record Next(Instant at, Observation seen) {}

  Next nextFetchAt(DueCandidate candidate, Outcome outcome, int httpStatus, Optional<String> digest, Instant now) {
    Replayed past = candidate.fetchCount() > 0
        ? replay(candidate.url()) : new Replayed(policy.initialState(), Optional.empty());
    Observation seen = Observation.of(outcome, httpStatus, past.digest(), digest);
    Decision decision = policy.decide(past.state(), seen, now);
    return new Next(decision instanceof Decision.Recrawl recrawl ? recrawl.at() : RETIRED, seen);
  }

  /**
   * A sitemap listed a known URL with {@code <lastmod>}: brings the URL's due time forward when the
   * page changed after its last fetch ({@link RecrawlPolicy#afterSitemapLastmod}).
   *
   * @return the new due time, when it moved
   */
  Optional<Instant> afterSitemapLastmod(String url, Instant lastmod, Instant now) {
    Optional<UrlRecord> known = store.url(url);
    if (known.isEmpty() || known.get().fetchCount() == 0) return Optional.empty(); // due first anyway
    Instant scheduled = known.get().nextFetchAt();
    Optional<CrawlRecord> last = known.get().lastCrawl();
    if (last.isPresent() && bringsContent(last.get()) && !lastmod.isAfter(last.get().fetchedAt())) {
      return Optional.empty(); // not changed since the last content fetch: no need to read the history
    }
    Instant due = policy.afterSitemapLastmod(replay(url).state(), scheduled, lastmod, now);
    return due.isBefore(scheduled) && store.bringForward(url, due) ? Optional.of(due) : Optional.empty();
  }

  /** Whether the policy counts the action as a content fetch (its time is the state's lastContentAt). */
  private static boolean bringsContent(CrawlRecord crawl) {
    return switch (Observation.of(crawl.outcome(), crawl.httpStatus(), Optional.empty(), crawl.digest())) {
      case FIRST, CHANGED, UNCHANGED -> true;
      default -> false;
    };
  }

  private record Replayed(RecrawlState state, Optional<String> digest) {}

  /** The policy's state of a URL and its last digest, from its last {@value #REPLAY} crawl actions. */
  private Replayed replay(String url) {
    RecrawlState state = policy.initialState();
    Optional<String> previousDigest = Optional.empty();
    List<CrawlRecord> history = store.history(url);
    for (CrawlRecord past : history.subList(Math.max(0, history.size() - REPLAY), history.size())) {
      Observation seen = Observation.of(past.outcome(), past.httpStatus(), previousDigest, past.digest());
      state = policy.decide(state, seen, past.fetchedAt()).state();
      if (past.digest().isPresent()) previousDigest = past.digest();
    }
    return new Replayed(state, previousDigest);
  }
}
