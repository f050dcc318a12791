package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.forager.store.RocksCrawlStore;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.forager.url.UrlFingerprint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Links to an origin's URLs crawled lately skip the store (issue 15); links to URLs not crawled yet
 * still reach it, so their inlinks count as before.
 */
@Timeout(60)
class CrawledUrlsTest {

  @TempDir Path tmp;

  @Test
  void aUrlAddedIsRememberedAndOthersAreNot() {
    CrawledUrls crawled = new CrawledUrls();
    assertFalse(crawled.contains("https://a.example/"), "empty");
    crawled.add("https://a.example/");
    assertTrue(crawled.contains("https://a.example/"));
    assertFalse(crawled.contains("https://a.example/x"));
    assertFalse(crawled.contains("https://a.example"), "another string, another URL");
  }

  /** An origin's crawled URLs are held in buckets: 200 of them fill a table of 512 slots but few buckets. */
  @Test
  void nearlyAllOfTwoHundredCrawledUrlsAreRemembered() {
    CrawledUrls crawled = new CrawledUrls();
    for (int i = 0; i < 200; i++) crawled.add("https://a.example/p" + i);
    int remembered = 0;
    for (int i = 0; i < 200; i++) if (crawled.contains("https://a.example/p" + i)) remembered++;
    // 197 with four slots a bucket; one slot a URL (direct-mapped) kept 171.
    assertTrue(remembered >= 195, remembered + " of 200");
  }

  @Test
  void hashesOfNearbyUrlsDiffer() {
    java.util.Set<Long> seen = new java.util.HashSet<>();
    for (int i = 0; i < 100_000; i++) seen.add(UrlFingerprint.of("https://a.example/p" + i));
    assertEquals(100_000, seen.size());
  }

  /**
   * Pages link back to the home page (crawled first) and to /deep, which the budget leaves uncrawled:
   * /deep counts an inlink from each crawled page linking to it, while the links to the home page and
   * to /a (crawled) are dropped before the store, which they would not have changed.
   */
  @Test
  void linksToCrawledUrlsAreDroppedAndLinksToOthersStillCountTheirInlinks() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a", "/b", "/c")
          .linking("/a", "/", "/deep")
          .linking("/b", "/", "/a", "/deep")
          .linking("/c", "/", "/a", "/b", "/deep")
          .linking("/deep");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "max_actions: 4\n"));
      assertEquals(List.of("/robots.txt", "/", "/a", "/b"), site.paths());
      try (RocksCrawlStore store = RocksCrawlStore.open(data.resolve("store"))) {
        assertEquals(2, store.url(site.url("/deep")).orElseThrow().inlinks(), "from /a and /b");
        assertEquals(0, store.url(site.url("/deep")).orElseThrow().fetchCount());
        assertEquals(1, store.url(site.url("/")).orElseThrow().fetchCount());
        assertEquals(5, store.urlCount());
      }
    }
  }
}
