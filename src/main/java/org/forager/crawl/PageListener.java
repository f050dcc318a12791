package org.forager.crawl;

/**
 * Told of every response the crawl fetches (not of refusals or failures without a response).
 * Called from many crawl threads at once: implementations must be thread-safe, and quick, since the
 * origin's next request waits for it. An exception is reported and otherwise ignored.
 */
@FunctionalInterface
public interface PageListener {

  void onPage(FetchedPage page);

  /** No listener: the crawl then builds no {@link FetchedPage} at all. */
  PageListener NONE = page -> { };
}
