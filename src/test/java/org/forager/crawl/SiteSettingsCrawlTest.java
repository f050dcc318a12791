package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-site settings in a real crawl: two host names pinned to loopback by {@code network.resolve},
 * each served by its own server, each given its own delay or page limit by a {@code sites} rule;
 * checked from the servers' side and by the politeness audit.
 */
@Timeout(60)
class SiteSettingsCrawlTest {

  private static final int PAGES = 4;

  @TempDir Path tmp;

  private static TestSite siteWithPages() throws IOException {
    return siteWithPages("User-agent: *\nAllow: /\n", PAGES);
  }

  private static TestSite siteWithPages(String robots, int pages) throws IOException {
    TestSite site = TestSite.start();
    String[] links = new String[pages];
    for (int i = 0; i < pages; i++) {
      links[i] = "/p" + i;
      site.html(links[i], "<p>page " + i + "</p>");
    }
    return site.robots(robots).linking("/", links);
  }

  /** {@code http://NAME:PORT}: the site under a host name the crawl resolves to loopback. */
  private static String named(TestSite site, String host) {
    return site.origin().replace("127.0.0.1", host);
  }

  private static String yaml(String sites) {
    return """
        network:
          allow_private_addresses: true
          resolve: { "slow.example.test": "127.0.0.1", "fast.example.test": "127.0.0.1" }
        politeness: { min_delay: 100ms, max_delay: 5s, response_time_factor: 0 }
        """ + sites;
  }

  /** The delays the crawl log says were in force after each request to an origin. */
  private Set<Long> loggedDelays(Path data, String origin) {
    return TestCrawl.log(data).stream()
        .filter(line -> line.get("url").asText().startsWith(origin + "/"))
        .map(line -> line.get("delay_ms").asLong())
        .collect(Collectors.toSet());
  }

  @Test
  void eachHostKeepsTheDelayItsSiteRuleGives() throws Exception {
    try (TestSite slow = siteWithPages(); TestSite fast = siteWithPages()) {
      String slowOrigin = named(slow, "slow.example.test");
      String fastOrigin = named(fast, "fast.example.test");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(slowOrigin + "/", fastOrigin + "/"), yaml("""
          sites:
            - { host: "slow.example.test", min_delay: 300ms }
            - { domain: "fast.example.test", min_delay: 20ms }
          """)));

      // Every page of both, requested under its host name.
      assertEquals(2 + PAGES, slow.requests().size(), slow.paths().toString());
      assertEquals(2 + PAGES, fast.requests().size(), fast.paths().toString());
      for (TestSite.Request r : slow.requests()) assertEquals(slowOrigin.substring(7), r.header("Host"));
      for (TestSite.Request r : fast.requests()) assertEquals(fastOrigin.substring(7), r.header("Host"));
      // Above the global 100 ms for one, below it for the other: the rules, not politeness.min_delay.
      assertTrue(slow.minIntervalMillis() >= 300, "slow site's smallest interval " + slow.minIntervalMillis() + " ms");
      assertEquals(Set.of(300L), loggedDelays(data, slowOrigin));
      assertEquals(Set.of(20L), loggedDelays(data, fastOrigin));
      assertTrue(fast.minIntervalMillis() >= 20, "fast site's smallest interval " + fast.minIntervalMillis() + " ms");
      assertEquals(1, slow.maxInFlight());
      assertEquals(1, fast.maxInFlight());
    }
  }

  @Test
  void aMaxPagesRuleCapsItsSiteAlone() throws Exception {
    try (TestSite capped = siteWithPages(); TestSite free = siteWithPages()) {
      String cappedOrigin = named(capped, "slow.example.test");
      String freeOrigin = named(free, "fast.example.test");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(cappedOrigin + "/", freeOrigin + "/"), yaml("""
          limits: { fetch_timeout: 2s, max_pages_per_origin: 100 }
          sites:
            - { host: "slow.example.test", max_pages: 2 }
          """)));

      // robots.txt and two pages; the rest stays due for a later run.
      assertEquals(List.of("/robots.txt", "/"), capped.paths().subList(0, 2));
      assertEquals(3, capped.requests().size(), capped.paths().toString());
      assertEquals(2 + PAGES, free.requests().size(), free.paths().toString());
      long pagesLogged = TestCrawl.log(data).stream()
          .filter(line -> line.get("kind").asText().equals("page"))
          .filter(line -> line.get("url").asText().startsWith(cappedOrigin + "/"))
          .count();
      assertEquals(2, pagesLogged);
    }
  }

  /** A rule may take min_delay down to zero; the site's own Crawl-delay is obeyed all the same. */
  @Test
  void aRuleBelowTheGlobalDelayStillYieldsToRobotsCrawlDelay() throws Exception {
    try (TestSite site = siteWithPages("User-agent: *\nCrawl-delay: 1\n", 1)) {
      String origin = named(site, "slow.example.test");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(origin + "/"), yaml("""
          sites: [ { host: "slow.example.test", min_delay: 0 } ]
          """)));
      assertEquals(List.of("/robots.txt", "/", "/p0"), site.paths());
      assertTrue(site.minIntervalMillis() >= 1000, "smallest interval " + site.minIntervalMillis() + " ms");
    }
  }

  /** max_crawl_delay is per site too: a Crawl-delay above the site's puts that origin off, not the other. */
  @Test
  void aSiteRulesMaxCrawlDelayPutsOffOnlyItsSite() throws Exception {
    String robots = "User-agent: *\nCrawl-delay: 0.5\n";
    try (TestSite strict = siteWithPages(robots, 1); TestSite lenient = siteWithPages(robots, 1)) {
      String strictOrigin = named(strict, "slow.example.test");
      String lenientOrigin = named(lenient, "fast.example.test");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(strictOrigin + "/", lenientOrigin + "/"), yaml("""
          sites: [ { host: "slow.example.test", max_crawl_delay: 100ms } ]
          """)));
      assertEquals(List.of("/robots.txt"), strict.paths());
      assertEquals(List.of("/robots.txt", "/", "/p0"), lenient.paths());
    }
  }
}
