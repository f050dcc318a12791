/**
 * The crawl log ({@code logs/crawl.jsonl}, one line per crawl action as it happens) and the
 * end-of-run summary of outcomes.
 */
package org.forager.record;
