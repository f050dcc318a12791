package org.forager.crawl;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.forager.dns.CachingResolver;
import org.forager.frontier.Scheduler;
import org.forager.record.RunSummary;
import org.forager.store.CrawlStore;
import org.forager.url.Origin;

/** The {@link RunView} of a run in progress. Thread-safe as its parts are. */
record LiveRun(Instant started, RunSummary summary, Scheduler scheduler, CrawlStore store,
    Collection<OriginCrawler> crawlers, CachingResolver dnsCache, KnownOrigins scope,
    Supplier<List<OriginSnapshot>> finished, NetworkHealth health) implements RunView {

  @Override
  public boolean networkDown() {
    return health.down();
  }

  @Override
  public long originsInScope() {
    return scope.size();
  }

  @Override
  public DnsCounts dns() {
    return new DnsCounts(dnsCache.lookups(), dnsCache.cacheHits(), dnsCache.negativeHits(), dnsCache.timeouts(),
        dnsCache.answered(), dnsCache.answerNanos());
  }

  @Override
  public int activeOrigins() {
    return scheduler.activeOrigins();
  }

  @Override
  public long knownUrls() {
    return store.urlCount();
  }

  @Override
  public List<OriginSnapshot> origins() {
    // The origins under way, then the last ones that left the working set (not listed twice).
    List<OriginSnapshot> under = crawlers.stream().map(OriginCrawler::snapshot).toList();
    Set<Origin> listed = new HashSet<>();
    for (OriginSnapshot o : under) listed.add(o.origin());
    List<OriginSnapshot> all = new ArrayList<>(under);
    for (OriginSnapshot o : finished.get()) {
      if (listed.add(o.origin())) all.add(o);
    }
    return all;
  }
}
