package org.forager.store;

import java.util.Optional;

/**
 * A URL offered to the store as a crawl candidate.
 *
 * @param url normalized absolute URL
 * @param depth 0 for seeds, the depth of the page it was found on plus one otherwise
 * @param discoveredFrom the page (or redirect, or canonical source) it was found on; empty for seeds
 */
public record Candidate(String url, int depth, Optional<String> discoveredFrom) {

  public static Candidate seed(String url) {
    return new Candidate(url, 0, Optional.empty());
  }
}
