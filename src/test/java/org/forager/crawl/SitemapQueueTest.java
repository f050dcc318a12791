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
        new CrawlConfig.Sitemaps(true, true, 20));
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
        new CrawlConfig.Sitemaps(true, true, 2));
    queue.add(List.of("http://www.example.com/a.xml", "http://www.example.com/b.xml"));
    String first = queue.next().orElseThrow();
    queue.again(first);
    assertEquals(Optional.of("http://www.example.com/a.xml"), queue.next());
    assertEquals(Optional.of("http://www.example.com/b.xml"), queue.next(), "the allowance of 2 still has b");
    assertEquals(Optional.empty(), queue.next());
  }
}
