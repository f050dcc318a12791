package org.forager.store;

import java.util.Optional;

/**
 * A candidate handed to the crawl loop, with what a conditional GET needs.
 *
 * @param fetchCount how many crawl actions on this URL were recorded before (0 when never crawled)
 * @param priority its priority as stored (quantized, {@link Ranking#quantize}), from 0 to 1
 * @param hops links followed outside the seeds' domains to reach it ({@link Candidate#hops})
 */
public record DueCandidate(String url, int depth, Optional<String> etag, Optional<String> lastModified,
    int fetchCount, double priority, int hops) {

  /** A candidate inside the seeds' domains of the highest priority: what a store without them reads. */
  public DueCandidate(String url, int depth, Optional<String> etag, Optional<String> lastModified, int fetchCount) {
    this(url, depth, etag, lastModified, fetchCount, 1.0, 0);
  }
}
