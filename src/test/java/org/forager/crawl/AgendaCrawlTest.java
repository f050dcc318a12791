package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.forager.config.CrawlConfig;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run takes up only the origins with work, as the store's agenda lists them (issue 14: the cost per
 * page must not grow with the origins known): an origin whose URLs are all crawled and not due again
 * is not loaded, gets no request and costs the run nothing, until its URLs come due or it is time to
 * read its sitemaps again ({@code sitemaps.reread_after}).
 */
@Timeout(120)
class AgendaCrawlTest {

  private static final int OLD = 20;

  @TempDir Path tmp;

  /**
   * Twenty origins crawled in a first run (recrawls due in 30 days); an hour later a second run with
   * one more seed origin: only that one is taken up and requested. Before the agenda, every origin of
   * the scope was taken up in every run and asked for its /sitemap.xml again.
   */
  @Test
  void aRunTakesUpOnlyTheOriginsWithWork() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a").linking("/a");
      Path data = tmp.resolve("data");
      List<String> seeds = new ArrayList<>();
      String[] hosts = new String[OLD + 1];
      for (int i = 0; i <= OLD; i++) hosts[i] = "h%02d.test".formatted(i);
      for (int i = 0; i < OLD; i++) seeds.add(site.url(hosts[i], "/"));
      String yaml = "limits: { fetch_timeout: 2s, max_retries: 2, max_active_origins: 4 }\n"
          + "recrawl: { interval: 30d }\nsitemaps: { default_location: true }\n" + TestCrawl.pinnedToLoopback(hosts);
      TestCrawl.run(TestCrawl.config(data, seeds, yaml));
      int firstRun = site.requests().size();
      assertEquals(OLD * 4, firstRun, "robots.txt, /sitemap.xml and two pages of each origin");

      seeds.add(site.url(hosts[OLD], "/"));
      CrawlConfig config = TestCrawl.config(data, seeds, yaml);
      AtomicReference<RunView> view = new AtomicReference<>();
      try (Crawler crawler = Crawler.open(config, Clock.offset(Clock.systemUTC(), Duration.ofHours(1)))) {
        crawler.quiet(true).listener(new CrawlListener() {
          @Override
          public void runStarted(RunView run) {
            view.set(run);
          }
        });
        crawler.run();
      }
      TestCrawl.assertPolite(data);
      List<TestSite.Request> secondRun = site.requests().subList(firstRun, site.requests().size());
      Set<String> hostsAsked = secondRun.stream().map(r -> r.header("Host").replaceAll(":\\d+$", ""))
          .collect(Collectors.toSet());
      assertEquals(Set.of(hosts[OLD]), hostsAsked, "only the new origin was requested: " + secondRun.size());
      assertEquals(4, secondRun.size());
      assertEquals(Set.of(origin(site, hosts[OLD])),
          view.get().origins().stream().map(o -> o.origin().toString()).collect(Collectors.toSet()),
          "only the new origin entered the working set");
    }
  }

  /**
   * An origin with nothing due is still taken up once {@code sitemaps.reread_after} has passed since it
   * left, to read its sitemaps again (and the new page they list is crawled); before that, not at all.
   */
  @Test
  void anOriginWithNothingDueIsTakenUpAgainToReadItsSitemapsAfterRereadAfter() throws Exception {
    try (TestSite site = TestSite.start()) {
      String host = "maps.test";
      List<String> listed = new ArrayList<>(List.of(site.url(host, "/a")));
      site.robots("User-agent: *\nAllow: /\nSitemap: " + site.url(host, "/sitemap.txt") + "\n")
          .route("/sitemap.txt", ex -> TestSite.respond(ex, 200, "text/plain", String.join("\n", listed) + "\n"))
          .linking("/").linking("/a").linking("/b");
      Path data = tmp.resolve("data");
      CrawlConfig config = TestCrawl.config(data, List.of(site.url(host, "/")),
          "limits: { fetch_timeout: 2s, max_retries: 2 }\nrecrawl: { interval: 30d }\n"
              + "sitemaps: { reread_after: 2d }\n" + TestCrawl.pinnedToLoopback(host));
      TestCrawl.run(config);
      assertEquals(List.of("/robots.txt", "/sitemap.txt", "/", "/a"), site.paths());
      listed.add(site.url(host, "/b"));

      try (Crawler crawler = Crawler.open(config, Clock.offset(Clock.systemUTC(), Duration.ofDays(1)))) {
        crawler.quiet(true).run();
      }
      assertEquals(4, site.paths().size(), "a day later: not taken up, " + site.paths());

      try (Crawler crawler = Crawler.open(config, Clock.offset(Clock.systemUTC(), Duration.ofDays(3)))) {
        crawler.quiet(true).run();
      }
      List<String> third = site.paths().subList(4, site.paths().size());
      assertEquals(List.of("/robots.txt", "/sitemap.txt", "/b"), third,
          "three days later: robots.txt (expired), the sitemap again and the page it now lists");
      TestCrawl.assertPolite(data);
      assertTrue(TestCrawl.log(data).size() >= 7);
    }
  }

  private static String origin(TestSite site, String host) {
    return site.url(host, "/").replaceAll("/$", "");
  }
}
