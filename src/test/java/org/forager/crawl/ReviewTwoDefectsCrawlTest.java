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

/** Defects found by the second attacker's review of the integration branch (wip-review2); each fails there. */
@Timeout(120)
class ReviewTwoDefectsCrawlTest {

  @TempDir Path tmp;

  /**
   * A robots.txt that redirects to another origin in scope (http to https, apex to www, or simply a
   * second seed) makes the first origin's turn send a request to the second origin, on the first
   * origin's delay, outside the second origin's turns: the second server sees its /robots.txt twice,
   * once 5 ms after its own request ended with min_delay 2 s, or two requests in flight at once
   * (the audit: "one in flight: started 292 ms before the previous request ended"). SitemapQueue
   * already refuses other origins for this reason; RobotsFetcher only asks the request gate.
   */
  @Test
  void aRobotsTxtRedirectToAnotherOriginInScopeSendsNoRequestOutsideThatOriginsTurns() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      a.route("/robots.txt", ex -> {
        ex.getResponseHeaders().set("Location", b.url("/robots.txt"));
        TestSite.respond(ex, 301, null, "");
      }).linking("/");
      b.robots("User-agent: *\nAllow: /\n").linking("/");
      Path data = tmp.resolve("data");
      var config = TestCrawl.config(data, List.of(a.url("/"), b.url("/")),
          "politeness: { min_delay: 500ms, max_delay: 2s, response_time_factor: 0 }");
      try (Crawler crawler = Crawler.open(config)) {
        crawler.run();
      }
      assertEquals(List.of("/robots.txt", "/"), b.paths(), "b saw only its own turns' requests");
      TestCrawl.assertPolite(data);
    }
  }

  /**
   * A Crawl-delay too big for crawler-commons' Integer.parseInt ({@code 99999999999999999999},
   * {@code 3000000000}, {@code 1e9}, {@code Infinity}) is dropped with a parser warning, so the site
   * that asked to be left alone for years is crawled at min_delay; politeness.max_crawl_delay (which
   * puts off a site asking more than 1 h) never sees it.
   */
  @Test
  void aCrawlDelayTooBigForAnIntPutsTheOriginOffInsteadOfBeingIgnored() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\nCrawl-delay: 3000000000\n").linking("/", "/a").linking("/a");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")),
          "politeness: { min_delay: 20ms, max_delay: 200ms, response_time_factor: 0, max_crawl_delay: 2s }"));
      assertEquals(List.of("/robots.txt"), site.paths());
      assertTrue(TestCrawl.log(data).stream().noneMatch(l -> l.get("kind").asText().equals("page")));
    }
  }
}
