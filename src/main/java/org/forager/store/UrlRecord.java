package org.forager.store;

import java.time.Instant;
import java.util.Optional;

/**
 * Everything the store knows about one URL: where it was found and its latest crawl, if any.
 * This is what {@code forager export} writes.
 *
 * @param lastCrawl empty while the URL was never crawled
 * @param nextFetchAt when it is due; {@link Instant#EPOCH} for a new candidate
 * @param priority its rank among its origin's never-crawled URLs, from 0 to 1 (quantized, {@link
 *     Ranking#quantize}); kept once crawled. 1 for URLs stored before priorities were kept.
 * @param inlinks how many crawled pages linked to it while it was uncrawled, each counted at that
 *     page's first crawl
 * @param hops links followed outside the seeds' domains to reach it ({@link Candidate#hops})
 */
public record UrlRecord(
    String url,
    int depth,
    Optional<String> discoveredFrom,
    Instant discoveredAt,
    int fetchCount,
    Optional<CrawlRecord> lastCrawl,
    Instant nextFetchAt,
    double priority,
    int inlinks,
    int hops) {

  /** A record without rank: priority 1, no inlinks, no hops (what an older store holds). */
  public UrlRecord(String url, int depth, Optional<String> discoveredFrom, Instant discoveredAt, int fetchCount,
      Optional<CrawlRecord> lastCrawl, Instant nextFetchAt) {
    this(url, depth, discoveredFrom, discoveredAt, fetchCount, lastCrawl, nextFetchAt, 1.0, 0, 0);
  }

  /** This record with a new crawl count, last crawl and due time; rank kept. */
  public UrlRecord crawled(int fetchCount, Optional<CrawlRecord> lastCrawl, Instant nextFetchAt) {
    return new UrlRecord(url, depth, discoveredFrom, discoveredAt, fetchCount, lastCrawl, nextFetchAt,
        priority, inlinks, hops);
  }
}
