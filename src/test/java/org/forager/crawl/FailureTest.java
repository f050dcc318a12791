package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.forager.fetch.Outcome;
import org.forager.record.RunSummary;
import org.forager.testweb.CapturedConsole;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Failing servers: retries, patience, robots.txt errors, timeouts, the network policy. */
@Timeout(60)
class FailureTest {

  @TempDir Path tmp;
  @RegisterExtension final CapturedConsole console = new CapturedConsole();

  @Test
  void transientFailureIsRetriedUpToMaxRetriesWithGrowingDelay() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/flaky").route("/flaky", ex -> TestSite.respond(ex, 503, "text/plain", "try later"));
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "limits: { fetch_timeout: 2s, max_retries: 2 }"));

      assertEquals(3, site.count("/flaky"), "first try and two retries");
      List<JsonNode> tries = TestCrawl.log(data).stream()
          .filter(l -> l.get("url").asText().equals(site.url("/flaky"))).toList();
      assertEquals(List.of(1, 2, 3), tries.stream().map(l -> l.get("attempt").asInt()).toList());
      tries.forEach(t -> assertEquals("HTTP_ERROR", t.get("outcome").asText()));
      var requests = site.requests().stream().filter(r -> r.path().equals("/flaky")).toList();
      double first = (requests.get(1).arrivedNanos() - requests.get(0).finishedNanos()) / 1e6;
      double second = (requests.get(2).arrivedNanos() - requests.get(1).finishedNanos()) / 1e6;
      assertTrue(first >= 100, "first retry after the backoff, was " + first + " ms");
      assertTrue(second >= 200, "second retry waits longer, was " + second + " ms");
    }
  }

  @Test
  void originThatFailsEverythingIsGivenUpWhenPatienceRunsOut() throws Exception {
    try (TestSite site = TestSite.start()) {
      String[] links = new String[20];
      for (int i = 0; i < links.length; i++) {
        links[i] = "/broken" + i;
        site.route(links[i], ex -> TestSite.respond(ex, 500, "text/plain", "boom"));
      }
      site.linking("/", links);
      Path data = tmp.resolve("data");
      RunSummary summary = TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));

      long broken = site.paths().stream().filter(p -> p.startsWith("/broken")).count();
      assertEquals(OriginCrawler.INITIAL_PATIENCE, broken, "stops after patience runs out");
      assertEquals(OriginCrawler.INITIAL_PATIENCE, summary.count(Outcome.HTTP_ERROR) - 1, "and robots' 404");
    }
  }

  /** A site answering 403 to everything cost no patience: the crawl kept asking, page after page. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {401, 403, 451})
  void aSiteThatDeniesEveryRequestRunsOutOfPatience(int status) throws Exception {
    try (TestSite site = TestSite.start()) {
      List<String> seeds = new java.util.ArrayList<>();
      for (int i = 0; i < 30; i++) {
        site.route("/p" + i, ex -> TestSite.respond(ex, status, "text/plain", "go away"));
        seeds.add(site.url("/p" + i));
      }
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, seeds, ""));

      long pages = site.paths().stream().filter(p -> p.startsWith("/p")).count();
      // The first denial is an answer; each one after it in a row costs a patience point.
      assertEquals(1 + OriginCrawler.INITIAL_PATIENCE, pages, "gave up after a streak of denials");
    }
  }

  @Test
  void aFewForbiddenPagesAmongGoodOnesCostNothing() throws Exception {
    try (TestSite site = TestSite.start()) {
      String[] links = new String[20];
      for (int i = 0; i < links.length; i++) {
        links[i] = "/p" + i;
        int n = i;
        site.route("/p" + i, ex -> {
          if (n % 2 == 0) TestSite.respond(ex, 403, "text/plain", "staff only");
          else TestSite.respond(ex, 200, "text/html", "<p>ok</p>");
        });
      }
      site.linking("/", links);
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));
      assertEquals(20, site.paths().stream().filter(p -> p.startsWith("/p")).count(), "every page asked once");
    }
  }

  /**
   * A continuous run does not end: an origin out of patience rests an hour and is tried again, and the
   * operator's line says so, not "for this run" (review of session 61).
   */
  @Test
  void anOriginOutOfPatienceInAContinuousRunIsSaidToRestNotToBeGivenUpForTheRun() throws Exception {
    java.util.concurrent.CountDownLatch outOfPatience = new java.util.concurrent.CountDownLatch(OriginCrawler.INITIAL_PATIENCE);
    try (TestSite site = TestSite.start()) {
      String[] links = new String[20];
      for (int i = 0; i < links.length; i++) {
        links[i] = "/broken" + i;
        site.route(links[i], ex -> {
          TestSite.respond(ex, 500, "text/plain", "boom");
          outOfPatience.countDown();
        });
      }
      site.linking("/", links);
      Path data = tmp.resolve("data");
      // The notice is printed as the last failure is counted, after its response was sent.
      crawlContinuouslyUntilNoticed(TestCrawl.config(data, List.of(site.url("/")), ""), outOfPatience, "out of patience");
      assertTrue(console.err().contains(": out of patience (last: HTTP_ERROR for " + site.url("/broken")), console.err());
      assertTrue(console.err().contains("; resting it 1h before trying again\n"), console.err());
    }
  }

  /**
   * A Retry-After beyond max_retry_after in a continuous run: the origin rests as long as the server asked,
   * not the hour's rest alone, which would have asked again an hour early (review of session 61).
   */
  @Test
  void aContinuousRunRestsAnOriginAsLongAsItsRetryAfterAskedBeyondMaxRetryAfter() throws Exception {
    java.util.concurrent.CountDownLatch asked = new java.util.concurrent.CountDownLatch(1);
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/busy").route("/busy", ex -> {
        ex.getResponseHeaders().add("Retry-After", "7200");
        TestSite.respond(ex, 429, "text/plain", "later");
        asked.countDown();
      });
      Path data = tmp.resolve("data");
      crawlContinuouslyUntilNoticed(TestCrawl.config(data, List.of(site.url("/")), ""), asked, "Retry-After");
      assertTrue(console.err().contains("asks to wait 7200 s (Retry-After), more than politeness.max_retry_after; "
          + "resting it 2h before trying again"), console.err());
      assertEquals(1, site.count("/busy"), "asked once");
    }
  }

  /**
   * A site that answers 429 to everything is refusing service: two rate-limited answers in a row are its
   * pacing, each after them costs a patience point, so the run ends after six instead of four attempts
   * of every URL at delays doubling to max_delay (an hour per ten URLs: the attacker review).
   */
  @Test
  void anOriginThatRateLimitsEverythingRunsOutOfPatience() throws Exception {
    try (TestSite site = TestSite.start()) {
      String[] links = new String[10];
      for (int i = 0; i < links.length; i++) {
        links[i] = "/p" + i;
        site.route(links[i], ex -> {
          ex.getResponseHeaders().add("Retry-After", "0");
          TestSite.respond(ex, 429, "text/plain", "later");
        });
      }
      site.linking("/", links);
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")),
          "politeness: { min_delay: 10ms, max_delay: 40ms, response_time_factor: 0 }\nlimits: { max_retries: 3 }"));
      long asked = java.util.Arrays.stream(links).mapToLong(site::count).sum();
      // Two answers free, then a point each; /p0's fourth attempt also spent its retries (a point more).
      assertEquals(6, asked, site.paths().toString());
      assertTrue(console.err().contains(": out of patience (last: 6 answers in a row rate limited (last: 429 for "),
          console.err());
    }
  }

  /**
   * A Retry-After on robots.txt or on a sitemap holds the origin's next request as on a page: the retry of
   * robots.txt came after 1, 2 and 4 s, and the page after a rate-limited sitemap 1 s later (the attacker review).
   */
  @Test
  void aRetryAfterOnRobotsTxtOrASitemapHoldsTheOriginsNextRequest() throws Exception {
    java.util.concurrent.atomic.AtomicInteger robotsAsked = new java.util.concurrent.atomic.AtomicInteger();
    try (TestSite site = TestSite.start()) {
      site.route("/robots.txt", ex -> {
        if (robotsAsked.incrementAndGet() == 1) {
          ex.getResponseHeaders().add("Retry-After", "3");
          TestSite.respond(ex, 429, "text/plain", "later");
        } else {
          TestSite.respond(ex, 200, "text/plain", "User-agent: *\nAllow: /\nSitemap: " + site.url("/sitemap.xml") + "\n");
        }
      }).route("/sitemap.xml", ex -> {
        ex.getResponseHeaders().add("Retry-After", "3");
        TestSite.respond(ex, 429, "text/plain", "later");
      }).html("/", "<p>home</p>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")),
          "politeness: { min_delay: 10ms, max_delay: 1s, response_time_factor: 0 }\nsitemaps: { enabled: true }"));
      List<com.fasterxml.jackson.databind.JsonNode> log = TestCrawl.log(data);
      assertEquals(List.of("/robots.txt", "/robots.txt", "/sitemap.xml", "/"), site.paths());
      assertTrue(gapMillis(log.get(0), log.get(1)) >= 3000, "robots.txt asked again after its Retry-After: " + log);
      assertTrue(gapMillis(log.get(2), log.get(3)) >= 3000, "the page after the sitemap's Retry-After: " + log);
      TestCrawl.assertPolite(data);
    }
  }

  /**
   * A Retry-After holds across runs: a run started at once after one that was asked to wait two hours sent
   * three requests 20 s later, and one asked for 60 s came back 39 s early (the attacker review).
   */
  @Test
  void aRetryAfterHoldsAcrossRuns() throws Exception {
    java.util.concurrent.atomic.AtomicInteger shortAsked = new java.util.concurrent.atomic.AtomicInteger();
    try (TestSite site = TestSite.start(); TestSite other = TestSite.start()) {
      site.linking("/", "/busy").route("/busy", ex -> {
        ex.getResponseHeaders().add("Retry-After", "7200");
        TestSite.respond(ex, 429, "text/plain", "later");
      });
      Path data = tmp.resolve("data");
      var config = TestCrawl.config(data, List.of(site.url("/")), "politeness: { min_delay: 10ms, response_time_factor: 0 }");
      TestCrawl.run(config);
      List<String> asked = List.copyOf(site.paths());
      assertEquals(List.of("/robots.txt", "/", "/busy"), asked);
      console.reset();
      // A new seed of the origin: due at once, so that only the wait can hold it.
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/"), site.url("/new")),
          "politeness: { min_delay: 10ms, response_time_factor: 0 }"));
      assertEquals(asked, site.paths(), "nothing sent in the two hours asked for, robots.txt included");
      assertTrue(console.err().contains(site.origin() + " asked to wait until "), console.err());

      other.linking("/", "/busy").route("/busy", ex -> {
        if (shortAsked.incrementAndGet() == 1) {
          ex.getResponseHeaders().add("Retry-After", "3");
          TestSite.respond(ex, 429, "text/plain", "later");
        } else {
          TestSite.respond(ex, 200, "text/html", "<p>now</p>");
        }
      });
      Path otherData = tmp.resolve("other");
      var shortConfig = TestCrawl.config(otherData, List.of(other.url("/")),
          "politeness: { min_delay: 10ms, response_time_factor: 0 }\nmax_actions: 3");
      TestCrawl.run(shortConfig); // ends with the 429's retry pending
      TestCrawl.run(TestCrawl.config(otherData, List.of(other.url("/")), "politeness: { min_delay: 10ms, response_time_factor: 0 }"));
      List<com.fasterxml.jackson.databind.JsonNode> busy = TestCrawl.log(otherData).stream()
          .filter(l -> l.get("url").asText().equals(other.url("/busy"))).toList();
      assertEquals(2, busy.size(), busy.toString());
      assertTrue(gapMillis(busy.get(0), busy.get(1)) >= 3000, "the next run waited out the Retry-After: " + busy);
    }
  }

  /**
   * An origin with nothing left to ask is done at once, not when its delay has passed: a slow last page
   * (1 s, response_time_factor 10: a 10 s delay) held the run's end 10 s (the attacker review: 103 s at
   * 0/s with every origin's work done).
   */
  @Test
  void aRunEndsWhenNothingIsLeftNotWhenTheLastDelayHasPassed() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.route("/", ex -> {
        try {
          Thread.sleep(1000); // the server's own slowness, which the delay follows
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        TestSite.respond(ex, 200, "text/html", "<p>slow</p>");
      });
      long start = System.nanoTime();
      TestCrawl.run(TestCrawl.config(tmp.resolve("data"), List.of(site.url("/")),
          "politeness: { min_delay: 10ms, max_delay: 30s, response_time_factor: 10 }"));
      long seconds = (System.nanoTime() - start) / 1_000_000_000L;
      assertEquals(List.of("/robots.txt", "/"), site.paths());
      assertTrue(seconds < 8, "ended after its last page, not its 10 s delay: " + seconds + " s");
    }
  }

  /** From the end of one logged request to the start of the next. */
  private static long gapMillis(com.fasterxml.jackson.databind.JsonNode first, com.fasterxml.jackson.databind.JsonNode next) {
    java.time.Instant end = java.time.Instant.parse(first.get("ts").asText()).plusMillis(first.get("duration_ms").asLong());
    return java.time.Duration.between(end, java.time.Instant.parse(next.get("ts").asText())).toMillis();
  }

  /**
   * Runs a continuous crawl until the server saw what {@code reached} counts and the crawl printed a line
   * holding {@code notice} (within 10 s more), then stops it.
   */
  private void crawlContinuouslyUntilNoticed(org.forager.config.CrawlConfig config,
      java.util.concurrent.CountDownLatch reached, String notice) throws Exception {
    try (Crawler crawler = Crawler.open(config).continuous(true)) {
      Thread run = Thread.ofPlatform().start(() -> {
        try {
          crawler.run();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      assertTrue(reached.await(30, java.util.concurrent.TimeUnit.SECONDS));
      for (long end = System.nanoTime() + 10_000_000_000L; !console.err().contains(notice) && System.nanoTime() < end; ) {
        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
      }
      crawler.stop();
      run.join(10_000);
    }
  }

  /** A 403 on robots.txt keeps RFC 9309's reading (no rules: allow all) and says so in the log. */
  @Test
  void aForbiddenRobotsTxtAllowsAllAndIsNotedInTheLog() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.route("/robots.txt", ex -> TestSite.respond(ex, 403, "text/plain", "no")).linking("/", "/a").linking("/a");
      Path data = tmp.resolve("data");
      RunSummary summary = TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));
      assertEquals(List.of("/robots.txt", "/", "/a"), site.paths());
      var robots = TestCrawl.log(data).get(0);
      assertTrue(robots.get("reason").asText().startsWith("robots.txt access denied (403)"), robots.toString());
      assertEquals(1, summary.robotsDenied());
    }
  }

  @Test
  void unreachableRobotsTxtMeansNothingIsCrawledAndTheOriginIsGivenUp() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.route("/robots.txt", ex -> TestSite.respond(ex, 500, "text/plain", "down")).linking("/", "/a");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));

      assertEquals(3, site.requests().size(), "robots.txt: one attempt and limits.max_retries (2) retries");
      assertTrue(site.paths().stream().allMatch("/robots.txt"::equals), "no page while robots.txt is 5xx");
    }
  }

  @Test
  void robotsTxtRedirectIsFollowed() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.route("/robots.txt", ex -> {
            ex.getResponseHeaders().set("Location", "/real-robots.txt");
            TestSite.respond(ex, 301, "text/html", "moved");
          })
          .route("/real-robots.txt", ex -> TestSite.respond(ex, 200, "text/html", "User-agent: foragerbot\nDisallow: /x\n"))
          .linking("/", "/x", "/y")
          .html("/y", "<p>y</p>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));

      assertEquals(List.of("/robots.txt", "/real-robots.txt", "/", "/y"), site.paths());
      assertEquals("BLOCKED_BY_ROBOTS_TXT", TestCrawl.lastOutcome(data, site.url("/x")));
    }
  }

  @Test
  void slowServerTimesOut() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/slow").route("/slow", ex -> {
        PolitenessTest.sleep(5_000); // never answers in time
        TestSite.respond(ex, 200, "text/html", "late");
      });
      Path data = tmp.resolve("data");
      long start = System.nanoTime();
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "limits: { fetch_timeout: 300ms, max_retries: 0 }"));
      assertEquals("TIMEOUT", TestCrawl.lastOutcome(data, site.url("/slow")));
      assertTrue((System.nanoTime() - start) / 1e9 < 4.5, "the crawl did not wait for the slow server");
    }
  }

  @Test
  void anOutputThatCannotBeWrittenStopsTheCrawlAtOnce() throws Exception {
    try (TestSite site = TestSite.start()) {
      String[] links = new String[20];
      for (int i = 0; i < links.length; i++) links[i] = "/p" + i;
      site.linking("/", links);
      Path data = tmp.resolve("data");
      try (Crawler crawler = Crawler.open(TestCrawl.config(data, List.of(site.url("/")), ""))) {
        // Where the WARC files go is now a plain file: every WARC write fails, as on a full disk.
        java.nio.file.Files.delete(data.resolve("warc"));
        java.nio.file.Files.writeString(data.resolve("warc"), "not a directory");
        crawler.run();
        assertTrue(crawler.fatalError().isPresent());
        assertTrue(crawler.fatalError().get().startsWith("cannot record the crawl"), crawler.fatalError().get());
      }
      assertEquals(List.of("/robots.txt"), site.paths(), "no further request once nothing can be recorded");
    }
  }

  @Test
  void privateAddressesAreRefusedUnlessAllowed() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "network: { allow_private_addresses: false }"));
      assertTrue(site.requests().isEmpty(), "127.0.0.1 is never contacted");
      assertEquals("BLOCKED_BY_NETWORK_POLICY", TestCrawl.lastOutcome(data, site.url("/robots.txt")));
    }
  }
}
