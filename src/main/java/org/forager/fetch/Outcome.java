package org.forager.fetch;

/**
 * What one crawl action came to. The names are part of the user contract (crawl log, export).
 */
public enum Outcome {
  /** A 2xx response, stored and (when HTML) parsed. */
  FETCHED,
  /** A 304 answer to a conditional GET. */
  NOT_MODIFIED,
  /** A 3xx with a Location; the target became a candidate, the redirect was not followed. */
  REDIRECT,
  /** The page names another URL as canonical; that URL became a candidate. */
  NON_CANONICAL,
  /** The page asked not to be indexed (meta robots or X-Robots-Tag). */
  NOINDEX,
  /**
   * The body was cut short: at a size cap, at the deadline, or by the connection ending; the crawl
   * log's {@code reason} says which ({@link FetchResult.Truncation}).
   */
  TRUNCATED,
  /** The body is identical to one already fetched. */
  DUPLICATE_CONTENT,
  /** Stored but not parsed: not HTML. */
  UNSUPPORTED_CONTENT_TYPE,
  BLOCKED_BY_ROBOTS_TXT,
  /** do_not_crawl, url_query_parameters, skip_extensions or a trap limit refused the URL. */
  BLOCKED_URL_BY_LOCAL_POLICY,
  /** The host is or resolved to an address that is not the public Internet (loopback, private, ...). */
  BLOCKED_BY_NETWORK_POLICY,
  /**
   * A redirect or canonical target outside the crawl's scope ({@code scope.mode}): logged, never
   * requested nor stored. Links out of scope are only counted, on their page's action.
   */
  OUT_OF_SCOPE,
  /** A 4xx or 5xx answer other than a rate limit. */
  HTTP_ERROR,
  /** 429, or 503 with Retry-After. */
  RATE_LIMITED,
  NETWORK_ERROR,
  /** The host name did not resolve (no such name, no address): no connection was made. */
  DNS_ERROR,
  TIMEOUT,
  /**
   * The crawler itself failed on the URL after its request was sent (a bug: a parser overflowing the
   * stack, an assertion): the request is this line's (with what came back, if anything), the URL is
   * recorded failed and waits like one ({@code forager ctl retry-failed} makes it due), and the crawl
   * goes on; the stack trace is in {@code logs/library.log}.
   */
  INTERNAL_ERROR;

  /** Whether a gate refused the URL before any request was made. */
  public boolean isBlocked() {
    return this == BLOCKED_BY_ROBOTS_TXT
        || this == BLOCKED_URL_BY_LOCAL_POLICY
        || this == BLOCKED_BY_NETWORK_POLICY;
  }
}
