package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.forager.store.Ranking;
import org.forager.store.RocksCrawlStore;
import org.forager.store.UrlRecord;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Priority (seed 001's "useful pages first"): when the budget is smaller than the site, the seed, the
 * sitemap's entries and the most-linked page are what gets fetched, not the first URLs in URL order.
 */
@Timeout(120)
class PriorityCrawlTest {

  @TempDir Path tmp;

  /**
   * The seed links to thirty pages /a01../a30 and to /z-popular; the two sitemap entries link to
   * /z-popular too. By depth and URL order (the old rule) /a01, /a02, /a03 came next; by priority the
   * sitemap entries come after the seed and /z-popular, linked from three pages, right after them.
   */
  @Test
  void withABudgetSmallerThanTheSiteTheSeedTheSitemapAndTheMostLinkedPageAreFetched() throws Exception {
    try (TestSite site = TestSite.start()) {
      List<String> seedLinks = new ArrayList<>();
      for (int i = 1; i <= 30; i++) {
        String path = "/a%02d".formatted(i);
        seedLinks.add(path);
        site.linking(path);
      }
      seedLinks.add("/z-popular");
      site.robots("User-agent: *\nAllow: /\nSitemap: " + site.url("/sitemap.xml") + "\n")
          .route("/sitemap.xml", ex -> TestSite.respond(ex, 200, "application/xml", """
              <?xml version="1.0" encoding="UTF-8"?>
              <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                <url><loc>%s</loc><priority>0.9</priority></url>
                <url><loc>%s</loc></url>
              </urlset>""".formatted(site.url("/s1"), site.url("/s2"))))
          .linking("/", seedLinks.toArray(String[]::new))
          .linking("/s1", "/z-popular")
          .linking("/s2", "/z-popular")
          .linking("/z-popular");
      Path data = tmp.resolve("data");
      // robots.txt, the sitemap, and four pages.
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "max_actions: 6\n"));

      assertEquals(List.of("/robots.txt", "/sitemap.xml", "/", "/s1", "/s2", "/z-popular"), site.paths());
      try (RocksCrawlStore store = RocksCrawlStore.open(data.resolve("store"))) {
        UrlRecord popular = store.url(site.url("/z-popular")).orElseThrow();
        assertEquals(3, popular.inlinks());
        assertEquals(Ranking.dequantize(Ranking.quantize(0.5 * 2 / 4)), popular.priority(), "3 inlinks: magnitude 2");
        UrlRecord s1 = store.url(site.url("/s1")).orElseThrow();
        assertEquals(Ranking.dequantize(Ranking.quantize(0.5 + 0.4 * 0.9)), s1.priority());
        UrlRecord rare = store.url(site.url("/a01")).orElseThrow();
        assertEquals(0, rare.fetchCount());
        assertTrue(rare.priority() < popular.priority());
      }
    }
  }

  /** The library hook ranks the URLs a crawl finds: here the reverse of URL order. */
  @Test
  void anApplicationsRankingDecidesWhichUrlsComeFirst() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a", "/b", "/c", "/d").linking("/a").linking("/b").linking("/c").linking("/d");
      Path data = tmp.resolve("data");
      try (Crawler crawler = Crawler.open(TestCrawl.config(data, List.of(site.url("/")), "max_actions: 4\n"))) {
        crawler.quiet(true).priority((url, depth, inlinks) -> url.endsWith("/d") ? 0.9 : url.endsWith("/c") ? 0.8 : 0.1);
        crawler.run();
      }
      TestCrawl.assertPolite(data);
      assertEquals(List.of("/robots.txt", "/", "/d", "/c"), site.paths());
    }
  }
}
