package org.forager.record;

import java.time.Instant;
import java.util.Optional;
import org.forager.fetch.Outcome;

/**
 * One line of the crawl log: one crawl action. Field names in the log are the snake_case of these.
 *
 * @param ts when the action started (for a request: when it was sent)
 * @param kind {@code page}, {@code robots} or {@code sitemap}
 * @param httpStatus 0 when no response came back
 * @param bytes decoded body bytes, 0 when none
 * @param durationMillis from start until the body was read; ts + duration is when the request ended
 * @param location the resolved redirect target, for 3xx
 * @param attempt 1 for the first try of this URL in this run, 2 for its first retry, ...
 * @param delayMillis the origin's delay in force after this action (politeness audit)
 * @param reason why a gate refused the URL, what failed when no response came back, or why the body
 *     was cut short ({@code deadline}, {@code max_page_bytes}, ...: see {@code FetchResult.Truncation})
 * @param outOfScopeLinks links of the page that were not candidates because they are out of the
 *     crawl's scope (written to the log only when not 0)
 * @param ip the IP address the request was sent to (the one its per-IP politeness slot was taken
 *     for); empty when no request was sent or the host had no address (DNS_ERROR)
 * @param retryAfterMillis the wait the server asked for with a rate limit (Retry-After, read as at most
 *     30 days), from the end of this request: the origin sends nothing before it ends, in this run or a
 *     later one (politeness audit); -1 when none was asked (written to the log only when asked)
 */
public record CrawlAction(
    Instant ts,
    Kind kind,
    String url,
    Outcome outcome,
    int httpStatus,
    Optional<String> contentType,
    long bytes,
    long durationMillis,
    Optional<String> location,
    Optional<String> digest,
    int attempt,
    long delayMillis,
    Optional<String> reason,
    int outOfScopeLinks,
    Optional<String> ip,
    long retryAfterMillis) {

  /** An action whose server asked for no wait. */
  public CrawlAction(Instant ts, Kind kind, String url, Outcome outcome, int httpStatus, Optional<String> contentType,
      long bytes, long durationMillis, Optional<String> location, Optional<String> digest, int attempt,
      long delayMillis, Optional<String> reason, int outOfScopeLinks, Optional<String> ip) {
    this(ts, kind, url, outcome, httpStatus, contentType, bytes, durationMillis, location, digest, attempt,
        delayMillis, reason, outOfScopeLinks, ip, -1);
  }

  /** An action that made no request (a gate's refusal, a target out of scope): its outcome and why. */
  public static CrawlAction withoutRequest(Instant ts, Kind kind, String url, Outcome outcome, int attempt,
      long delayMillis, String reason) {
    return new CrawlAction(ts, kind, url, outcome, 0, Optional.empty(), 0, 0, Optional.empty(), Optional.empty(),
        attempt, delayMillis, Optional.of(reason), 0, Optional.empty());
  }

  /** An action whose address is not known (none was connected to, or it does not matter). */
  public CrawlAction(Instant ts, Kind kind, String url, Outcome outcome, int httpStatus, Optional<String> contentType,
      long bytes, long durationMillis, Optional<String> location, Optional<String> digest, int attempt,
      long delayMillis, Optional<String> reason, int outOfScopeLinks) {
    this(ts, kind, url, outcome, httpStatus, contentType, bytes, durationMillis, location, digest, attempt,
        delayMillis, reason, outOfScopeLinks, Optional.empty());
  }

  /** An action with no link out of scope (robots.txt, sitemaps, refusals, most pages). */
  public CrawlAction(Instant ts, Kind kind, String url, Outcome outcome, int httpStatus, Optional<String> contentType,
      long bytes, long durationMillis, Optional<String> location, Optional<String> digest, int attempt,
      long delayMillis, Optional<String> reason) {
    this(ts, kind, url, outcome, httpStatus, contentType, bytes, durationMillis, location, digest, attempt,
        delayMillis, reason, 0);
  }

  /** This action, sent to {@code ip}. */
  public CrawlAction withIp(Optional<String> ip) {
    return new CrawlAction(ts, kind, url, outcome, httpStatus, contentType, bytes, durationMillis, location, digest,
        attempt, delayMillis, reason, outOfScopeLinks, ip, retryAfterMillis);
  }

  /** This action, with the wait its server asked for (Retry-After), when it asked for one. */
  public CrawlAction withRetryAfter(Optional<java.time.Duration> wait) {
    if (wait.isEmpty()) return this;
    return new CrawlAction(ts, kind, url, outcome, httpStatus, contentType, bytes, durationMillis, location, digest,
        attempt, delayMillis, reason, outOfScopeLinks, ip, wait.get().toMillis());
  }

  public enum Kind {
    PAGE,
    ROBOTS,
    SITEMAP
  }
}
