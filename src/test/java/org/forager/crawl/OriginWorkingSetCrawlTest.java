package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run crawls a bounded working set of origins (issue 14): {@code limits.max_active_origins} of them
 * at once, taken from the store's scope as others finish; an origin taken up again later in the run
 * goes on where it stopped.
 */
@Timeout(120)
class OriginWorkingSetCrawlTest {

  @TempDir Path tmp;

  /** Thirty origins, four at a time: every page fetched, and never more than four origins under way. */
  @Test
  void everyOriginIsCrawledWithNoMoreUnderWayAtOnceThanTheWorkingSetHolds() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a", "/b").linking("/a").linking("/b");
      List<String> seeds = new ArrayList<>();
      String[] hosts = new String[30];
      for (int i = 0; i < hosts.length; i++) {
        hosts[i] = "h%02d.test".formatted(i);
        seeds.add(site.url(hosts[i], "/"));
      }
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, seeds, "limits: { fetch_timeout: 2s, max_retries: 2, max_active_origins: 4 }\n"
          + "concurrency: 8\n" + TestCrawl.pinnedToLoopback(hosts)));

      assertEquals(30 * 4, site.requests().size(), "robots.txt and three pages of each origin");
      // An origin is under way from its first logged action to its last.
      Map<String, Instant[]> spans = new HashMap<>();
      for (JsonNode action : TestCrawl.log(data)) {
        Instant ts = Instant.parse(action.get("ts").asText());
        spans.merge(Origin.ofUrl(action.get("url").asText()).toString(), new Instant[] {ts, ts},
            (a, b) -> new Instant[] {a[0].isBefore(b[0]) ? a[0] : b[0], a[1].isAfter(b[1]) ? a[1] : b[1]});
      }
      assertEquals(30, spans.size());
      int most = 0;
      for (Instant[] span : spans.values()) {
        int overlapping = 0;
        for (Instant[] other : spans.values()) {
          if (!other[0].isAfter(span[0]) && !other[1].isBefore(span[0])) overlapping++;
        }
        most = Math.max(most, overlapping);
      }
      assertTrue(most <= 4, "at most 4 origins under way at once, saw " + most);
    }
  }

  /**
   * One origin at a time: a.example.test is crawled and put aside, then z.example.test links to two new
   * pages of it. It is taken up again for the first, and its page limit (3) counts on from the pages of
   * its first spell: the second is left. Its robots.txt and sitemap are not fetched twice.
   */
  @Test
  void anOriginTakenUpAgainGoesOnWhereItStopped() throws Exception {
    try (TestSite a = TestSite.start(); TestSite z = TestSite.start()) {
      a.robots("User-agent: *\nAllow: /\nSitemap: " + a.url("a.example.test", "/sitemap.txt") + "\n")
          .route("/sitemap.txt", ex -> TestSite.respond(ex, 200, "text/plain", a.url("a.example.test", "/x") + "\n"))
          .linking("/").linking("/x").linking("/late").linking("/later");
      z.linking("/", a.url("a.example.test", "/late"), a.url("a.example.test", "/later"));
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("a.example.test", "/"), z.url("z.example.test", "/")),
          "limits: { fetch_timeout: 2s, max_retries: 2, max_active_origins: 1, max_pages_per_origin: 3 }\n"
              + "scope: { mode: domains }\n" + TestCrawl.pinnedToLoopback("a.example.test", "z.example.test")));

      assertEquals(List.of("/robots.txt", "/sitemap.txt", "/", "/x", "/late"), a.paths());
      assertEquals(List.of("/robots.txt", "/"), z.paths());
      assertTrue(a.requests().getLast().arrivedNanos() > z.requests().getLast().arrivedNanos(),
          "/late was fetched after z.example.test's page named it");
    }
  }

  /**
   * The status page lists the origins of the run's view: once the working set held only the origins
   * under way, a finished run listed none. The last origins to leave stay listed.
   */
  @Test
  void theRunsViewListsTheOriginsThatLeftTheWorkingSet() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a").linking("/a");
      Path data = tmp.resolve("data");
      var config = TestCrawl.config(data, List.of(site.url("one.test", "/"), site.url("two.test", "/")),
          "limits: { fetch_timeout: 2s, max_retries: 2, max_active_origins: 1 }\n"
              + TestCrawl.pinnedToLoopback("one.test", "two.test"));
      java.util.concurrent.atomic.AtomicReference<RunView> view = new java.util.concurrent.atomic.AtomicReference<>();
      try (Crawler crawler = Crawler.open(config)) {
        crawler.quiet(true).listener(new CrawlListener() {
          @Override
          public void runStarted(RunView run) {
            view.set(run);
          }
        });
        crawler.run();
      }
      List<OriginSnapshot> listed = view.get().origins();
      assertEquals(java.util.Set.of(site.url("one.test", "/").replaceAll("/$", ""), site.url("two.test", "/").replaceAll("/$", "")),
          listed.stream().map(o -> o.origin().toString()).collect(java.util.stream.Collectors.toSet()));
      assertTrue(listed.stream().allMatch(o -> o.pagesFetched() == 2), listed.toString());
      assertEquals(2, view.get().originsInScope());
    }
  }
}
