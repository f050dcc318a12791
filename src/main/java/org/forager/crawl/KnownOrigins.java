package org.forager.crawl;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongPredicate;
import org.forager.store.Candidate;
import org.forager.store.CrawlStore;
import org.forager.url.Origin;

/**
 * The origins the crawl has taken on: the seeds' and, beyond the {@code origins} scope, each new one a
 * candidate brings (a redirect to {@code https://www.}, a subdomain, another site in {@code open}
 * mode). A new origin is added to the store's scope before any candidate of it is stored, so a crash
 * never leaves candidates of an origin the next run does not know; past {@code scope.max_origins}
 * candidates of further origins are dropped. Thread-safe; the check for a known origin is a set
 * lookup, taking one on is rare and serialized.
 *
 * <p>Held in the heap for now: issue 14 moves origins into the store with a bounded working set.
 */
final class KnownOrigins {

  private final Set<Origin> known = ConcurrentHashMap.newKeySet();
  private final CrawlStore store;
  private final LongPredicate mayAdd;
  private final AtomicBoolean capReported = new AtomicBoolean();

  /**
   * @param mayAdd whether one more origin may be taken on, given how many are known ({@code
   *     scope.max_origins})
   */
  KnownOrigins(CrawlStore store, Collection<Origin> initial, LongPredicate mayAdd) {
    this.store = store;
    this.mayAdd = mayAdd;
    known.addAll(initial);
  }

  boolean contains(Origin origin) {
    return known.contains(origin);
  }

  int size() {
    return known.size();
  }

  /**
   * The candidates whose origin the crawl has or now takes on, in their order; new origins are in
   * the store's scope when this returns. {@code home}'s own candidates pass without a lookup.
   */
  List<Candidate> admit(Origin home, List<Candidate> candidates) {
    Set<Origin> fresh = null;
    for (Candidate c : candidates) {
      if (home.contains(c.url())) continue;
      Origin origin = Origin.ofUrl(c.url());
      if (known.contains(origin)) continue;
      if (fresh == null) fresh = new LinkedHashSet<>();
      fresh.add(origin);
    }
    if (fresh == null) return candidates;
    Set<Origin> refused = takeOn(fresh);
    if (refused.isEmpty()) return candidates;
    List<Candidate> admitted = new ArrayList<>(candidates.size());
    for (Candidate c : candidates) {
      if (home.contains(c.url()) || !refused.contains(Origin.ofUrl(c.url()))) admitted.add(c);
    }
    return admitted;
  }

  /**
   * Takes on the new origins of one page (or sitemap batch) in one store write, up to
   * scope.max_origins; returns those refused. One write for a page of a hundred thousand new hosts,
   * not one each.
   */
  private synchronized Set<Origin> takeOn(Set<Origin> fresh) {
    fresh.removeIf(known::contains);
    List<Origin> taken = new ArrayList<>();
    Set<Origin> refused = new HashSet<>();
    for (Origin origin : fresh) {
      if (mayAdd.test(known.size() + taken.size())) taken.add(origin);
      else refused.add(origin);
    }
    if (!taken.isEmpty()) {
      store.addDiscoveredOrigins(taken);
      known.addAll(taken);
    }
    if (!refused.isEmpty() && capReported.compareAndSet(false, true)) {
      Notice.printf("forager: scope.max_origins (%,d) reached: links to further origins are not followed",
          known.size());
    }
    return refused;
  }
}
