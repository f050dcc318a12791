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
 * @param waitUntil the end of the last wait the site asked for (Retry-After), kept from session 62 on: a
 *     run started before it sends the origin nothing until then
 */
public record OriginState(Origin origin, Optional<RobotsTxt> robotsTxt, long delayMillis, int patience,
    Optional<RunProgress> run, Optional<Instant> waitUntil) {

  /** A state without run progress (what a store written before it was kept gives back). */
  public OriginState(Origin origin, Optional<RobotsTxt> robotsTxt, long delayMillis, int patience) {
    this(origin, robotsTxt, delayMillis, patience, Optional.empty());
  }

  /** A state with no wait asked for (what a store written before it was kept gives back). */
  public OriginState(Origin origin, Optional<RobotsTxt> robotsTxt, long delayMillis, int patience,
      Optional<RunProgress> run) {
    this(origin, robotsTxt, delayMillis, patience, run, Optional.empty());
  }

  /**
   * How far the origin got in one run, so that an origin the crawl put aside (its working set is
   * bounded) and takes up again later in the same run goes on where it stopped: the page limit counts
   * on, its sitemaps are not read twice, an origin given up stays given up.
   *
   * @param runStarted the run's start: progress of another run means nothing
   * @param pagesFetched pages fetched in that run (or pass), against the page limit
   * @param sitemapsReadAt when the origin was taken up to read its sitemaps in that run (kept from session
   *     61 on): a continuous run, which never ends, reads them again only {@code sitemaps.reread_after}
   *     later, not at every take-up
   */
  public record RunProgress(Instant runStarted, long pagesFetched, boolean sitemapsRead, boolean givenUp,
      Optional<Instant> sitemapsReadAt) {

    /** Progress without the time the sitemaps were read (what a store written before it gives back). */
    public RunProgress(Instant runStarted, long pagesFetched, boolean sitemapsRead, boolean givenUp) {
      this(runStarted, pagesFetched, sitemapsRead, givenUp, Optional.empty());
    }
  }

  /**
   * One robots.txt fetch: what came back and until when it may be used.
   *
   * @param status the HTTP status, 0 when the server was unreachable
   * @param body the bytes parsed (at most 500 KiB)
   */
  public record RobotsTxt(int status, byte[] body, Instant fetchedAt, Instant expiresAt) {}
}
