package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** robots.txt files that hang, are huge, loop, or come in odd shapes, through a real crawl. */
@Timeout(60)
class HostileRobotsTest {

  @TempDir Path tmp;

  private Path data() {
    return tmp.resolve("data");
  }

  /**
   * A robots.txt that kept timing out was asked 5 times (one per patience point), each logged as
   * attempt 1: now it is retried like a page, limits.max_retries times, and the log counts attempts.
   */
  @Test
  void robotsTxtThatKeepsTimingOutIsRetriedLikeAPageAndItsAttemptsAreCounted() throws Exception {
    java.util.concurrent.atomic.AtomicInteger robotsRequests = new java.util.concurrent.atomic.AtomicInteger();
    try (TestSite site = TestSite.start()) {
      site.route("/robots.txt", ex -> {
        robotsRequests.incrementAndGet();
        PolitenessTest.sleep(10_000);
      }).linking("/", "/a");
      TestCrawl.run(TestCrawl.config(data(), List.of(site.url("/")), "limits: { fetch_timeout: 200ms, max_retries: 2 }"));
      assertTrue(site.paths().isEmpty(), "no page without robots.txt: " + site.paths());
      assertEquals(3, robotsRequests.get(), "one attempt and limits.max_retries retries");
      List<Integer> attempts = new java.util.ArrayList<>();
      for (var action : TestCrawl.log(data())) {
        if (action.get("kind").asText().equals("robots")) {
          assertEquals("TIMEOUT", action.get("outcome").asText());
          attempts.add(action.get("attempt").asInt());
        }
      }
      assertEquals(List.of(1, 2, 3), attempts);
    }
  }

  @Test
  void robotsTxtRedirectLoopEndsAfterFiveHopsAndAllowsAll() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.route("/robots.txt", ex -> redirect(ex, "/r1"))
          .route("/r1", ex -> redirect(ex, "/r2"))
          .route("/r2", ex -> redirect(ex, "/robots.txt"))
          .html("/", "<p>home</p>");
      TestCrawl.run(TestCrawl.config(data(), List.of(site.url("/")), ""));
      assertEquals(6, site.paths().size() - 1, "the first request and five redirects, then the page: " + site.paths());
      assertEquals("/", site.paths().get(site.paths().size() - 1));
      assertEquals("FETCHED", TestCrawl.lastOutcome(data(), site.url("/")));
    }
  }

  /**
   * Each hop of a slow robots.txt redirect chain waited only min_delay: the chain's response times were
   * counted once it ended, and every hop was logged with the delay they gave, so the crawler's own
   * audit found it impolite. Now each redirect's response time counts before the next hop.
   */
  @Test
  void slowRobotsTxtRedirectsEachWaitTheDelayTheirResponseTimeGives() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.route("/robots.txt", ex -> {
        PolitenessTest.sleep(150);
        redirect(ex, "/r1");
      }).route("/r1", ex -> {
        PolitenessTest.sleep(150);
        redirect(ex, "/r2");
      }).route("/r2", ex -> {
        PolitenessTest.sleep(150);
        TestSite.respond(ex, 200, "text/plain", "User-agent: *\nDisallow: /no\n");
      }).html("/", "<p>home</p>");
      // run() asserts the audit of the crawl's own log: every hop after the delay its line says.
      TestCrawl.run(TestCrawl.config(data(), List.of(site.url("/")),
          "politeness: { min_delay: 10ms, response_time_factor: 2, max_delay: 5s }"));
      List<Long> delays = TestCrawl.log(data()).stream().filter(a -> a.get("kind").asText().equals("robots"))
          .map(a -> a.get("delay_ms").asLong()).toList();
      assertEquals(3, delays.size(), delays.toString());
      assertTrue(delays.get(0) >= 300, "two times a 150 ms redirect before the next hop: " + delays);
      assertEquals("FETCHED", TestCrawl.lastOutcome(data(), site.url("/")));
    }
  }

  /** A robots.txt cut by the deadline was logged FETCHED, though no rules came of it (unreachable). */
  @Test
  void aRobotsTxtCutShortIsLoggedTruncatedAndNoPageFollows() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.route("/robots.txt", ex -> {
        ex.getResponseHeaders().set("Content-Type", "text/plain");
        ex.sendResponseHeaders(200, 10_000);
        try (var body = ex.getResponseBody()) {
          body.write("User-agent: *\nDisallow: /sec".getBytes(StandardCharsets.UTF_8));
          body.flush();
          PolitenessTest.sleep(3_000); // the rest never comes within the fetch's deadline
        } catch (java.io.IOException closedByTheCrawler) {
          // the crawler hung up at its deadline
        }
      }).linking("/", "/secret");
      TestCrawl.run(TestCrawl.config(data(), List.of(site.url("/")), "limits: { fetch_timeout: 300ms, max_retries: 0 }"));
      var robots = TestCrawl.log(data()).stream().filter(a -> a.get("kind").asText().equals("robots")).toList();
      assertEquals(1, robots.size(), robots.toString());
      assertEquals("TRUNCATED", robots.get(0).get("outcome").asText(), robots.toString());
      assertTrue(site.paths().isEmpty(), "no page without a whole robots.txt: " + site.paths());
    }
  }

  @Test
  void hugeRobotsTxtIsParsedUpTo500KiB() throws Exception {
    StringBuilder robots = new StringBuilder("User-agent: *\nDisallow: /early\n");
    while (robots.length() < 600 * 1024) robots.append("# filler filler filler filler filler filler\n");
    robots.append("Disallow: /late\n"); // past 500 KiB: not parsed
    try (TestSite site = TestSite.start()) {
      site.robots(robots.toString()).linking("/", "/early", "/late").html("/late", "<p>late</p>");
      TestCrawl.run(TestCrawl.config(data(), List.of(site.url("/")), ""));
      assertEquals("BLOCKED_BY_ROBOTS_TXT", TestCrawl.lastOutcome(data(), site.url("/early")));
      assertEquals("FETCHED", TestCrawl.lastOutcome(data(), site.url("/late")));
    }
  }

  @Test
  void aRobotsTxtLargerThanThePageCapIsReadUpTo500KiB() throws Exception {
    // A page cap of 100 KiB once cut a 200 KB robots.txt short: read as unreachable, retried, and the
    // origin put off with nothing crawled. robots.txt is read up to the 500 KiB parsed, whatever the cap.
    StringBuilder robots = new StringBuilder("User-agent: *\n");
    while (robots.length() < 200 * 1024) robots.append("# filler filler filler filler filler filler\n");
    robots.append("Disallow: /late\n"); // past the page cap, within 500 KiB
    try (TestSite site = TestSite.start()) {
      site.robots(robots.toString()).linking("/", "/late", "/open").html("/open", "<p>open</p>");
      TestCrawl.run(TestCrawl.config(data(), List.of(site.url("/")), "limits: { max_page_bytes: 100KiB, fetch_timeout: 2s, max_retries: 2 }\n"));
      assertEquals("FETCHED", TestCrawl.lastOutcome(data(), site.url("/open")));
      assertEquals("BLOCKED_BY_ROBOTS_TXT", TestCrawl.lastOutcome(data(), site.url("/late")));
    }
  }

  @Test
  void robotsTxtWithBomAndCrlfServedAsHtmlIsObeyed() throws Exception {
    byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    byte[] text = "User-agent: ForagerBot\r\nDisallow: /secret\r\n".getBytes(StandardCharsets.UTF_8);
    byte[] body = new byte[bom.length + text.length];
    System.arraycopy(bom, 0, body, 0, bom.length);
    System.arraycopy(text, 0, body, bom.length, text.length);
    try (TestSite site = TestSite.start()) {
      site.route("/robots.txt", ex -> TestSite.respond(ex, 200, "text/html", body))
          .linking("/", "/secret", "/open").html("/open", "<p>open</p>");
      TestCrawl.run(TestCrawl.config(data(), List.of(site.url("/")), ""));
      assertEquals("BLOCKED_BY_ROBOTS_TXT", TestCrawl.lastOutcome(data(), site.url("/secret")));
      assertEquals("FETCHED", TestCrawl.lastOutcome(data(), site.url("/open")));
    }
  }

  @Test
  void aPageWithTenThousandLinksAndAHugeUrlIsHandled() throws Exception {
    StringBuilder html = new StringBuilder("<html><body>");
    for (int i = 0; i < 10_000; i++) html.append("<a href=\"/l").append(i).append("\">").append(i).append("</a>");
    html.append("<a href=\"/").append("x".repeat(1 << 20)).append("\">huge</a></body></html>");
    try (TestSite site = TestSite.start()) {
      site.html("/", html.toString());
      var config = TestCrawl.config(data(), List.of(site.url("/")),
          "max_actions: 3\nlimits: { fetch_timeout: 5s, max_page_bytes: 8MiB }");
      try (Crawler crawler = Crawler.open(config)) {
        crawler.run();
        assertEquals(1 + 10_000, crawler.store().urlCount(), "every link a candidate; the 1 MB URL is not");
      }
    }
  }

  private static void redirect(com.sun.net.httpserver.HttpExchange ex, String to) throws java.io.IOException {
    ex.getResponseHeaders().set("Location", to);
    TestSite.respond(ex, 302, "text/plain", "moved");
  }
}
