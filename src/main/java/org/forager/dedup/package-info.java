/**
 * Near-duplicate detection: a 64-bit simhash of a page's text ({@link org.forager.dedup.SimHash}),
 * computed when a page is crawled and kept in its crawl record, and an index that finds, among the
 * pages of one origin, an earlier one within a few bits ({@link org.forager.dedup.NearDuplicateIndex}).
 * Exact duplicates are found by body digest in the crawl store instead
 * ({@link org.forager.store.CrawlStore#firstWithDigest}). No I/O but the loading of the optional native
 * simhash ({@link org.forager.dedup.NativeSimHash}).
 */
package org.forager.dedup;
