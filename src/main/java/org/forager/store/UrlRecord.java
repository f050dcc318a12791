package org.forager.store;

import java.time.Instant;
import java.util.Optional;

/**
 * Everything the store knows about one URL: where it was found and its latest crawl, if any.
 * This is what {@code forager export} writes.
 *
 * @param lastCrawl empty while the URL was never crawled
 * @param nextFetchAt when it is due; {@link Instant#EPOCH} for a new candidate
 */
public record UrlRecord(
    String url,
    int depth,
    Optional<String> discoveredFrom,
    Instant discoveredAt,
    int fetchCount,
    Optional<CrawlRecord> lastCrawl,
    Instant nextFetchAt) {}
