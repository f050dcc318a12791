package org.forager.recrawl;

import java.util.Optional;
import org.forager.fetch.Outcome;

/** What one crawl action of a URL tells about its freshness: the input of {@link RecrawlPolicy#decide}. */
public enum Observation {
  /** Content was fetched and there was no earlier digest to compare it with. */
  FIRST,
  /** Content was fetched and its digest differs from the previous fetch's. */
  CHANGED,
  /** Content was fetched with the previous digest, or the server answered 304 Not Modified. */
  UNCHANGED,
  /** A 3xx: the target is another URL's business; this one is checked again at the default interval. */
  REDIRECT,
  /** A gate refused the URL before any request (robots.txt, local or network policy). */
  BLOCKED,
  /** 404 Not Found or 410 Gone. */
  GONE,
  /**
   * Any other error that outlived the run's retries: 5xx, other 4xx, rate limit, network error, timeout;
   * or the crawler's own failure on the URL (INTERNAL_ERROR).
   */
  FAILED;

  /**
   * The observation of one crawl action as the crawl loop records it.
   *
   * @param outcome the action's outcome
   * @param httpStatus the response status, 0 when there was no response
   * @param previousDigest the digest of the URL's last fetched content, if any
   * @param digest the digest of this action's content, if any
   */
  public static Observation of(
      Outcome outcome, int httpStatus, Optional<String> previousDigest, Optional<String> digest) {
    return switch (outcome) {
      // A 304 is the cheap way of learning "unchanged": the conditional GET exists for it.
      case NOT_MODIFIED -> UNCHANGED;
      case FETCHED, NON_CANONICAL, NOINDEX, TRUNCATED, DUPLICATE_CONTENT, UNSUPPORTED_CONTENT_TYPE ->
          compare(previousDigest, digest);
      case REDIRECT -> REDIRECT;
      case BLOCKED_BY_ROBOTS_TXT, BLOCKED_URL_BY_LOCAL_POLICY, BLOCKED_BY_NETWORK_POLICY, OUT_OF_SCOPE -> BLOCKED;
      case HTTP_ERROR -> httpStatus == 404 || httpStatus == 410 ? GONE : FAILED;
      // The crawler failed on it (a bug): waits like a failure, and ctl retry-failed makes it due once mended.
      case RATE_LIMITED, NETWORK_ERROR, DNS_ERROR, TIMEOUT, INTERNAL_ERROR -> FAILED;
    };
  }

  private static Observation compare(Optional<String> previousDigest, Optional<String> digest) {
    if (previousDigest.isEmpty() || digest.isEmpty()) return FIRST;
    return previousDigest.get().equals(digest.get()) ? UNCHANGED : CHANGED;
  }
}
