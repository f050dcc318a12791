package org.forager.crawl;

import org.forager.url.Origin;

/**
 * What one origin's crawl looks like at a moment, for display.
 *
 * @param delayMillis the delay in force between two requests to the origin
 * @param patience patience points left in this run (the origin is given up at 0)
 * @param queued URLs taken from the store and waiting, plus retries pending
 * @param pagesFetched URLs requested from the origin in this run, in a continuous one in its current pass (robots.txt not counted)
 * @param givenUp out of patience, refused or put off for this run
 */
public record OriginSnapshot(Origin origin, long delayMillis, int patience, int queued, long pagesFetched,
    boolean givenUp) {}
