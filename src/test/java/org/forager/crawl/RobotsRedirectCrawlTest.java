package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A robots.txt that redirects to another origin's robots.txt (http to https, the apex to www): RFC 9309
 * section 2.3.1.2 makes the file reached the first origin's rules. It once counted as "unavailable"
 * (allow all), and every path the target's rules disallow was requested on the first origin. Now the
 * first origin waits while the target's own turn reads its robots.txt (no request to the target from
 * the first origin's turn), then obeys it.
 */
@Timeout(60)
class RobotsRedirectCrawlTest {

  @TempDir Path tmp;

  private static void redirectRobots(TestSite from, String to) {
    from.route("/robots.txt", ex -> {
      ex.getResponseHeaders().set("Location", to);
      TestSite.respond(ex, 301, null, "");
    });
  }

  @Test
  void theTargetsRulesAreObeyedOnTheFirstOriginAndTheTargetSeesOnlyItsOwnTurns() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      redirectRobots(a, b.url("/robots.txt"));
      a.linking("/", "/private/x", "/open").html("/open", "<p>open</p>").html("/private/x", "<p>secret</p>");
      b.robots("User-agent: *\nDisallow: /private\n").linking("/");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("/"), b.url("/")),
          "politeness: { min_delay: 200ms, max_delay: 2s, response_time_factor: 0 }"));

      assertEquals(0, a.count("/private/x"), "disallowed by the robots.txt a's redirects to");
      assertEquals(1, a.count("/open"));
      assertEquals("BLOCKED_BY_ROBOTS_TXT", TestCrawl.lastOutcome(data, a.url("/private/x")));
      assertEquals(List.of("/robots.txt", "/"), b.paths(), "b saw only its own turns' requests");
      JsonNode redirect = TestCrawl.log(data).stream().filter(l -> l.get("url").asText().equals(a.url("/robots.txt")))
          .findFirst().orElseThrow();
      assertTrue(redirect.get("reason").asText().contains("its rules are this origin's (RFC 9309 2.3.1.2)"),
          redirect.toString());
      TestCrawl.assertPolite(data);
    }
  }

  /** http to https, the apex to www: the target is no seed, only in scope; its root brings its turn. */
  @Test
  void aTargetThatIsNoSeedIsCrawledForItsRulesInDomainsMode() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      redirectRobots(a, b.url("www.site.test", "/robots.txt"));
      a.linking("/", "/private/x", "/open").html("/open", "<p>open</p>").html("/private/x", "<p>secret</p>");
      b.robots("User-agent: *\nDisallow: /private\n").linking("/");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("site.test", "/")),
          "scope: { mode: domains }\n" + TestCrawl.pinnedToLoopback("site.test", "www.site.test")));

      assertEquals(0, a.count("/private/x"));
      assertEquals(1, a.count("/open"));
      assertEquals(List.of("/robots.txt", "/"), b.paths(), "the target's turn: its robots.txt, then its root");
      TestCrawl.assertPolite(data);
    }
  }

  /**
   * A target the crawl does not take on (past scope.max_origins) is never contacted: there are no rules
   * to read, and the file counts as unavailable (allow all), as the RFC has it past the redirect limit.
   */
  @Test
  void aTargetTheCrawlDoesNotTakeOnLeavesTheFileUnavailable() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      redirectRobots(a, b.url("www.site.test", "/robots.txt"));
      a.linking("/", "/private/x").html("/private/x", "<p>secret</p>");
      b.robots("User-agent: *\nDisallow: /private\n").linking("/");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("site.test", "/")),
          "scope: { mode: domains, max_origins: 1 }\n" + TestCrawl.pinnedToLoopback("site.test", "www.site.test")));

      assertEquals(List.of(), b.paths());
      assertEquals(1, a.count("/private/x"));
      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", TestCrawl.lastOutcome(data, b.url("www.site.test", "/robots.txt")));
      TestCrawl.assertPolite(data);
    }
  }

  /**
   * A later run, the rules expired (robots.cache_ttl) and the target with nothing due, so no turn of its
   * to read them again: its file from the store, an hour old, is used (RFC 9309 lets a crawler use a
   * cached file up to 24 hours) rather than waited for.
   */
  @Test
  void aLaterRunUsesTheTargetsStoredFileWithinADay() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      redirectRobots(a, b.url("/robots.txt"));
      a.linking("/", "/open").html("/open", "<p>open</p>").linking("/later", "/private/y").html("/private/y", "<p>y</p>");
      b.robots("User-agent: *\nDisallow: /private\n").linking("/");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("/"), b.url("/")), ""));
      assertEquals(List.of("/robots.txt", "/"), b.paths());

      var later = TestCrawl.config(data, List.of(a.url("/later")), "");
      try (Crawler crawler = Crawler.open(later, Clock.offset(Clock.systemUTC(), Duration.ofHours(1)))) {
        crawler.run();
      }
      assertEquals(2, a.count("/robots.txt"), "a's own robots.txt asked again: its copy had expired");
      assertEquals(1, a.count("/later"));
      assertEquals(0, a.count("/private/y"), "b's rules, an hour old, in force");
      assertEquals(List.of("/robots.txt", "/"), b.paths(), "b not contacted in the later run");
    }
  }

  /**
   * The target's Crawl-delay holds from the first origin's first page on: the wait's end went straight to
   * the page, 2 s after robots.txt where 3 s were asked (review of session 65).
   */
  @Test
  void theTargetsCrawlDelayHoldsFromTheFirstPage() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      redirectRobots(a, b.url("/robots.txt"));
      a.linking("/", "/p1").linking("/p1");
      b.robots("User-agent: *\nCrawl-delay: 1\n").linking("/");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("/"), b.url("/")), ""));
      List<Long> starts = TestCrawl.log(data).stream().filter(l -> l.get("url").asText().startsWith(a.url("/")))
          .map(l -> java.time.Instant.parse(l.get("ts").asText()).toEpochMilli()).sorted().toList();
      assertEquals(3, starts.size(), "robots.txt, /, /p1");
      for (int i = 1; i < starts.size(); i++) {
        assertTrue(starts.get(i) - starts.get(i - 1) >= 1000, "Crawl-delay 1 s between a's requests: " + starts);
      }
      TestCrawl.assertPolite(data);
    }
  }

  /**
   * A waiting origin leaves the working set: with room for one origin, it once held its place and its
   * target could not get in until the wait ran out (review of session 65).
   */
  @Test
  void aWaitingOriginLeavesItsPlaceToItsTarget() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      redirectRobots(a, b.url("www.site.test", "/robots.txt"));
      a.linking("/", "/private/x", "/open").html("/open", "<p>open</p>").html("/private/x", "<p>secret</p>");
      b.robots("User-agent: *\nDisallow: /private\n").linking("/");
      Path data = tmp.resolve("data");
      long started = System.nanoTime();
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("site.test", "/")), "scope: { mode: domains }\n"
          + "concurrency: 1\nlimits: { max_active_origins: 2, fetch_timeout: 2s, max_retries: 2 }\n"
          + TestCrawl.pinnedToLoopback("site.test", "www.site.test")));
      assertEquals(1, a.count("/open"));
      assertEquals(0, a.count("/private/x"));
      assertTrue(System.nanoTime() - started < 30_000_000_000L, "no wait ran out");
    }
  }

  /** A target whose robots.txt cannot be read puts the first origin off at once, not after a long wait. */
  @Test
  void aTargetWhoseRobotsTxtFailsPutsTheFirstOriginOffAtOnce() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      redirectRobots(a, b.url("/robots.txt"));
      a.linking("/", "/open");
      b.route("/robots.txt", ex -> TestSite.respond(ex, 503, "text/plain", "down"));
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("/"), b.url("/")),
          "limits: { fetch_timeout: 2s, max_retries: 1 }"));
      assertEquals(List.of("/robots.txt"), a.paths(), "a's rules are b's, unreadable: nothing else of a fetched");
      TestCrawl.assertPolite(data);
    }
  }

  /** Two origins whose robots.txt redirect to each other: a loop, read as past the redirect limit. */
  @Test
  void aLoopBetweenTwoOriginsIsUnavailableNotAWait() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      redirectRobots(a, b.url("/robots.txt"));
      redirectRobots(b, a.url("/robots.txt"));
      a.linking("/", "/open").html("/open", "<p>a</p>");
      b.linking("/", "/open").html("/open", "<p>b</p>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("/"), b.url("/")), ""));
      assertEquals(1, a.count("/open"));
      assertEquals(1, b.count("/open"));
      TestCrawl.assertPolite(data);
    }
  }

  /** A target with nothing due, its file older than a day: it is taken up for its robots.txt alone. */
  @Test
  void aTargetWithNothingDueIsTakenUpForItsRobotsTxt() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      redirectRobots(a, b.url("/robots.txt"));
      a.linking("/", "/open").html("/open", "<p>open</p>").linking("/later", "/private/y").html("/private/y", "<p>y</p>");
      b.robots("User-agent: *\nDisallow: /private\n").linking("/");
      Path data = tmp.resolve("data");
      String config = "sitemaps: { enabled: false }\nrecrawl: { interval: 7d }";
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("/"), b.url("/")), config));

      var later = TestCrawl.config(data, List.of(a.url("/later")), config);
      try (Crawler crawler = Crawler.open(later, Clock.offset(Clock.systemUTC(), Duration.ofHours(25)))) {
        crawler.run();
      }
      assertEquals(1, a.count("/later"));
      assertEquals(0, a.count("/private/y"));
      assertEquals(List.of("/robots.txt", "/", "/robots.txt"), b.paths(), "b's robots.txt read again, nothing else");
      TestCrawl.assertPolite(data);
    }
  }
}
