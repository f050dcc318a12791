package org.forager.store;

import java.util.Optional;

/**
 * What the crawl refuses as it is found, among a page's candidates the store does not know: a link
 * its origin's robots.txt disallows, say. Refused then, it is written once, as the refused URL it
 * would have become at its turn (its record and its recrawl key), instead of as a due URL that a turn
 * reads, refuses and writes again (issue 15: the robots refusals were about 8 % of a crawl's CPU).
 * Asked by {@link CrawlStore#record(java.util.List, CrawlRecord, java.util.Collection, java.util.List,
 * DiscoveryGate)} on the calling thread, outside the store's write lock, before the write.
 */
public interface DiscoveryGate {

  /**
   * The refusal of a candidate the store found unknown, already logged; empty to store it as usual.
   * Only candidates the store does not know are asked: a known URL keeps what it has. A refusal must
   * be of the candidate's URL.
   */
  Optional<CrawlRecord> refuse(Candidate candidate);

  /**
   * Called once a call, after the last candidate was asked (also when none was, and by a store that
   * asks nothing), before the write: the log lines of what the call writes go to the OS now.
   */
  default void decided() {}
}
