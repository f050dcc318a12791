package org.forager.crawl;

/**
 * Told of every response the crawl fetches (not of refusals or failures without a response).
 * Called from many crawl threads at once: implementations must be thread-safe, and quick, since the
 * origin's next request waits for it. An exception is reported and otherwise ignored, and so is an
 * {@link Error} the crawl can go on after (a stack overflow, an assertion: counted among the run's
 * unexpected errors); one it cannot (out of memory) ends the run.
 */
@FunctionalInterface
public interface PageListener {

  void onPage(FetchedPage page);

  /** No listener: the crawl then builds no {@link FetchedPage} at all. */
  PageListener NONE = page -> { };
}
