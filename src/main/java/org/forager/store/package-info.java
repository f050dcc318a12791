/**
 * The crawl database: every known URL with its depth, origin and crawl history, the due order in
 * which the frontier takes them, each origin's robots.txt and politeness state, and the crawl's own
 * settings kept across runs (the scope), behind the
 * {@link org.forager.store.CrawlStore} seam. {@link org.forager.store.RocksCrawlStore} is the
 * embedded implementation (a RocksDB directory, crash-safe, exact deduplication, bounded memory);
 * {@code docs/store.md} describes its layout and the benchmark that chose it.
 */
package org.forager.store;
