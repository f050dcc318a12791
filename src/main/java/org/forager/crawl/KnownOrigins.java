package org.forager.crawl;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import org.forager.dns.IpLiterals;
import org.forager.scope.RegistrableDomain;
import org.forager.store.Candidate;
import org.forager.store.CrawlStore;
import org.forager.url.Origin;

/**
 * The origins the crawl has taken on: the seeds' and, beyond the {@code origins} scope, each new one a
 * candidate brings (a redirect to {@code https://www.}, a subdomain, another site in {@code open}
 * mode). A new origin is added to the store's scope before any candidate of it is stored, so a crash
 * never leaves candidates of an origin the next run does not know; past {@code scope.max_origins}
 * candidates of further origins are dropped, and so are those of a registrable domain that has
 * {@code scope.max_origins_per_domain} origins already (a seed added to a running crawl excepted: the
 * operator named it). Thread-safe.
 *
 * <p>The store holds them all; the heap only a bounded cache of those met lately ({@value #CACHED}),
 * so a crawl knowing ten million origins does not keep ten million here (issue 14). A page's links to
 * origins not in the cache cost one store lookup for all of them; taking one on is rare and
 * serialized. The count against {@code scope.max_origins} is read from the store at the start and
 * counted on; fleet processes taking origins on at once may each count one the other took on too,
 * so the cap holds within the count of processes. The origins per domain are counted in fixed memory
 * ({@link OriginsPerDomain}), from a scan of the store's scope when the first new origin comes (a crawl
 * of the seeds' origins alone never pays for it), and the same holds for them.
 */
final class KnownOrigins {

  /** Origins remembered in the heap at most; the cache starts afresh when full. */
  static final int CACHED = 100_000;
  /** Origins read a store call while counting the origins per domain. */
  private static final int SCAN_PAGE = 10_000;
  /** Domains named on the terminal when they reach scope.max_origins_per_domain. */
  static final int NAMED_FULL_DOMAINS = 10;

  private final Set<Origin> cached = ConcurrentHashMap.newKeySet();
  private final CrawlStore store;
  private final LongPredicate mayAdd;
  private final AtomicLong count;
  private final AtomicBoolean capReported = new AtomicBoolean();
  private final long maxOriginsPerDomain;
  /** Counted from the store at the first origin taken on; guarded by {@code this}. */
  private OriginsPerDomain perDomain;
  /** The domains named on the terminal as full; guarded by {@code this}. */
  private final Set<String> fullDomainsNamed = new HashSet<>();

  /**
   * @param mayAdd whether one more origin may be taken on, given how many are known ({@code
   *     scope.max_origins})
   * @param maxOriginsPerDomain the most origins of one registrable domain taken on ({@code
   *     scope.max_origins_per_domain})
   */
  KnownOrigins(CrawlStore store, LongPredicate mayAdd, long maxOriginsPerDomain) {
    this.store = store;
    this.mayAdd = mayAdd;
    this.maxOriginsPerDomain = maxOriginsPerDomain;
    this.count = new AtomicLong(store.scopeCount());
  }

  /** How many origins the crawl knows. */
  long size() {
    return count.get();
  }

  /**
   * The candidates whose origin the crawl has or now takes on, in their order; new origins are in
   * the store's scope when this returns. {@code home}'s own candidates pass without a lookup.
   */
  List<Candidate> admit(Origin home, List<Candidate> candidates) {
    Set<Origin> unknown = null;
    for (Candidate c : candidates) {
      if (home.contains(c.url())) continue;
      Origin origin = Origin.ofUrl(c.url());
      if (cached.contains(origin)) continue;
      if (unknown == null) unknown = new LinkedHashSet<>();
      unknown.add(origin);
    }
    if (unknown == null) return candidates;
    Set<Origin> known = store.inScope(unknown);
    known.forEach(this::remember);
    unknown.removeAll(known);
    if (unknown.isEmpty()) return candidates;
    Set<Origin> refused = takeOn(unknown, false);
    if (refused.isEmpty()) return candidates;
    List<Candidate> admitted = new ArrayList<>(candidates.size());
    for (Candidate c : candidates) {
      if (home.contains(c.url()) || !refused.contains(Origin.ofUrl(c.url()))) admitted.add(c);
    }
    return admitted;
  }

  /**
   * Whether the crawl has the origin of {@code url} (normalized) or now takes it on (a seed added to
   * a running crawl), within scope.max_origins; a seed is not held to scope.max_origins_per_domain.
   */
  boolean admit(String url) {
    Origin origin = Origin.ofUrl(url);
    if (cached.contains(origin)) return true;
    if (!store.inScope(Set.of(origin)).isEmpty()) {
      remember(origin);
      return true;
    }
    return takeOn(new LinkedHashSet<>(Set.of(origin)), true).isEmpty();
  }

  /**
   * Takes on the new origins of one page (or sitemap batch) in one store write, up to
   * scope.max_origins and, unless they are seeds, scope.max_origins_per_domain; returns those refused.
   * One write for a page of a hundred thousand new hosts, not one each.
   */
  private synchronized Set<Origin> takeOn(Set<Origin> fresh, boolean seeds) {
    fresh.removeIf(cached::contains); // taken on by another page meanwhile
    List<Origin> taken = new ArrayList<>();
    Set<Origin> refused = new HashSet<>();
    OriginsPerDomain domains = perDomain();
    for (Origin origin : fresh) {
      String domain = domainOf(origin.host());
      if (!mayAdd.test(count.get() + taken.size())) {
        refused.add(origin);
      } else if (!seeds && domains.estimate(domain) >= maxOriginsPerDomain) {
        refused.add(origin);
        reportFull(domain);
      } else {
        taken.add(origin);
        domains.add(domain);
      }
    }
    if (!taken.isEmpty()) {
      store.addDiscoveredOrigins(taken);
      count.addAndGet(taken.size());
      taken.forEach(this::remember);
    }
    if (!refused.isEmpty() && !mayAdd.test(count.get()) && capReported.compareAndSet(false, true)) {
      Notice.printf("forager: scope.max_origins (%,d) reached: links to further origins are not followed",
          count.get());
    }
    return refused;
  }

  /** The origins per domain, counted from the store's scope the first time they are needed. */
  private OriginsPerDomain perDomain() {
    if (perDomain == null) {
      OriginsPerDomain counted = new OriginsPerDomain();
      Optional<Origin> after = Optional.empty();
      for (List<Origin> page; !(page = store.scopeOrigins(after, SCAN_PAGE)).isEmpty(); ) {
        for (Origin origin : page) counted.add(domainOf(origin.host()));
        after = Optional.of(page.get(page.size() - 1));
      }
      perDomain = counted;
    }
    return perDomain;
  }

  /**
   * What scope.max_origins_per_domain counts a host under: its registrable domain, or for an IP address
   * its network, a /24 of IPv4 or a /64 of IPv6 (what one customer of a hoster or an ISP holds: links to
   * {@code [2001:db8::1]}, {@code [2001:db8::2]}, … would otherwise each be a domain of their own).
   */
  static String domainOf(String host) {
    Optional<InetAddress> ip = IpLiterals.parse(host);
    if (ip.isEmpty()) return RegistrableDomain.of(host);
    byte[] address = ip.get().getAddress();
    int kept = address.length == 4 ? 3 : 8;
    return HexFormat.of().formatHex(address, 0, kept) + "/" + kept * 8;
  }

  /** Names a domain found full on the terminal, the first few only: a web of traps would flood it. */
  private void reportFull(String domain) {
    if (fullDomainsNamed.size() > NAMED_FULL_DOMAINS || !fullDomainsNamed.add(domain)) return;
    if (fullDomainsNamed.size() > NAMED_FULL_DOMAINS) {
      Notice.println("forager: more domains reached scope.max_origins_per_domain; not named further");
    } else {
      Notice.printf("forager: %s has %,d origins (scope.max_origins_per_domain): links to further hosts of it"
          + " are not followed", domain, maxOriginsPerDomain);
    }
  }

  private void remember(Origin origin) {
    // A crude bound: starting afresh costs a store lookup per origin met again, never correctness.
    if (cached.size() >= CACHED) cached.clear();
    cached.add(origin);
  }
}
