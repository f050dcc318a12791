package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Politeness measured from the servers' side: delays, requests in flight, rate limits. */
@Timeout(60)
class PolitenessTest {

  @TempDir Path tmp;

  private static TestSite siteWithPages(int pages) throws IOException {
    TestSite site = TestSite.start();
    String[] links = new String[pages];
    for (int i = 0; i < pages; i++) {
      links[i] = "/p" + i;
      site.html(links[i], "<p>page " + i + "</p>");
    }
    return site.linking("/", links);
  }

  @Test
  void minDelayIsKeptFromTheEndOfOneRequestToTheStartOfTheNextRobotsIncluded() throws Exception {
    try (TestSite site = siteWithPages(5)) {
      site.robots("User-agent: *\nAllow: /\n");
      TestCrawl.run(TestCrawl.config(tmp.resolve("data"), List.of(site.url("/")),
          "politeness: { min_delay: 150ms, max_delay: 10s, response_time_factor: 0 }"));
      assertEquals(7, site.requests().size());
      assertTrue(site.minIntervalMillis() >= 150, "smallest interval " + site.minIntervalMillis() + " ms");
    }
  }

  @Test
  void delayGrowsWithResponseTime() throws Exception {
    try (TestSite site = TestSite.start()) {
      TestSite.Route slow = ex -> {
        sleep(40); // the server is slow: latency it adds, not synchronisation
        TestSite.respond(ex, 200, "text/html", "<a href=/a>a</a><a href=/b>b</a><a href=/c>c</a>");
      };
      site.route("/robots.txt", slow).route("/", slow).route("/a", slow).route("/b", slow).route("/c", slow);
      TestCrawl.run(TestCrawl.config(tmp.resolve("data"), List.of(site.url("/")),
          "politeness: { min_delay: 0s, max_delay: 10s, response_time_factor: 3 }"));
      assertEquals(5, site.requests().size());
      // Every response took at least 40 ms as the crawler saw it, so the delay was at least 3 × 40 ms.
      assertTrue(site.minIntervalMillis() >= 120, "smallest interval " + site.minIntervalMillis() + " ms");
    }
  }

  @Test
  void crawlDelayFromRobotsTxtIsObeyed() throws Exception {
    try (TestSite site = siteWithPages(2)) {
      site.robots("User-agent: *\nCrawl-delay: 1\n");
      TestCrawl.run(TestCrawl.config(tmp.resolve("data"), List.of(site.url("/")), ""));
      assertEquals(4, site.requests().size());
      assertTrue(site.minIntervalMillis() >= 1000, "smallest interval " + site.minIntervalMillis() + " ms");
    }
  }

  /** Whatever sends an origin's requests: the scheduler's turns, or the turn before as it ends (early requests). */
  @ParameterizedTest
  @ValueSource(strings = {"never", "always", "auto"})
  void neverTwoRequestsInFlightToOneOriginWhileManyOriginsAreCrawledAtOnce(String earlyRequests) throws Exception {
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger maxInFlight = new AtomicInteger();
    List<TestSite> sites = new ArrayList<>();
    try {
      for (int s = 0; s < 6; s++) {
        TestSite site = TestSite.start();
        sites.add(site);
        TestSite.Route slow = ex -> {
          maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
          try {
            sleep(30);
            TestSite.respond(ex, 200, "text/html", "<a href=/1>1</a><a href=/2>2</a><a href=/3>3</a><a href=/4>4</a>");
          } finally {
            inFlight.decrementAndGet();
          }
        };
        for (String p : List.of("/", "/1", "/2", "/3", "/4")) site.route(p, slow);
      }
      // Six origins on 127.0.0.1 stand for six servers here: the address's own limit is lifted.
      TestCrawl.run(TestCrawl.config(tmp.resolve("data"), sites.stream().map(s -> s.url("/")).toList(),
          "politeness: { min_delay: 0s, max_delay: 10s, response_time_factor: 0, per_ip: { max_in_flight: 6 } }\n"
          + "network: { allow_private_addresses: true, early_requests: " + earlyRequests + " }"));
      for (TestSite site : sites) {
        assertEquals(6, site.requests().size());
        assertEquals(1, site.maxInFlight(), "one request in flight per origin");
      }
      assertTrue(maxInFlight.get() > 1, "origins are crawled concurrently, saw " + maxInFlight.get());
    } finally {
      sites.forEach(TestSite::close);
    }
  }

  @Test
  void rateLimitWithRetryAfterIsWaitedOutAndRetried() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/busy").route("/busy", ex -> {
        if (calls.incrementAndGet() == 1) {
          ex.getResponseHeaders().set("Retry-After", "1");
          TestSite.respond(ex, 429, "text/plain", "slow down");
        } else {
          TestSite.respond(ex, 200, "text/html", "<p>ok</p>");
        }
      });
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));

      List<JsonNode> busy = TestCrawl.log(data).stream()
          .filter(l -> l.get("url").asText().equals(site.url("/busy"))).toList();
      assertEquals(2, busy.size());
      assertEquals("RATE_LIMITED", busy.get(0).get("outcome").asText());
      assertEquals(1000, busy.get(0).path("retry_after_ms").asLong(), "the wait asked for, for the audit");
      assertTrue(busy.get(1).path("retry_after_ms").isMissingNode(), "none asked");
      assertEquals(1, busy.get(0).get("attempt").asInt());
      assertEquals("FETCHED", busy.get(1).get("outcome").asText());
      assertEquals(2, busy.get(1).get("attempt").asInt());
      var requests = site.requests();
      var limited = requests.get(2);
      var retried = requests.get(3);
      assertEquals("/busy", retried.path());
      assertTrue((retried.arrivedNanos() - limited.finishedNanos()) / 1e6 >= 1000, "Retry-After: 1 waited out");
    }
  }

  /**
   * A run resumed at once sent its first request 19 ms after the previous run's last one (delay
   * 20 ms): the delay holds across runs, counted from the resume since the last request's end is not
   * kept.
   */
  @Test
  void aResumedRunWaitsTheOriginsDelayBeforeItsFirstRequest() throws Exception {
    try (TestSite site = siteWithPages(3)) {
      String politeness = "politeness: { min_delay: 300ms, max_delay: 2s, response_time_factor: 0 }\n";
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), politeness + "max_actions: 2\n"));
      TestCrawl.run(TestCrawl.config(data, List.of(), politeness));
      assertEquals(5, site.requests().size(), site.paths().toString());
      assertTrue(site.minIntervalMillis() >= 300, "smallest interval " + site.minIntervalMillis() + " ms");
    }
  }

  /** A Crawl-delay above max_delay was silently cut to max_delay: faster than the site asked. */
  @Test
  void aCrawlDelayAboveMaxDelayIsHonouredNotCutDown() throws Exception {
    try (TestSite site = siteWithPages(1)) {
      site.robots("User-agent: *\nCrawl-delay: 1\n");
      TestCrawl.run(TestCrawl.config(tmp.resolve("data"), List.of(site.url("/")),
          "politeness: { min_delay: 20ms, max_delay: 200ms, response_time_factor: 0 }"));
      assertEquals(List.of("/robots.txt", "/", "/p0"), site.paths());
      assertTrue(site.minIntervalMillis() >= 1000, "smallest interval " + site.minIntervalMillis() + " ms");
    }
  }

  @Test
  void aCrawlDelayAboveMaxCrawlDelayPutsTheOriginOffInsteadOfCrawlingFaster() throws Exception {
    try (TestSite site = siteWithPages(1)) {
      site.robots("User-agent: *\nCrawl-delay: 5\n");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")),
          "politeness: { min_delay: 20ms, max_delay: 200ms, response_time_factor: 0, max_crawl_delay: 2s }"));
      assertEquals(List.of("/robots.txt"), site.paths());
      assertTrue(TestCrawl.log(data).stream().noneMatch(a -> a.get("kind").asText().equals("page")));
    }
  }

  @Test
  void retryAfterBeyondTheMaximumPutsTheOriginOffToALaterRun() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/busy", "/other").html("/other", "<p>other</p>").route("/busy", ex -> {
        ex.getResponseHeaders().set("Retry-After", "7200");
        TestSite.respond(ex, 503, "text/plain", "maintenance");
      });
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")),
          "politeness: { min_delay: 20ms, max_delay: 2s, response_time_factor: 0, max_retry_after: 1h }"));
      assertEquals(List.of("/robots.txt", "/", "/busy"), site.paths());
      assertEquals("RATE_LIMITED", TestCrawl.lastOutcome(data, site.url("/busy")));
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
