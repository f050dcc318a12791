package org.forager.fetch;

/**
 * Makes one GET. Never follows redirects. Implementations must be safe for concurrent use and
 * never throw for anything the network or a server does: that becomes a {@link FetchResult.Failure}.
 */
public interface Fetcher extends AutoCloseable {

  FetchResult fetch(FetchRequest request);

  /**
   * Like {@link #fetch(FetchRequest)}, its response read through {@code gate} (see {@link
   * ResponseGate}): the time spent waiting to enter it is left out of the fetch's duration, and
   * counts against its deadline. This default, for fetchers that cannot tell when bytes are there,
   * enters the gate after the fetch.
   */
  default FetchResult fetch(FetchRequest request, ResponseGate gate) {
    FetchResult result = fetch(request);
    gate.enter();
    return result;
  }

  @Override
  void close();
}
