package org.forager.recrawl;

import java.time.Instant;

/** What {@link RecrawlPolicy#decide} says about a URL: fetch it again at a time, or never. */
public sealed interface Decision {

  /** The state to store for the URL, whatever the decision. */
  RecrawlState state();

  /** Fetch the URL again at {@code at}. */
  record Recrawl(Instant at, RecrawlState state) implements Decision {}

  /** The URL has been gone long enough: stop fetching it. */
  record Retire(RecrawlState state) implements Decision {}
}
