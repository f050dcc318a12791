package org.forager.store;

import java.util.Objects;
import java.util.Optional;

/**
 * A URL offered to the store as a crawl candidate.
 *
 * @param url normalized absolute URL
 * @param depth 0 for seeds, the depth of the page it was found on plus one otherwise
 * @param discoveredFrom the page (or redirect, or canonical source) it was found on; empty for seeds
 * @param hops links followed outside the seeds' domains to reach it ({@code scope.max_hops}); 0 inside
 * @param ranking how it ranks among its origin's never-crawled URLs, asked when it is stored and as
 *     more pages link to it ({@link CrawlStore#record})
 */
public record Candidate(String url, int depth, Optional<String> discoveredFrom, int hops, Ranking ranking) {

  public Candidate {
    Objects.requireNonNull(ranking, "ranking");
    if (hops < 0) throw new IllegalArgumentException("hops must not be negative: " + hops);
  }

  /** A link inside the seeds' domains, ranked by {@link Ranking#LINKS}. */
  public Candidate(String url, int depth, Optional<String> discoveredFrom) {
    this(url, depth, discoveredFrom, 0, Ranking.LINKS);
  }

  /** A seed: depth 0, first of its origin ({@link Ranking#SEED}). */
  public static Candidate seed(String url) {
    return new Candidate(url, 0, Optional.empty(), 0, Ranking.fixed(Ranking.SEED));
  }
}
