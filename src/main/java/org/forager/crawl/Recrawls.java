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

  Instant nextFetchAt(DueCandidate candidate, Outcome outcome, int httpStatus, Optional<String> digest, Instant now) {
    RecrawlState state = policy.initialState();
    Optional<String> previousDigest = Optional.empty();
    if (candidate.fetchCount() > 0) {
      List<CrawlRecord> history = store.history(candidate.url());
      for (CrawlRecord past : history.subList(Math.max(0, history.size() - REPLAY), history.size())) {
        Observation seen = Observation.of(past.outcome(), past.httpStatus(), previousDigest, past.digest());
        state = policy.decide(state, seen, past.fetchedAt()).state();
        if (past.digest().isPresent()) previousDigest = past.digest();
      }
    }
    Decision decision = policy.decide(state, Observation.of(outcome, httpStatus, previousDigest, digest), now);
    return decision instanceof Decision.Recrawl recrawl ? recrawl.at() : RETIRED;
  }
}
