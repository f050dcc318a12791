package org.forager.policy;

/**
 * The one door every request goes through before the fetcher: whether a normalized URL may be
 * requested at all (scope, exclusions), whatever the request is for. The {@link Gatekeeper} is the
 * crawl's; the fetcher's network policy comes after it. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface RequestGate {

  /** Lets every URL through (tools and tests that fetch without a crawl's policy). */
  RequestGate OPEN = url -> Verdict.ALLOWED;

  Verdict checkRequest(String url);
}
