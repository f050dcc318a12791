package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.config.CrawlConfig;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;

class SitemapQueueTest {

  @Test
  void anIndexOf50000ChildrenKeepsOnlyTheFilesTheRunCanStillTake() {
    SitemapQueue queue = new SitemapQueue(Origin.ofUrl("http://www.example.com/"),
        new CrawlConfig.Sitemaps(true, true, 20), 2048);
    for (int batch = 0; batch < 50; batch++) { // as the reader hands them on: 1,000 at a time
      List<String> children = new ArrayList<>();
      for (int i = 0; i < 1_000; i++) children.add("http://www.example.com/s" + (batch * 1_000 + i) + ".xml");
      queue.add(children);
    }

    assertEquals(20, queue.pending(), "the other 49,980 were never kept");
    assertEquals(Optional.of("http://www.example.com/s0.xml"), queue.next());
    queue.add(List.of("http://www.example.com/late.xml"));
    assertEquals(19, queue.pending());
    for (int i = 1; i < 20; i++) assertEquals(Optional.of("http://www.example.com/s" + i + ".xml"), queue.next());
    assertEquals(Optional.empty(), queue.next());
  }

  /** A file whose request failed in an outage of the crawler's network is read again, within the allowance. */
  @Test
  void aFileTakenAgainIsNextAndCostsNoneOfTheAllowance() {
    SitemapQueue queue = new SitemapQueue(Origin.ofUrl("http://www.example.com/"),
        new CrawlConfig.Sitemaps(true, true, 2), 2048);
    queue.add(List.of("http://www.example.com/a.xml", "http://www.example.com/b.xml"));
    String first = queue.next().orElseThrow();
    queue.again(first);
    assertEquals(Optional.of("http://www.example.com/a.xml"), queue.next());
    assertEquals(Optional.of("http://www.example.com/b.xml"), queue.next(), "the allowance of 2 still has b");
    assertEquals(Optional.empty(), queue.next());
  }

  /**
   * Children on other origins are handed on to be logged up to the run's allowance of files, and none
   * longer than max_url_length; the rest are counted (a chain of indexes wrote 2.8 GB of log, a line a child).
   */
  @Test
  void childrenOnOtherOriginsAreLoggedUpToTheAllowanceAndCountedPastIt() {
    SitemapQueue queue = new SitemapQueue(Origin.ofUrl("http://www.example.com/"),
        new CrawlConfig.Sitemaps(true, true, 20), 100);
    List<String> children = new ArrayList<>();
    for (int i = 0; i < 8_300; i++) children.add("http://elsewhere" + i + ".example/s.xml");
    children.add("http://long.example/" + "x".repeat(200));
    children.add("HTTP://WWW.Example.COM:80/own.xml"); // its own, however written
    List<String> logged = queue.add(children);
    assertEquals(20, logged.size());
    assertEquals("http://elsewhere0.example/s.xml", logged.getFirst());
    assertEquals(8_281, queue.elsewhereNotLogged());
    assertEquals(1, queue.pending(), "its own child is queued all the same");
  }
}
