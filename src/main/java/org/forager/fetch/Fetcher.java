package org.forager.fetch;

/**
 * Makes one GET. Never follows redirects. Implementations must be safe for concurrent use and
 * never throw for anything the network or a server does: that becomes a {@link FetchResult.Failure}.
 */
public interface Fetcher extends AutoCloseable {

  FetchResult fetch(FetchRequest request);

  /**
   * Like {@link #fetch(FetchRequest)}, calling {@code beforeResponse} once the request is on the wire
   * and before its response is read (the crawl's page gate waits there), at most once, and not at all
   * when no request could be sent. Its time counts as the fetch's (its duration and its deadline), as
   * any wait for a core does. This default, for fetchers that cannot tell, calls it before the fetch.
   */
  default FetchResult fetch(FetchRequest request, Runnable beforeResponse) {
    beforeResponse.run();
    return fetch(request);
  }

  @Override
  void close();
}
