package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Header;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every time or duration a server sends is clamped before the crawl computes with it: a Retry-After
 * of 99999999999999999 seconds once threw out of the turn (the response was in the WARC but not in
 * the crawl log), and 21 such origins ended the whole crawl.
 */
@Timeout(120)
class HostileHeadersTest {

  private static final long SEED = 20261124L;

  @TempDir Path tmp;

  @Test
  void aHugeRetryAfterPutsTheOriginOffInsteadOfEndingTheCrawl() throws Exception {
    List<TestSite> sites = new ArrayList<>();
    try {
      List<String> seeds = new ArrayList<>();
      for (int i = 0; i < 25; i++) {
        TestSite site = TestSite.start().route("/", ex -> {
          ex.getResponseHeaders().set("Retry-After", "99999999999999999");
          TestSite.respond(ex, 429, "text/plain", "slow down");
        });
        sites.add(site);
        seeds.add(site.url("/"));
      }
      Path data = tmp.resolve("data");
      Crawler crawler = Crawler.open(TestCrawl.config(data, seeds, "")).quiet(true);
      try (crawler) {
        crawler.run();
      }
      assertEquals(Optional.empty(), crawler.fatalError());
      assertEquals(0, crawler.unexpectedErrors());
      for (TestSite site : sites) assertEquals("RATE_LIMITED", TestCrawl.lastOutcome(data, site.url("/")));
      TestCrawl.assertPolite(data);
    } finally {
      sites.forEach(TestSite::close);
    }
  }

  /** Random server values through the classifier: never an exception, never a negative or endless wait. */
  @Test
  void retryAfterOfAnyShapeParsesToABoundedWait() {
    Classifier classifier = new Classifier(Clock.fixed(Instant.parse("2026-11-24T00:00:00Z"), ZoneOffset.UTC));
    Random random = new Random(SEED);
    for (int i = 0; i < 20_000; i++) {
      String value = hostileValue(random);
      for (int status : new int[] {429, 503, 301, 200}) {
        List<Header> headers = List.of(new Header("Retry-After", value), new Header("Location", value));
        FetchResult.Response r = response(status, headers);
        Classification c = classifier.classify(r);
        c.retryAfter().ifPresent(d -> assertTrue(!d.isNegative() && d.compareTo(Classifier.MAX_RETRY_AFTER) <= 0,
            value + " -> " + d));
      }
    }
  }

  /** The same values through real crawl turns: every origin's answer is logged, nothing escapes. */
  /**
   * Header values of 8,000 characters were copied into the page's log line and its record in the store,
   * and an ETag that long was sent back on every recrawl: the Content-Type is cut, such validators are
   * not kept.
   */
  @Test
  void hugeContentTypeAndValidatorsAreCutOrNotKept() throws Exception {
    String padding = "x".repeat(8_000);
    try (TestSite site = TestSite.start()) {
      site.route("/", ex -> {
        ex.getResponseHeaders().set("ETag", "\"" + padding + "\"");
        ex.getResponseHeaders().set("Last-Modified", "Sat, 21 Nov 2026 00:00:00 GMT; " + padding);
        TestSite.respond(ex, 200, "text/html; charset=utf-8; q=" + padding, "<p>page</p>");
      });
      Path data = tmp.resolve("data");
      String yaml = "recrawl: { interval: 0s, min_interval: 0s }\n";
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), yaml));
      TestCrawl.run(TestCrawl.config(data, List.of(), yaml));

      List<TestSite.Request> pages = site.requests().stream().filter(r -> r.path().equals("/")).toList();
      assertEquals(2, pages.size(), "fetched again by the second run");
      assertTrue(pages.get(1).header("If-None-Match") == null, "a validator that long is not sent back");
      assertTrue(pages.get(1).header("If-Modified-Since") == null, "nor a Last-Modified that long");
      String logged = TestCrawl.log(data).stream().filter(a -> a.get("url").asText().equals(site.url("/")))
          .findFirst().orElseThrow().get("content_type").asText();
      assertEquals(KeptHeaders.MAX_CONTENT_TYPE, logged.length());
      assertTrue(logged.startsWith("text/html; charset=utf-8; q=xxx"), logged);
    }
  }

  @Test
  void randomTimeHeadersThroughTheCrawlLoopNeverEscapeAsErrors() throws Exception {
    Random random = new Random(SEED);
    List<TestSite> sites = new ArrayList<>();
    try {
      List<String> seeds = new ArrayList<>();
      int[] statuses = {200, 304, 301, 429, 503, 403, 500};
      for (int i = 0; i < 24; i++) {
        int status = statuses[i % statuses.length];
        List<String[]> headers = new ArrayList<>();
        for (String name : new String[] {"Retry-After", "Last-Modified", "Expires", "Date", "ETag", "Cache-Control"}) {
          headers.add(new String[] {name, hostileValue(random)});
        }
        TestSite site = TestSite.start();
        site.robots("User-agent: *\nCrawl-delay: " + hostileValue(random) + "\n").route("/", ex -> {
          for (String[] h : headers) ex.getResponseHeaders().set(h[0], h[1]);
          if (status == 301) ex.getResponseHeaders().set("Location", "/elsewhere");
          TestSite.respond(ex, status, "text/html", status == 304 ? "" : "<a href=\"/a\">a</a>");
        });
        sites.add(site);
        seeds.add(site.url("/"));
      }
      Path data = tmp.resolve("data");
      Crawler crawler = Crawler.open(TestCrawl.config(data, seeds,
          "politeness: { min_delay: 20ms, max_delay: 200ms, response_time_factor: 0, max_retry_after: 1s,"
              + " max_crawl_delay: 1s }")).quiet(true);
      try (crawler) {
        crawler.run();
      }
      assertEquals(Optional.empty(), crawler.fatalError());
      assertEquals(0, crawler.unexpectedErrors());
      for (TestSite site : sites) {
        boolean pageAsked = site.paths().contains("/");
        boolean robotsOnly = site.paths().equals(List.of("/robots.txt")); // a Crawl-delay past the ceiling
        assertTrue(pageAsked || robotsOnly, site.paths().toString());
        if (pageAsked) assertTrue(TestCrawl.log(data).stream().anyMatch(a -> a.get("url").asText().equals(site.url("/"))));
      }
      TestCrawl.assertPolite(data);
    } finally {
      sites.forEach(TestSite::close);
    }
  }

  /** Numbers past any range, signs, exponents, dates at the ends of time, and garbage. */
  static String hostileValue(Random random) {
    return switch (random.nextInt(12)) {
      case 0 -> "9".repeat(1 + random.nextInt(40));
      case 1 -> Long.toString(random.nextLong());
      case 2 -> Long.toString(Long.MAX_VALUE);
      case 3 -> "-" + random.nextInt(1_000_000);
      case 4 -> random.nextInt(100) + "e" + random.nextInt(400);
      case 5 -> "Fri, 31 Dec 9999 23:59:59 GMT";
      case 6 -> "Mon, 01 Jan 0001 00:00:00 GMT";
      case 7 -> "Thu, 01 Jan 1970 00:00:00 GMT";
      case 8 -> "Sun, 06 Nov 1994 08:49:37 GMT";
      case 9 -> " " + random.nextInt(10) + " ";
      case 10 -> "";
      default -> {
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(30);
        for (int i = 0; i < n; i++) sb.append((char) (0x21 + random.nextInt(0x5e)));
        yield sb.toString();
      }
    };
  }

  private static FetchResult.Response response(int status, List<Header> headers) {
    return new FetchResult.Response("http://example.org/", Instant.now(), 1, new byte[0], Optional.empty(),
        "HTTP/1.1", status, "", headers, new byte[0], new byte[0], Optional.empty());
  }
}
