/**
 * JMH microbenchmarks of the crawl's per-page hot path: link extraction (and jsoup's share of it),
 * URL resolution and normalization, the scheduler's dispatch, the store's candidate dedup, due scan
 * and record batch, WARC writing (and what gzip costs at each level) and the SHA-1 digest. Inputs
 * are synthetic but shaped like a real site's pages, generated deterministically by
 * {@link org.forager.bench.jmh.SyntheticSite}. Built and run only by {@code bench/jmh} (Maven
 * profile {@code jmh}), never by the test suite; results and their reading are in
 * {@code docs/benchmarks.md}.
 */
package org.forager.bench.jmh;
