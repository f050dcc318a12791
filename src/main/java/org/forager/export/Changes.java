package org.forager.export;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.forager.recrawl.Observation;
import org.forager.store.CrawlRecord;

/**
 * How often a URL was seen changed, from its crawl history: a fetch whose body digest differs from
 * the previous content fetch's is a change ({@link Observation#CHANGED}, the same rule the recrawl
 * policy uses); a 304 and an equal digest are not; failures, redirects and refusals say nothing.
 *
 * @param count fetches that saw a changed body; the first fetch is no change
 * @param last when the latest of them happened
 */
record Changes(int count, Optional<Instant> last) {

  static final Changes NONE = new Changes(0, Optional.empty());

  static Changes of(List<CrawlRecord> history) {
    int count = 0;
    Optional<Instant> last = Optional.empty();
    Optional<String> previousDigest = Optional.empty();
    for (CrawlRecord crawl : history) {
      if (Observation.of(crawl.outcome(), crawl.httpStatus(), previousDigest, crawl.digest()) == Observation.CHANGED) {
        count++;
        last = Optional.of(crawl.fetchedAt());
      }
      if (crawl.digest().isPresent()) previousDigest = crawl.digest();
    }
    return new Changes(count, last);
  }
}
