package org.forager.store;

import java.time.Instant;
import java.util.Optional;
import org.forager.url.Origin;

/**
 * What the crawl loop keeps about an origin between runs.
 *
 * @param robotsTxt the robots.txt as last fetched, when one was
 * @param delayMillis the delay between two requests last in force (adaptive part included)
 * @param patience persistent failures left before the origin is given up for a run
 */
public record OriginState(
    Origin origin, Optional<RobotsTxt> robotsTxt, long delayMillis, int patience) {

  /**
   * One robots.txt fetch: what came back and until when it may be used.
   *
   * @param status the HTTP status, 0 when the server was unreachable
   * @param body the bytes parsed (at most 500 KiB)
   */
  public record RobotsTxt(int status, byte[] body, Instant fetchedAt, Instant expiresAt) {}
}
