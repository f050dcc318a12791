/**
 * Writes what the crawl fetched to WARC 1.1 files: per fetch a request record and a response
 * record, or a revisit record (server-not-modified) for a 304, one gzip member (or zstd frame) per
 * record, in size-rotated files that carry a {@code .open} suffix until complete. {@link
 * org.forager.warc.WarcRecorder} is the entry point and is safe to share between crawling threads;
 * {@link org.forager.warc.Digests} gives the {@code sha1:BASE32} digests used here and in the crawl
 * log, {@link org.forager.warc.BodyDigests} a body's digests computed once for both;
 * {@link org.forager.warc.WarcIndexes} the CDXJ index of each finished file;
 * {@link org.forager.warc.StagedTail} the mapped tail that the direct writes of a WARC file and the
 * crawl log's writes stage their last bytes in. See {@code docs/warc.md}.
 */
package org.forager.warc;
