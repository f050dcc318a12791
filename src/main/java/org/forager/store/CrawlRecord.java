package org.forager.store;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import org.forager.fetch.Outcome;

/**
 * The result of one crawl action on one URL, as the store keeps it in the URL's history and as the
 * latest state of the URL. Fields that do not apply are empty (a blocked URL has no status).
 *
 * @param httpStatus 0 when no HTTP response was received
 * @param contentLength bytes of the decoded body, -1 when none
 * @param digest {@code sha1:BASE32} of the decoded body
 * @param nextFetchAt when the URL is due again; the store orders due candidates by it
 * @param duplicateOf for {@code DUPLICATE_CONTENT}: the URL that first had this body (see
 *     {@link CrawlStore#firstWithDigest})
 * @param simhash 64-bit simhash of an HTML page's text ({@code org.forager.dedup.SimHash}), when
 *     it has enough words
 */
public record CrawlRecord(
    String url,
    Instant fetchedAt,
    Outcome outcome,
    int httpStatus,
    long durationMillis,
    Optional<String> contentType,
    long contentLength,
    Optional<String> digest,
    Optional<String> redirectTo,
    Optional<String> canonical,
    boolean noindex,
    boolean nofollow,
    Optional<String> etag,
    Optional<String> lastModified,
    Instant nextFetchAt,
    Optional<String> duplicateOf,
    OptionalLong simhash) {

  /**
   * An action that made no request (a gate refused the URL): an outcome, when, and when the URL is due
   * again; nothing fetched.
   */
  public static CrawlRecord withoutRequest(String url, Instant at, Outcome outcome, Instant nextFetchAt) {
    return new CrawlRecord(url, at, outcome, 0, 0, Optional.empty(), -1, Optional.empty(), Optional.empty(),
        Optional.empty(), false, false, Optional.empty(), Optional.empty(), nextFetchAt);
  }

  /** A record with no duplicate and no simhash (every action but a page's content fetch). */
  public CrawlRecord(String url, Instant fetchedAt, Outcome outcome, int httpStatus, long durationMillis,
      Optional<String> contentType, long contentLength, Optional<String> digest, Optional<String> redirectTo,
      Optional<String> canonical, boolean noindex, boolean nofollow, Optional<String> etag,
      Optional<String> lastModified, Instant nextFetchAt) {
    this(url, fetchedAt, outcome, httpStatus, durationMillis, contentType, contentLength, digest, redirectTo,
        canonical, noindex, nofollow, etag, lastModified, nextFetchAt, Optional.empty(), OptionalLong.empty());
  }
}
