package org.forager.crawl;

import org.forager.record.CrawlAction;

/**
 * Told what a run does while it runs, e.g. to show or export it live ({@code org.forager.status}).
 * Register one with {@link Crawler#listener}.
 *
 * <p>Implementations must be safe for concurrent use: {@link #action} is called on the turn threads of
 * many origins at once. They must be quick and must not throw: they run inside the crawl loop (an
 * exception of {@link #action} is said once and otherwise ignored; the action stays logged).
 */
public interface CrawlListener {

  /** A listener that ignores everything. */
  CrawlListener NONE = new CrawlListener() {};

  /** The run started; {@code run} reads its live state until the run and beyond. */
  default void runStarted(RunView run) {}

  /** One crawl action happened and was logged (a fetch, a robots.txt hop or a refusal). */
  default void action(CrawlAction action) {}

  /** The run ended: no turn runs any more. */
  default void runFinished() {}
}
