package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Defects found reviewing wip-prio (working set, priority, max_hops); each test fails on c2db553. */
@Timeout(120)
class ReviewPrioDefectsTest {

  @TempDir Path tmp;

  /**
   * max_hops 1: other.test is one hop away (linked from the seed). Its sitemap lists a page of
   * third.test, two hops away; third.test's sitemap lists fourth.test, three hops away. Sitemap
   * entries outside the seeds' domains are given hops = max_hops whatever the sitemap's own hops,
   * so the chain never ends.
   */
  @Test
  void sitemapsOfHopSitesListingForeignUrlsWanderPastMaxHops() throws Exception {
    try (TestSite home = TestSite.start(); TestSite other = TestSite.start(); TestSite third = TestSite.start();
        TestSite fourth = TestSite.start()) {
      home.linking("/", other.url("other.test", "/a"));
      other.robots("User-agent: *\nAllow: /\nSitemap: " + other.url("other.test", "/sitemap.txt") + "\n")
          .route("/sitemap.txt", ex -> TestSite.respond(ex, 200, "text/plain", third.url("third.test", "/b") + "\n"))
          .linking("/a");
      third.robots("User-agent: *\nAllow: /\nSitemap: " + third.url("third.test", "/sitemap.txt") + "\n")
          .route("/sitemap.txt", ex -> TestSite.respond(ex, 200, "text/plain", fourth.url("fourth.test", "/c") + "\n"))
          .linking("/b");
      fourth.linking("/c");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(home.url("example.test", "/")),
          "scope: { mode: domains, max_hops: 1 }\nsitemaps: { enabled: true }\n"
              + TestCrawl.pinnedToLoopback("example.test", "other.test", "third.test", "fourth.test")));

      assertTrue(other.paths().contains("/a"), "one hop away: crawled " + other.paths());
      assertEquals(List.of(), fourth.paths(), "three hops away: never contacted");
      assertEquals(List.of(), third.paths(), "two hops away (via a hop site's sitemap): never contacted");
    }
  }

  /**
   * A resumed run with recrawls due and a chain of new pages (each page links to one new one): every
   * page offers candidates, so the origin re-reads its next URLs after each, and due() starts each
   * batch with a new URL. The recrawls due (/a, /b) are never taken while new pages keep coming,
   * though docs/scope.md says new URLs and recrawls alternate one for one.
   */
  @Test
  void newPagesThatEachLinkToANewOneStarveTheRecrawlsDue() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a", "/b").linking("/a").linking("/b");
      Path data = tmp.resolve("data");
      String extra = "recrawl: { interval: 0s }\n";
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), extra));
      assertEquals(List.of("/robots.txt", "/", "/a", "/b"), site.paths());

      site.linking("/", "/n0", "/a", "/b");
      for (int i = 0; i < 40; i++) site.linking("/n" + i, "/n" + (i + 1));
      int before = site.paths().size();
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), extra + "max_actions: 12\n"));
      List<String> second = site.paths().subList(before, site.paths().size());
      assertTrue(second.contains("/a") && second.contains("/b"),
          "recrawls due alternate with new URLs, not starved by them: " + second);
    }
  }
}
