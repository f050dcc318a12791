package org.forager.crawl;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import org.forager.dns.CachingResolver;
import org.forager.frontier.Scheduler;
import org.forager.record.RunSummary;
import org.forager.store.CrawlStore;

/** The {@link RunView} of a run in progress. Thread-safe as its parts are. */
record LiveRun(Instant started, RunSummary summary, Scheduler scheduler, CrawlStore store,
    Collection<OriginCrawler> crawlers, CachingResolver dnsCache, KnownOrigins scope) implements RunView {

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
    return crawlers.stream().map(OriginCrawler::snapshot).toList();
  }
}
