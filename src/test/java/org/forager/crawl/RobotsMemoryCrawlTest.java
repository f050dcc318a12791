package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.forager.record.RunSummary;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Large robots.txt files are held within a budget: an origin whose rules do not fit now is put off to a
 * later run, not crawled into an out-of-memory error (65 subdomains of 500 KiB files ran a 264 MiB heap
 * out, then every resume again: an attacker's review).
 */
@Timeout(60)
class RobotsMemoryCrawlTest {

  @TempDir Path tmp;

  @Test
  void originsWhoseRulesDoNotFitNowArePutOffToALaterRunAndCrawledThen() throws Exception {
    StringBuilder robots = new StringBuilder("User-agent: *\n");
    for (int i = 0; robots.length() < 100 * 1024; i++) robots.append("Disallow: /private/section-").append(i).append("/\n");
    List<TestSite> sites = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) {
        // Each on an address of its own: their robots.txt files come in at once, not one per address in turn.
        TestSite site = TestSite.start("127.0.0." + (2 + i), 0);
        sites.add(site);
        site.robots(robots.toString()).linking("/", "/a").html("/a", "<p>a</p>");
      }
      Path data = tmp.resolve("data");
      List<String> seeds = new ArrayList<>();
      for (int i = 0; i < sites.size(); i++) seeds.add("http://127.0.0." + (2 + i) + ":" + sites.get(i).port() + "/");
      var config = TestCrawl.config(data, seeds, "");
      // A budget for one such file (100 KiB, counted six times over) at a time.
      long budget = 1024 * 1024;

      RunSummary first = run(config, budget);
      long crawled = sites.stream().filter(s -> s.count("/a") == 1).count();
      assertEquals(1, crawled, "one origin's rules fit at a time: " + first.notes());
      assertTrue(sites.stream().allMatch(s -> s.count("/robots.txt") == 1), "every origin read its robots.txt");
      int runs = 1;
      while (sites.stream().anyMatch(s -> s.count("/a") == 0)) {
        assertTrue(++runs <= 4, "each later run crawls at least one origin put off");
        run(config, budget);
      }
      assertTrue(sites.stream().allMatch(s -> s.count("/a") == 1 && s.count("/") == 1), "each page fetched once");
    } finally {
      sites.forEach(TestSite::close);
    }
  }

  private static RunSummary run(org.forager.config.CrawlConfig config, long robotsMemory) throws Exception {
    RunSummary summary;
    try (Crawler crawler = Crawler.builder(config).robotsMemory(robotsMemory).open()) {
      summary = crawler.run();
    }
    TestCrawl.assertPolite(config.dataDir());
    return summary;
  }
}
