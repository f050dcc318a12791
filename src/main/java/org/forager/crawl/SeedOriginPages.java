package org.forager.crawl;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.forager.store.CrawlStore;
import org.forager.url.Origin;

/**
 * The seeds' origins as the store keeps them, read a page at a time while iterated: building the
 * scope of a million seed origins holds a page of them, not a million {@link Origin}s.
 */
record SeedOriginPages(CrawlStore store) implements Iterable<Origin> {

  private static final int PAGE = 10_000;

  @Override
  public Iterator<Origin> iterator() {
    return new Iterator<>() {
      private List<Origin> page = List.of();
      private int next;
      private boolean done;

      @Override
      public boolean hasNext() {
        if (next < page.size()) return true;
        if (done) return false;
        Optional<Origin> after = page.isEmpty() ? Optional.empty() : Optional.of(page.getLast());
        page = store.seedOrigins(after, PAGE);
        next = 0;
        done = page.size() < PAGE;
        return !page.isEmpty();
      }

      @Override
      public Origin next() {
        if (!hasNext()) throw new NoSuchElementException();
        return page.get(next++);
      }
    };
  }
}
