package org.forager.fetch;

/**
 * Makes one GET. Never follows redirects. Implementations must be safe for concurrent use and
 * never throw for anything the network or a server does: that becomes a {@link FetchResult.Failure}.
 */
public interface Fetcher extends AutoCloseable {

  FetchResult fetch(FetchRequest request);

  @Override
  void close();
}
