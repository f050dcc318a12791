package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.forager.fetch.Outcome;
import org.forager.record.RunSummary;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;

/** The whole crawl loop against real loopback origins: what gets fetched, in what order, with what outcome. */
@Timeout(60)
class CrawlLoopTest {

  @TempDir Path tmp;

  @Test
  void crawlsTwoOriginsFollowingLinksWithinScopeOnly() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start(); TestSite outside = TestSite.start()) {
      a.robots("User-agent: *\nDisallow: /private\n")
          .linking("/", "/one", "two", "/private/secret", b.url("/"), outside.url("/"), "#top", "mailto:x@y.z")
          .linking("/one", "/", "/two")
          .linking("/two", "/one");
      b.linking("/", "/b1", a.url("/one"))
          .linking("/b1", "/");
      outside.linking("/", "/never");
      Path data = tmp.resolve("data");

      RunSummary summary = TestCrawl.run(TestCrawl.config(data, List.of(a.url("/"), b.url("/")), ""));

      assertEquals("/robots.txt", a.paths().get(0), "robots.txt comes before any page of the origin");
      assertEquals("/robots.txt", b.paths().get(0));
      assertEquals(Set.of("/robots.txt", "/", "/one", "/two"), new HashSet<>(a.paths()));
      assertEquals(4, a.paths().size(), "each URL fetched once");
      assertEquals(Set.of("/robots.txt", "/", "/b1"), new HashSet<>(b.paths()));
      assertTrue(outside.paths().isEmpty(), "an origin that is not a seed's is never contacted");
      assertEquals("BLOCKED_BY_ROBOTS_TXT", TestCrawl.lastOutcome(data, a.url("/private/secret")));
      assertEquals(6, summary.count(Outcome.FETCHED), "5 pages and a's robots.txt");
      assertEquals(1, summary.count(Outcome.HTTP_ERROR), "b has no robots.txt (404: allow all)");
      assertEquals(1, summary.count(Outcome.BLOCKED_BY_ROBOTS_TXT));
      assertEquals(2, summary.robotsFetches());
    }
  }

  @Test
  void anOriginThatFinishedIsWokenWhenAnotherOriginFindsNewUrlsOfIt() throws Exception {
    java.util.concurrent.CountDownLatch bServed = new java.util.concurrent.CountDownLatch(1);
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      b.route("/", ex -> {
        TestSite.respond(ex, 200, "text/html", "<p>nothing to follow</p>");
        bServed.countDown();
      }).html("/late", "<p>found late</p>");
      a.linking("/", "/1").linking("/1", "/2").route("/2", ex -> {
        try {
          bServed.await(); // b has run out of work by the time a links to it
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        TestSite.respond(ex, 200, "text/html", "<a href=\"" + b.url("/late") + "\">late</a>");
      });
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("/"), b.url("/")), ""));
      assertEquals(1, b.count("/late"));
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, b.url("/late")));
    }
  }

  @Test
  void crawlLogHasOneLineForEveryAction() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\nAllow: /\n").linking("/", "/a").html("/a", "<p>a</p>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));

      List<JsonNode> log = TestCrawl.log(data);
      assertEquals(3, log.size());
      for (String line : Files.readAllLines(data.resolve("logs/crawl.jsonl"))) {
        assertTrue(line.startsWith("{") && line.endsWith("}"), "one bare JSON object per line: " + line);
      }
      JsonNode robots = log.get(0);
      assertEquals("robots", robots.get("kind").asText());
      assertEquals(site.url("/robots.txt"), robots.get("url").asText());
      JsonNode page = log.get(1);
      assertEquals("page", page.get("kind").asText());
      assertEquals(site.url("/"), page.get("url").asText());
      assertEquals("FETCHED", page.get("outcome").asText());
      assertEquals(200, page.get("http_status").asInt());
      assertTrue(page.get("content_type").asText().startsWith("text/html"));
      assertTrue(page.get("bytes").asLong() > 0);
      assertTrue(page.get("digest").asText().startsWith("sha1:"));
      assertEquals(1, page.get("attempt").asInt());
      assertTrue(page.get("ts").asText().endsWith("Z"), "ISO-8601 UTC");
      for (String field : List.of("ts", "kind", "url", "outcome", "http_status", "content_type", "bytes",
          "duration_ms", "location", "digest", "attempt")) {
        assertTrue(page.has(field), "crawl log line has " + field);
      }
    }
  }

  @Test
  void redirectIsRecordedNotFollowedAndItsTargetBecomesACandidate() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/old")
          .route("/old", ex -> {
            ex.getResponseHeaders().set("Location", "/new");
            TestSite.respond(ex, 301, "text/html", "moved");
          })
          .html("/new", "<p>new</p>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));

      assertEquals(List.of("/robots.txt", "/", "/old", "/new"), site.paths());
      JsonNode redirect = TestCrawl.log(data).stream()
          .filter(l -> l.get("url").asText().equals(site.url("/old"))).findFirst().orElseThrow();
      assertEquals("REDIRECT", redirect.get("outcome").asText());
      assertEquals(301, redirect.get("http_status").asInt());
      assertEquals(site.url("/new"), redirect.get("location").asText());
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, site.url("/new")));
    }
  }

  /** A redirect to ftp: or javascript: was logged with no location and no reason. */
  @Test
  void aRedirectToNoHttpUrlSaysWhyItLeadsNowhere() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/ftp", "/bare")
          .route("/ftp", ex -> {
            ex.getResponseHeaders().set("Location", "ftp://files.example/x");
            TestSite.respond(ex, 302, "text/html", "moved");
          })
          .route("/bare", ex -> TestSite.respond(ex, 302, "text/html", "moved, but where?"));
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));
      JsonNode ftp = TestCrawl.log(data).stream().filter(l -> l.get("url").asText().equals(site.url("/ftp")))
          .findFirst().orElseThrow();
      assertEquals("REDIRECT", ftp.get("outcome").asText());
      assertEquals("Location is no http(s) URL to follow: ftp://files.example/x", ftp.get("reason").asText());
      assertEquals("HTTP_ERROR", TestCrawl.lastOutcome(data, site.url("/bare")), "a redirect without Location");
    }
  }

  @Test
  void canonicalNoindexAndNofollowAreHonoured() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/copy", "/secret-index", "/no-links", "/has-nofollow-link")
          .html("/copy", "<html><head><link rel=canonical href=\"/original\"></head>"
              + "<body><a href=\"/from-copy\">x</a></body></html>")
          .html("/original", "<p>original</p>")
          .html("/secret-index", "<html><head><meta name=robots content=noindex></head>"
              + "<body><a href=\"/from-noindex\">x</a></body></html>")
          .html("/from-noindex", "<p>ok</p>")
          .html("/no-links", "<html><head><meta name=ForagerBot content=nofollow></head>"
              + "<body><a href=\"/from-nofollow\">x</a></body></html>")
          .html("/has-nofollow-link", "<a rel=nofollow href=\"/nofollowed\">x</a><a href=\"/followed\">y</a>")
          .html("/followed", "<p>ok</p>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));

      assertEquals("NON_CANONICAL", TestCrawl.lastOutcome(data, site.url("/copy")));
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, site.url("/original")));
      assertEquals(0, site.count("/from-copy"), "links of a non-canonical page are not used");
      assertEquals("NOINDEX", TestCrawl.lastOutcome(data, site.url("/secret-index")));
      assertEquals(1, site.count("/from-noindex"), "noindex pages' links are still used");
      assertEquals(0, site.count("/from-nofollow"), "nofollow for our product token drops the links");
      assertEquals(0, site.count("/nofollowed"));
      assertEquals(1, site.count("/followed"));
    }
  }

  @Test
  void nonHtmlIsStoredButNotParsed() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/data.json")
          .route("/data.json", ex -> TestSite.respond(ex, 200, "application/json", "{\"href\": \"/x\"}"));
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));
      assertEquals("UNSUPPORTED_CONTENT_TYPE", TestCrawl.lastOutcome(data, site.url("/data.json")));
      assertEquals(0, site.count("/x"));
    }
  }

  @Test
  void warcHasRequestAndResponseForEveryFetchRobotsIncluded() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\nAllow: /\n").linking("/", "/a").html("/a", "<p>a</p>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));

      List<String> requests = new ArrayList<>();
      List<String> responses = new ArrayList<>();
      List<Path> files;
      try (Stream<Path> s = Files.list(data.resolve("warc"))) {
        files = s.filter(p -> p.toString().endsWith(".warc.gz")).toList();
      }
      assertFalse(files.isEmpty(), "a finished WARC file");
      for (Path file : files) {
        try (InputStream in = Files.newInputStream(file); WarcReader reader = new WarcReader(in)) {
          for (WarcRecord record : reader) {
            if (record instanceof WarcRequest r) {
              requests.add(r.target());
              assertEquals("ForagerBot/0.1 (+https://example.org/bot)",
                  r.http().headers().first("User-Agent").orElseThrow());
            }
            if (record instanceof WarcResponse r) {
              responses.add(r.target());
              assertEquals(200, r.http().status());
            }
          }
        }
      }
      List<String> expected = List.of(site.url("/robots.txt"), site.url("/"), site.url("/a"));
      assertEquals(expected, requests);
      assertEquals(expected, responses);
    }
  }

  @Test
  void recrawlIsAConditionalGetAndA304IsNotModified() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.route("/", ex -> {
        if ("\"v1\"".equals(ex.getRequestHeaders().getFirst("If-None-Match"))) {
          TestSite.respond(ex, 304, null, new byte[0]);
        } else {
          ex.getResponseHeaders().set("ETag", "\"v1\"");
          ex.getResponseHeaders().set("Last-Modified", "Mon, 02 Nov 2026 10:00:00 GMT");
          TestSite.respond(ex, 200, "text/html", "<p>stable</p>");
        }
      });
      Path data = tmp.resolve("data");
      var config = TestCrawl.config(data, List.of(site.url("/")), "recrawl: { interval: 0s }");
      TestCrawl.run(config);
      RunSummary second = TestCrawl.run(config);

      var requests = site.requests().stream().filter(r -> r.path().equals("/")).toList();
      assertEquals(2, requests.size());
      assertEquals(null, requests.get(0).header("If-None-Match"));
      assertEquals("\"v1\"", requests.get(1).header("If-None-Match"));
      assertEquals("Mon, 02 Nov 2026 10:00:00 GMT", requests.get(1).header("If-Modified-Since"));
      assertEquals(1, second.count(Outcome.NOT_MODIFIED));
      assertEquals("NOT_MODIFIED", TestCrawl.lastOutcome(data, site.url("/")));
    }
  }

  @Test
  void pageLargerThanMaxPageBytesIsTruncatedAndStillParsed() throws Exception {
    try (TestSite site = TestSite.start()) {
      String big = "<a href=\"/early\">early</a>" + "<p>filler</p>".repeat(20_000) + "<a href=\"/late\">late</a>";
      site.html("/", big).html("/early", "<p>early</p>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")),
          "limits: { fetch_timeout: 2s, max_page_bytes: 64KiB }"));
      assertEquals("TRUNCATED", TestCrawl.lastOutcome(data, site.url("/")));
      assertEquals(1, site.count("/early"), "links before the cut are used");
      assertEquals(0, site.count("/late"));
    }
  }

  @Test
  void unreachableOriginIsANetworkError() throws Exception {
    int closedPort;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    Path data = tmp.resolve("data");
    String seed = "http://127.0.0.1:" + closedPort + "/";
    RunSummary summary = TestCrawl.run(TestCrawl.config(data, List.of(seed), ""));
    // robots.txt: one attempt and limits.max_retries (2 in tests) retries, then the origin waits.
    assertEquals(3, summary.count(Outcome.NETWORK_ERROR));
    JsonNode first = TestCrawl.log(data).get(0);
    assertEquals("NETWORK_ERROR", first.get("outcome").asText());
    assertTrue(first.get("reason").asText().startsWith("network: "), first.toString());
  }

  @Test
  void continuousModeRecrawlsAsUrlsComeDueUntilStopped() throws Exception {
    java.util.concurrent.CountDownLatch threeFetches = new java.util.concurrent.CountDownLatch(3);
    try (TestSite site = homeCountingFetches(threeFetches)) {
      Path data = tmp.resolve("data");
      var config = TestCrawl.config(data, List.of(site.url("/")), "recrawl: { interval: 300ms }");
      assertTrue(crawlContinuouslyUntil(config, threeFetches), "recrawled while running");
      var pages = site.requests().stream().filter(r -> r.path().equals("/")).toList();
      assertTrue(pages.size() >= 3);
      assertEquals(1, site.count("/robots.txt"), "robots.txt kept for its TTL");
      for (int i = 1; i < pages.size(); i++) {
        double gap = (pages.get(i).arrivedNanos() - pages.get(i - 1).finishedNanos()) / 1e6;
        assertTrue(gap >= 250, "recrawled when due, not in a busy loop: " + gap + " ms");
      }
      TestCrawl.assertPolite(data);
    }
  }

  /**
   * A continuous crawl read an origin's sitemaps each time it was taken up again for a URL come due: a
   * missing /sitemap.xml was asked for 33 times in 8 minutes (review of session 61). Read once in the
   * run, they are read again only sitemaps.reread_after after the take-up that read them.
   */
  @Test
  void continuousModeReadsAnOriginsSitemapsAgainOnlyAfterRereadAfter() throws Exception {
    for (String rereadAfter : List.of("1d", "1s")) {
      java.util.concurrent.CountDownLatch sixFetches = new java.util.concurrent.CountDownLatch(6);
      try (TestSite site = TestSite.start()) {
        site.route("/", ex -> { // a page that changes: recrawled every 300 ms, not ever less often
          TestSite.respond(ex, 200, "text/html", "<p>" + System.nanoTime() + "</p>");
          sixFetches.countDown();
        });
        site.robots("User-agent: *\nSitemap: " + site.url("/sitemap.xml") + "\n").route("/sitemap.xml", ex ->
            TestSite.respond(ex, 200, "application/xml", "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
                + "<url><loc>" + site.url("/") + "</loc></url></urlset>"));
        Path data = tmp.resolve("data-" + rereadAfter);
        var config = TestCrawl.config(data, List.of(site.url("/")),
            "recrawl: { interval: 300ms }\nsitemaps: { reread_after: " + rereadAfter + " }");
        assertTrue(crawlContinuouslyUntil(config, sixFetches), "recrawled while running");
        List<TestSite.Request> homes = site.requests().stream().filter(r -> r.path().equals("/")).toList();
        long sitemaps = site.count("/sitemap.xml");
        if (rereadAfter.equals("1d")) {
          assertEquals(1, sitemaps, "read once, not at each of " + homes.size() + " take-ups");
        } else {
          // Six fetches 300 ms apart span at least 1.5 s: read again after each second, not at each take-up.
          long span = homes.getLast().arrivedNanos() - homes.getFirst().arrivedNanos();
          assertTrue(sitemaps >= 2 && sitemaps <= 2 + span / 1_000_000_000L && sitemaps < homes.size(),
              sitemaps + " sitemap reads over " + homes.size() + " fetches in " + span / 1_000_000 + " ms");
        }
        TestCrawl.assertPolite(data);
      }
    }
  }

  /**
   * The store merges a page's new and moved URLs into the 16 the origin holds next, so the origin
   * need not read its due index after each page; on a site whose pages keep raising URLs into that
   * list it never ran out, and a recrawl that came due meanwhile (or a link from another origin's
   * page) waited for hundreds of pages (review of session 8). The origin reads again at least
   * every 16 pages.
   */
  @Test
  void aRecrawlThatComesDueWaitsNoMoreThanABatchOfPagesWhilePagesKeepRaisingOthers() throws Exception {
    java.util.concurrent.CountDownLatch homeTwice = new java.util.concurrent.CountDownLatch(2);
    int pages = 240;
    try (TestSite site = TestSite.start()) {
      String[] all = new String[pages];
      for (int i = 0; i < pages; i++) all[i] = "/p" + i;
      site.route("/", ex -> {
        homeTwice.countDown();
        StringBuilder html = new StringBuilder("<p>" + System.nanoTime() + "</p>");
        for (String p : all) html.append("<a href=\"").append(p).append("\">x</a>");
        TestSite.respond(ex, 200, "text/html", html.toString());
      });
      // Each page gives three others of the site their second inlink: up they go, before the URLs held.
      for (int i = 0; i < pages; i++) {
        site.linking("/p" + i, "/p" + (i * 37 + 11) % pages, "/p" + (i * 53 + 101) % pages, "/p" + (i * 91 + 7) % pages);
      }
      Path data = tmp.resolve("data");
      var config = TestCrawl.config(data, List.of(site.url("/")), "recrawl: { interval: 400ms }");
      assertTrue(crawlContinuouslyUntil(config, homeTwice), "the home page recrawled: " + site.paths().size());
      List<TestSite.Request> requests = site.requests();
      List<TestSite.Request> homes = requests.stream().filter(r -> r.path().equals("/")).toList();
      long dueAt = homes.get(0).finishedNanos() + 400_000_000L;
      long waited = requests.stream()
          .filter(r -> r.path().startsWith("/p") && r.arrivedNanos() > dueAt && r.arrivedNanos() < homes.get(1).arrivedNanos())
          .count();
      assertTrue(waited <= 20, "pages fetched while the home page was due (16 a batch): " + waited);
      TestCrawl.assertPolite(data);
    }
  }

  /**
   * In continuous mode the page counter never reset: an origin that once reached
   * limits.max_pages_per_origin was never recrawled for the life of the process.
   */
  @Test
  void thePageBudgetOfAnOriginIsPerPassInContinuousMode() throws Exception {
    java.util.concurrent.CountDownLatch threeFetches = new java.util.concurrent.CountDownLatch(3);
    try (TestSite site = homeCountingFetches(threeFetches)) {
      Path data = tmp.resolve("data");
      var config = TestCrawl.config(data, List.of(site.url("/")), "recrawl: { interval: 300ms }\n"
          + "limits: { fetch_timeout: 2s, max_retries: 2, max_pages_per_origin: 1 }");
      assertTrue(crawlContinuouslyUntil(config, threeFetches), "recrawled pass after pass, one page each: "
          + site.paths());
      TestCrawl.assertPolite(data);
    }
  }

  /**
   * A continuous crawl on a working set of one origin at a time (issue 14): three origins, each put
   * aside when caught up and taken up again when its page comes due, every one recrawled, robots.txt
   * read once each (kept for its TTL across the spells).
   */
  @Test
  void continuousModeTakesOriginsUpAgainAsTheirUrlsComeDueOnAWorkingSetOfOne() throws Exception {
    java.util.concurrent.CountDownLatch recrawled = new java.util.concurrent.CountDownLatch(3);
    try (TestSite site = TestSite.start()) {
      java.util.Map<String, java.util.concurrent.atomic.AtomicInteger> fetches = new java.util.concurrent.ConcurrentHashMap<>();
      site.route("/", ex -> {
        String host = ex.getRequestHeaders().getFirst("Host");
        if (fetches.computeIfAbsent(host, h -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet() == 2) {
          recrawled.countDown();
        }
        TestSite.respond(ex, 200, "text/html", "<p>" + System.nanoTime() + "</p>");
      });
      Path data = tmp.resolve("data");
      var config = TestCrawl.config(data, List.of(site.url("a.test", "/"), site.url("b.test", "/"),
          site.url("c.test", "/")), "recrawl: { interval: 300ms }\n"
          + "limits: { fetch_timeout: 2s, max_retries: 2, max_active_origins: 1 }\n"
          + TestCrawl.pinnedToLoopback("a.test", "b.test", "c.test"));
      assertTrue(crawlContinuouslyUntil(config, recrawled), "each origin recrawled: " + fetches);
      assertEquals(3, site.count("/robots.txt"), "robots.txt once an origin, kept across its spells");
      TestCrawl.assertPolite(data);
    }
  }

  @Test
  void stopsAtMaxActions() throws Exception {
    try (TestSite site = TestSite.start()) {
      String[] links = new String[30];
      for (int i = 0; i < links.length; i++) {
        links[i] = "/p" + i;
        site.html("/p" + i, "<p>" + i + "</p>");
      }
      site.linking("/", links);
      Path data = tmp.resolve("data");
      RunSummary summary = TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "max_actions: 5\n"));
      assertEquals(5, summary.actions());
      assertEquals(5, TestCrawl.log(data).size());
      assertEquals(5, site.paths().size(), "robots.txt and four pages");
    }
  }

  /**
   * Runs a continuous crawl until {@code done} opens (at most 20 s), then stops it and checks that
   * stopping ends the run; whether {@code done} opened in time.
   */
  private static boolean crawlContinuouslyUntil(org.forager.config.CrawlConfig config,
      java.util.concurrent.CountDownLatch done) throws InterruptedException {
    try (Crawler crawler = Crawler.open(config).quiet(true).continuous(true)) {
      Thread run = Thread.ofPlatform().start(() -> {
        try {
          crawler.run();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      boolean opened = done.await(20, java.util.concurrent.TimeUnit.SECONDS);
      crawler.stop();
      run.join(10_000);
      assertFalse(run.isAlive(), "stop ends a continuous run");
      return opened;
    }
  }

  /** A site whose home page counts {@code fetches} down each time it is fetched. */
  private static TestSite homeCountingFetches(java.util.concurrent.CountDownLatch fetches) throws java.io.IOException {
    return TestSite.start().route("/", ex -> {
      TestSite.respond(ex, 200, "text/html", "<p>changes every time</p>");
      fetches.countDown();
    });
  }
}
