package org.forager.fetch;

/**
 * Makes one GET. Never follows redirects. Implementations must be safe for concurrent use and
 * never throw for anything the network or a server does: that becomes a {@link FetchResult.Failure}.
 */
public interface Fetcher extends AutoCloseable {

  FetchResult fetch(FetchRequest request);

  /**
   * Like {@link #fetch(FetchRequest)}, its response read through {@code gate} (see {@link
   * ResponseGate}). The time spent waiting for the gate counts as the fetch's (its duration and its
   * deadline), as any wait for a core does. This default, for fetchers that cannot tell when the
   * request is on the wire, does not use the gate: entering it before the request went out would hold
   * a place for the whole round trip, and a crawl would have no more requests in flight than the gate
   * has places.
   */
  default FetchResult fetch(FetchRequest request, ResponseGate gate) {
    return fetch(request);
  }

  @Override
  void close();
}
