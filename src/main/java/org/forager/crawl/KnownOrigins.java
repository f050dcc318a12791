package org.forager.crawl;

import java.util.ArrayList;
import java.util.Collection;
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
    List<Candidate> admitted = null;
    for (int i = 0; i < candidates.size(); i++) {
      Candidate c = candidates.get(i);
      boolean ok = home.contains(c.url()) || known.contains(Origin.ofUrl(c.url())) || takeOn(Origin.ofUrl(c.url()));
      if (!ok && admitted == null) admitted = new ArrayList<>(candidates.subList(0, i));
      if (ok && admitted != null) admitted.add(c);
    }
    return admitted == null ? candidates : admitted;
  }

  private synchronized boolean takeOn(Origin origin) {
    if (known.contains(origin)) return true;
    if (!mayAdd.test(known.size())) {
      if (capReported.compareAndSet(false, true)) {
        Notice.printf("forager: scope.max_origins (%,d) reached: links to further origins are not followed",
            known.size());
      }
      return false;
    }
    store.addScope(List.of(origin));
    known.add(origin);
    return true;
  }
}
