package org.forager.crawl;

import java.time.Instant;
import java.util.List;
import org.forager.record.RunSummary;

/**
 * A read-only live view of a running crawl, for display. Safe to call from any thread; every answer
 * is a snapshot that may be out of date by the time it is read.
 */
public interface RunView {

  /** When the run started. */
  Instant started();

  /** The counts of this run so far. */
  RunSummary summary();

  /** Origins waiting for their next turn or in a turn now. */
  int activeOrigins();

  /** URLs the crawl database knows. */
  long knownUrls();

  /**
   * One snapshot per origin the run holds now (its working set, not every origin in scope), then of
   * the last origins that left it (up to 100), in no particular order.
   */
  List<OriginSnapshot> origins();

  /**
   * Whether the run holds for an outage of the crawler's own network (addresses that answered lately
   * take no connection, or the name servers fail): it sends one request now and then until one answers.
   */
  default boolean networkDown() {
    return false;
  }

  /** How many origins the crawl has in scope (a count the run keeps, not a scan). */
  long originsInScope();

  /** The DNS cache's counters since the crawl was opened. */
  DnsCounts dns();

  /**
   * @param lookups names asked of the cache (pinned names are not)
   * @param cacheHits answered from a cached address list
   * @param negativeHits answered from a cached failure
   * @param timeouts lookups that passed network.dns.timeout
   * @param answered lookups the system resolver answered (addresses or a failure), late ones included
   * @param answerNanos the time those answers took, summed
   */
  record DnsCounts(long lookups, long cacheHits, long negativeHits, long timeouts, long answered, long answerNanos) {}
}
