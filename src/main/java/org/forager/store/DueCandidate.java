package org.forager.store;

import java.util.Optional;

/**
 * A candidate handed to the crawl loop, with what a conditional GET needs.
 *
 * @param fetchCount how many crawl actions on this URL were recorded before (0 when never crawled)
 */
public record DueCandidate(
    String url, int depth, Optional<String> etag, Optional<String> lastModified, int fetchCount) {}
