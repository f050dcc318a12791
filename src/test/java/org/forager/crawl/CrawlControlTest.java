package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.forager.config.CrawlConfig;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator's orders to a running crawl (issue 17 item 1), seen from the sites' side: what each
 * test site's server logged, with its own clock, after the order returned.
 */
@Timeout(60)
class CrawlControlTest {

  /** How long the absence of requests is watched: many times the test crawl's delay (20 ms). */
  private static final long QUIET_WINDOW_MILLIS = 400;

  @TempDir Path tmp;

  /** A page that holds its request until opened: the crawl is then known to be mid-fetch. */
  static final class Held implements TestSite.Route {
    private final String html;
    final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch open = new CountDownLatch(1);

    Held(String... links) {
      StringBuilder sb = new StringBuilder("<!doctype html><html><body>");
      for (String href : links) sb.append("<a href=\"").append(href).append("\">x</a>\n");
      this.html = sb.append("</body></html>").toString();
    }

    @Override
    public void handle(com.sun.net.httpserver.HttpExchange exchange) throws java.io.IOException {
      arrived.countDown();
      try {
        if (!open.await(30, TimeUnit.SECONDS)) throw new java.io.IOException("never opened");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      TestSite.respond(exchange, 200, "text/html; charset=utf-8", html);
    }

    void awaitArrival() throws InterruptedException {
      if (!arrived.await(20, TimeUnit.SECONDS)) throw new AssertionError("the crawl never reached the held page");
    }

    void open() {
      open.countDown();
    }
  }

  private static String[] pages(String prefix, int n) {
    String[] pages = new String[n];
    for (int i = 0; i < n; i++) pages[i] = prefix + i;
    return pages;
  }

  private static TestSite site(Held held, int n) throws java.io.IOException {
    TestSite site = TestSite.start().robots("User-agent: *\nAllow: /\n").route("/hold", held);
    for (String page : pages("/p", n)) site.linking(page);
    return site;
  }

  private static CompletableFuture<Void> runInBackground(Crawler crawler) {
    return CompletableFuture.runAsync(() -> {
      try {
        crawler.run();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  /** Waits for a condition of the crawl (not a sleep standing in for one), up to 20 s. */
  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting for " + what);
      Thread.sleep(5);
    }
  }

  private static List<TestSite.Request> arrivedAfter(TestSite site, long nanos) {
    return site.requests().stream().filter(r -> r.arrivedNanos() - nanos > 0).toList();
  }

  private static List<String> controlLines(Path dataDir) {
    List<String> lines = new ArrayList<>();
    for (JsonNode line : TestCrawl.log(dataDir)) {
      if (line.get("kind").asText().equals("control")) {
        lines.add(line.get("action").asText() + " " + line.get("by").asText() + " " + line.path("target").asText(""));
      }
    }
    return lines;
  }

  /** An order naming a host alone (set-delay www.example.org 30s) says how to write the origin. */
  @Test
  void aHostGivenForAnOriginIsAnsweredWithTheOriginToWrite() {
    var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> CrawlControl.origin("www.example.org"));
    assertEquals("not an http(s) origin: \"www.example.org\" (an origin has a scheme: https://www.example.org or"
        + " http://www.example.org)", e.getMessage());
    e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> CrawlControl.origin("ftp://example.org"));
    assertEquals("not an http(s) origin: \"ftp://example.org\"", e.getMessage());
    assertEquals("https://www.example.org", CrawlControl.origin("https://www.example.org/a").toString());
  }

  @Test
  void aPausedCrawlSendsNothingAfterItsFetchInFlightAndResumesToEveryPage() throws Exception {
    Held held = new Held(pages("/p", 20));
    try (TestSite site = site(held, 20)) {
      CrawlConfig config = TestCrawl.config(tmp.resolve("data"), List.of(site.url("/hold")), "");
      try (Crawler crawler = Crawler.open(config).quiet(true)) {
        CompletableFuture<Void> run = runInBackground(crawler);
        held.awaitArrival();
        crawler.control().pause("api");
        long pausedAt = System.nanoTime();
        assertTrue(crawler.control().state().paused());
        held.open(); // the fetch in flight finishes
        await(() -> crawler.control().state().turnsInFlight() == 0, "the turn in flight to end");
        Thread.sleep(QUIET_WINDOW_MILLIS); // watching for requests that must not come
        assertEquals(List.of(), arrivedAfter(site, pausedAt).stream().map(TestSite.Request::path).toList(),
            "nothing requested after the pause");
        crawler.control().resume("api");
        run.get(30, TimeUnit.SECONDS);
      }
      for (String page : pages("/p", 20)) assertEquals(1, site.count(page), page + " crawled once");
      assertEquals(List.of("pause api ", "resume api "), controlLines(tmp.resolve("data")));
      TestCrawl.assertPolite(tmp.resolve("data"));
    }
  }

  @Test
  void aHostBlockedMidCrawlGetsNoFurtherRequestWhileTheOthersFinish() throws Exception {
    Held held = new Held(pages("/p", 10));
    try (TestSite blocked = site(held, 10); TestSite other = site(new Held(), 10)) {
      other.linking("/", pages("/p", 10));
      CrawlConfig config = TestCrawl.config(tmp.resolve("data"),
          List.of(blocked.url("blocked.test", "/hold"), other.url("other.test", "/")),
          TestCrawl.pinnedToLoopback("blocked.test", "other.test"));
      try (Crawler crawler = Crawler.open(config).quiet(true)) {
        CompletableFuture<Void> run = runInBackground(crawler);
        held.awaitArrival();
        assertEquals("blocked.test", crawler.control().block("http://Blocked.TEST:1/any", "api"));
        long blockedAt = System.nanoTime();
        held.open();
        run.get(30, TimeUnit.SECONDS);
        assertEquals(List.of(), arrivedAfter(blocked, blockedAt).stream().map(TestSite.Request::path).toList());
        assertEquals(List.of("/robots.txt", "/hold"), blocked.paths());
        for (String page : pages("/p", 10)) assertEquals(1, other.count(page), page + " of the other host crawled");
        assertEquals("blocked.test", crawler.control().state().blocks().get(0).host());
      }
      assertEquals(List.of("block api blocked.test"), controlLines(tmp.resolve("data")));
      TestCrawl.assertPolite(tmp.resolve("data"));
    }
  }

  @Test
  void aBlockIsKeptAcrossARestartAndCoversRobotsTxt() throws Exception {
    try (TestSite blocked = site(new Held(), 3); TestSite other = TestSite.start()) {
      blocked.linking("/", pages("/p", 3));
      other.robots("User-agent: *\n").linking("/", "/a", blocked.url("blocked.test", "/p0")).linking("/a");
      CrawlConfig config = TestCrawl.config(tmp.resolve("data"),
          List.of(blocked.url("blocked.test", "/"), other.url("other.test", "/")),
          TestCrawl.pinnedToLoopback("blocked.test", "other.test"));
      try (Crawler first = Crawler.open(config)) {
        first.control().block("blocked.test", "cli");
      }
      try (Crawler second = Crawler.open(config).quiet(true)) {
        second.run();
        assertEquals(1, second.control().state().blocks().size(), "read from the store");
      }
      assertEquals(List.of(), blocked.paths(), "no request of any kind to the blocked host, robots.txt included");
      assertEquals(List.of("/robots.txt", "/", "/a"), other.paths());
      for (JsonNode line : TestCrawl.log(tmp.resolve("data"))) {
        assertTrue(!line.path("url").asText().contains("//blocked.test"), "not even a refusal is logged: " + line);
      }
    }
  }

  @Test
  void aDelaySetForAnOriginIsKeptAndNeverGoesBelowItsCrawlDelay() throws Exception {
    Held setHeld = new Held(pages("/p", 4));
    try (TestSite set = site(setHeld, 4); TestSite slow = site(new Held(), 4)) {
      slow.robots("User-agent: *\nCrawl-delay: 0.3\n").linking("/", pages("/p", 4));
      // Both sites are on 127.0.0.1: per-IP politeness holds the slow one back while the other is held.
      CrawlConfig config = TestCrawl.config(tmp.resolve("data"), List.of(set.url("/hold"), slow.url("/")),
          "limits: { fetch_timeout: 30s, max_retries: 2 }\n");
      try (Crawler crawler = Crawler.open(config).quiet(true)) {
        CompletableFuture<Void> run = runInBackground(crawler);
        setHeld.awaitArrival();
        crawler.control().setDelay(set.origin(), Optional.of(Duration.ofMillis(250)), "api");
        crawler.control().setDelay(slow.origin() + "/", Optional.of(Duration.ofMillis(50)), "api");
        long setAt = System.nanoTime();
        setHeld.open();
        run.get(30, TimeUnit.SECONDS);
        assertTrue(minGapAfter(set, setAt) >= 250, "the delay set: " + minGapAfter(set, setAt));
        assertTrue(minGapAfter(slow, setAt) >= 300, "floored by Crawl-delay: " + minGapAfter(slow, setAt));
        assertEquals(5, slow.requests().size() - 1, "the slow site crawled: " + slow.paths());
      }
      assertEquals(List.of("set-delay api " + set.origin(), "set-delay api " + slow.origin()),
          controlLines(tmp.resolve("data")));
      TestCrawl.assertPolite(tmp.resolve("data"));
    }
  }

  /** The shortest gap, on the server's clock, from the end of one response to the next request, among those after {@code from}. */
  private static double minGapAfter(TestSite site, long from) {
    List<TestSite.Request> requests = site.requests();
    double min = Double.MAX_VALUE;
    for (int i = 1; i < requests.size(); i++) {
      if (requests.get(i - 1).finishedNanos() - from < 0) continue;
      min = Math.min(min, (requests.get(i).arrivedNanos() - requests.get(i - 1).finishedNanos()) / 1e6);
    }
    return min;
  }

  @Test
  void seedsAddedToARunningCrawlPassEveryGateScopeIncluded() throws Exception {
    Held held = new Held();
    try (TestSite site = site(held, 0); TestSite outside = TestSite.start()) {
      site.linking("/extra");
      outside.linking("/page");
      CrawlConfig config = TestCrawl.config(tmp.resolve("data"), List.of(site.url("/hold")),
          "skip_extensions: [ .jpg ]\n");
      try (Crawler crawler = Crawler.open(config).quiet(true)) {
        CompletableFuture<Void> run = runInBackground(crawler);
        held.awaitArrival();
        List<CrawlControl.SeedResult> results = crawler.control().addSeeds(List.of(site.url("/extra"),
            outside.url("/page"), site.url("/photo.jpg"), "mailto:someone@example.org", site.url("/hold")), "cli");
        held.open();
        run.get(30, TimeUnit.SECONDS);
        List<String> said = results.stream().map(CrawlControl.SeedResult::result).toList();
        assertEquals("added", said.get(0));
        assertTrue(said.get(1).startsWith("refused: ") && said.get(1).contains("scope"), said.get(1));
        assertTrue(said.get(2).startsWith("refused: skip_extensions"), said.get(2));
        assertEquals("refused: not an http(s) URL", said.get(3));
        assertEquals("already waiting", said.get(4));
      }
      assertEquals(1, site.count("/extra"), "the seed added was crawled");
      assertEquals(List.of(), outside.paths(), "nothing out of scope");
      assertEquals(5, controlLines(tmp.resolve("data")).stream().filter(l -> l.startsWith("add-seed cli ")).count());
    }
  }
}
