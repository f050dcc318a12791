/**
 * The crawl log ({@code logs/crawl.jsonl}, one line per crawl action as it happens, finished into
 * gzipped parts as it grows: {@link org.forager.record.CrawlLogFiles} reads them in order; on Linux its
 * lines are staged in a mapped tail on their way to the file, {@link org.forager.record.CrawlLog}) and
 * the end-of-run summary of outcomes.
 */
package org.forager.record;
