/**
 * Writes what the crawl fetched to WARC 1.1 files (request and response records, revisit records
 * for 304s), rotating files by size, one gzip member per record.
 */
package org.forager.warc;
