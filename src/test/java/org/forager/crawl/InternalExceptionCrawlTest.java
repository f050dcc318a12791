package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.forager.config.CrawlConfig;
import org.forager.fetch.FetchRequest;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Fetcher;
import org.forager.fetch.HttpFetcher;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An exception one URL sets off (a bug: a {@code NullPointerException}, an {@code
 * IllegalStateException} in a parser, a library, an embedder's fetcher or gate) is that URL's failure,
 * as an {@code Error} is ({@link InternalErrorCrawlTest}): once it stopped its origin for the run without
 * recording the URL, so every resume met the same page again and the origin stopped there every run.
 * An output failure still stops the crawl. The exceptions are thrown by the embedder's seams (its
 * fetcher, given through {@code Crawler.builder().fetcher}, wrapping the crawl's own HTTP fetcher; its
 * {@code UrlGate}), on real requests to local servers and a real store.
 */
@Timeout(60)
class InternalExceptionCrawlTest {

  @TempDir Path tmp;

  /**
   * The crawl's HTTP fetcher with a bug: once a request to a URL ending in {@code suffix} came back, it
   * throws. Every request's start and end ({@link System#nanoTime()}) go to {@link #requests}.
   */
  private static final class BuggyFetcher implements Fetcher {
    final List<long[]> requests = Collections.synchronizedList(new ArrayList<>());
    private final Fetcher http;
    private final String suffix;
    private final Supplier<RuntimeException> thrown;

    BuggyFetcher(CrawlConfig config, String suffix, Supplier<RuntimeException> thrown) {
      this.http = new HttpFetcher(HttpFetcher.Options.from(config, HttpFetcher.Options.dnsCache(config)));
      this.suffix = suffix;
      this.thrown = thrown;
    }

    @Override
    public FetchResult fetch(FetchRequest request) {
      long start = System.nanoTime();
      try {
        FetchResult result = http.fetch(request);
        if (request.url().endsWith(suffix)) throw thrown.get();
        return result;
      } finally {
        requests.add(new long[] {start, System.nanoTime()});
      }
    }

    @Override
    public void close() {
      http.close();
    }
  }

  private static CrawlConfig config(Path data, List<String> seeds, String extra) {
    return TestCrawl.config(data, seeds, TestCrawl.pinnedToLoopback("bad.test", "good.test") + extra);
  }

  private static Crawler run(CrawlConfig config, Fetcher fetcher) throws InterruptedException {
    Crawler crawler = Crawler.builder(config).fetcher(fetcher).open().quiet(true);
    try {
      crawler.run();
    } finally {
      crawler.close();
    }
    return crawler;
  }

  private static List<JsonNode> lines(Path data, String url) {
    return TestCrawl.log(data).stream().filter(l -> l.get("url").asText().equals(url)).toList();
  }

  private static RuntimeException bug() {
    return new IllegalStateException("thrown by a test, after the request");
  }

  @Test
  void anExceptionProcessingOnePageIsThatPagesFailureAndAResumeDoesNotFetchItAgain() throws Exception {
    try (TestSite bad = TestSite.start(); TestSite good = TestSite.start()) {
      bad.linking("/", "/boom", "/a").html("/boom", "<p>boom</p>").html("/a", "<p>a</p>").html("/b", "<p>b</p>");
      good.linking("/", "/g1").html("/g1", "<p>1</p>");
      Path data = tmp.resolve("data");
      String boom = bad.url("bad.test", "/boom");
      CrawlConfig config = config(data, List.of(bad.url("bad.test", "/"), good.url("good.test", "/")), "");

      Crawler first = run(config, new BuggyFetcher(config, "/boom", InternalExceptionCrawlTest::bug));
      assertEquals(Optional.empty(), first.fatalError());
      assertEquals(1, first.unexpectedErrors(), "counted against the error budget");
      List<JsonNode> lines = lines(data, boom);
      assertEquals(1, lines.size(), "one line for its one request: " + lines);
      JsonNode line = lines.getFirst();
      assertEquals("INTERNAL_ERROR", line.get("outcome").asText(), line.toString());
      assertEquals("internal error: java.lang.IllegalStateException: thrown by a test, after the request",
          line.get("reason").asText());
      assertEquals("127.0.0.1", line.get("ip").asText(), "the address it was sent to, for the per-IP audit");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, bad.url("bad.test", "/a")), "its origin went on");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, good.url("good.test", "/g1")), "the other origin too");
      assertEquals("failed", TestCrawl.export(data).get(boom).get("state").asText());
      TestCrawl.assertPolite(data);

      // A resume with new work for the origin: the page that stopped it at every run is not fetched again.
      CrawlConfig resume = config(data, List.of(bad.url("bad.test", "/b")), "");
      Crawler second = run(resume, new BuggyFetcher(resume, "/boom", InternalExceptionCrawlTest::bug));
      assertEquals(0, second.unexpectedErrors());
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, bad.url("bad.test", "/b")));
      assertEquals(1, bad.count("/boom"), "fetched once in two runs");
      TestCrawl.assertPolite(data);
    }
  }

  @Test
  void aGateThatThrowsOnAUrlRefusesItAndItsOriginGoesOn() throws Exception {
    try (TestSite bad = TestSite.start()) {
      bad.linking("/", "/odd", "/a").html("/a", "<p>a</p>");
      Path data = tmp.resolve("data");
      String odd = bad.url("bad.test", "/odd");
      CrawlConfig config = config(data, List.of(bad.url("bad.test", "/")), "");
      try (Crawler crawler = Crawler.open(config).quiet(true)) {
        crawler.gate((url, depth) -> {
          if (url.equals(odd)) throw new NullPointerException("thrown by a test");
          return Optional.empty();
        });
        crawler.run();
        assertEquals(Optional.empty(), crawler.fatalError());
        assertEquals(1, crawler.unexpectedErrors());
      }
      JsonNode line = lines(data, odd).getLast();
      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", line.get("outcome").asText(), "refused: the gates could not clear it");
      assertEquals("internal error in the gates: java.lang.NullPointerException: thrown by a test",
          line.get("reason").asText());
      assertEquals(0, bad.count("/odd"), "never requested");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, bad.url("bad.test", "/a")), "its origin went on");
      assertEquals("blocked", TestCrawl.export(data).get(odd).get("state").asText(), "recorded: not judged again");
      TestCrawl.assertPolite(data);
    }
  }

  @Test
  void anExceptionReadingRobotsTxtPutsOnlyItsOriginOff() throws Exception {
    try (TestSite bad = TestSite.start(); TestSite good = TestSite.start()) {
      bad.linking("/", "/a");
      good.linking("/", "/g1").html("/g1", "<p>1</p>");
      Path data = tmp.resolve("data");
      String robots = bad.url("bad.test", "/robots.txt");
      CrawlConfig config = config(data, List.of(bad.url("bad.test", "/"), good.url("good.test", "/")), "");
      Crawler crawler = run(config, new BuggyFetcher(config, robots, InternalExceptionCrawlTest::bug));
      assertEquals(Optional.empty(), crawler.fatalError());
      assertEquals(1, crawler.unexpectedErrors());
      JsonNode line = lines(data, robots).getLast();
      assertEquals("INTERNAL_ERROR", line.get("outcome").asText(), line.toString());
      assertEquals("robots", line.get("kind").asText());
      assertEquals(List.of("/robots.txt"), bad.paths(), "no rules: no page of the origin requested");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, good.url("good.test", "/g1")));
      TestCrawl.assertPolite(data);
    }
  }

  @Test
  void anExceptionReadingASitemapCostsThatSitemapAndItsOriginGoesOn() throws Exception {
    try (TestSite bad = TestSite.start()) {
      String sitemap = bad.url("bad.test", "/sitemap.xml");
      bad.robots("User-agent: *\nSitemap: " + sitemap + "\n").linking("/", "/a").html("/a", "<p>a</p>");
      bad.route("/sitemap.xml", ex -> TestSite.respond(ex, 200, "application/xml",
          "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>" + bad.url("bad.test", "/s")
              + "</loc></url></urlset>"));
      Path data = tmp.resolve("data");
      CrawlConfig config = config(data, List.of(bad.url("bad.test", "/")),
          "sitemaps: { enabled: true, default_location: false }\n");
      Crawler crawler = run(config, new BuggyFetcher(config, "/sitemap.xml", InternalExceptionCrawlTest::bug));
      assertEquals(Optional.empty(), crawler.fatalError());
      assertEquals(1, crawler.unexpectedErrors());
      JsonNode line = lines(data, sitemap).getLast();
      assertEquals("sitemap", line.get("kind").asText(), line.toString());
      assertEquals("INTERNAL_ERROR", line.get("outcome").asText());
      assertEquals(1, bad.count("/sitemap.xml"));
      assertEquals(0, bad.count("/s"), "the file was not read");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, bad.url("bad.test", "/a")), "its origin went on");
      TestCrawl.assertPolite(data);
    }
  }

  /**
   * A crawl listener is told of each action as it is logged, inside the step that made it: its
   * exception (it must not throw) is not the URL's failure, which would log the request twice.
   */
  @Test
  void aCrawlListenerThatThrowsCostsNoPage() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a").html("/a", "<p>a</p>");
      Path data = tmp.resolve("data");
      try (Crawler crawler = Crawler.open(config(data, List.of(site.url("bad.test", "/")), "")).quiet(true)) {
        crawler.listener(new CrawlListener() {
          @Override
          public void action(org.forager.record.CrawlAction action) {
            throw new IllegalStateException("thrown by a test");
          }
        });
        crawler.run();
        assertEquals(Optional.empty(), crawler.fatalError());
        assertEquals(0, crawler.unexpectedErrors());
      }
      String a = site.url("bad.test", "/a");
      assertEquals(1, lines(data, a).size());
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, a));
      TestCrawl.assertPolite(data);
    }
  }

  /** An output that cannot be written (a full disk) is the crawl's failure, not the URL's: it stops. */
  @Test
  void anOutputFailureInAPagesStepStillStopsTheCrawlAndRecordsNothingForTheUrl() throws Exception {
    try (TestSite bad = TestSite.start()) {
      bad.linking("/", "/boom", "/a").html("/boom", "<p>boom</p>").html("/a", "<p>a</p>");
      Path data = tmp.resolve("data");
      CrawlConfig config = config(data, List.of(bad.url("bad.test", "/")), "");
      Crawler crawler = run(config, new BuggyFetcher(config, "/boom",
          () -> new UncheckedIOException("cannot write the cache", new IOException("No space left on device"))));
      assertTrue(crawler.fatalError().orElse("").startsWith("cannot record the crawl"), crawler.fatalError().toString());
      assertEquals(List.of(), lines(data, bad.url("bad.test", "/boom")), "not the URL's failure: nothing recorded");
      assertEquals("/boom", bad.paths().getLast(), "no further request");
    }
  }

  /**
   * A request whose fetch threw after it went out released its address's slot as if it had never
   * been sent: the next request to the address, another origin's, went out at once instead of
   * politeness.per_ip.min_delay after it.
   */
  @Test
  void aRequestWhoseFetchThrowsStillHoldsItsAddressUntilItEndsAndItsDelayCountsFromThere() throws Exception {
    try (TestSite bad = TestSite.start(); TestSite good = TestSite.start()) {
      bad.linking("/", "/boom", "/a").html("/a", "<p>a</p>");
      bad.route("/boom", ex -> {
        try {
          Thread.sleep(200); // the other origin waits for the address meanwhile
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        TestSite.respond(ex, 200, "text/html", "<p>boom</p>");
      });
      good.linking("/", "/g1", "/g2", "/g3", "/g4");
      for (int i = 1; i <= 4; i++) good.html("/g" + i, "<p>" + i + "</p>");
      Path data = tmp.resolve("data");
      long perIpDelayMillis = 300;
      CrawlConfig config = config(data, List.of(bad.url("bad.test", "/"), good.url("good.test", "/")),
          "politeness: { min_delay: 20ms, max_delay: 2s, response_time_factor: 0, per_ip: { max_in_flight: 1,"
              + " min_delay: " + perIpDelayMillis + "ms } }\n");
      BuggyFetcher buggy = new BuggyFetcher(config, "/boom", InternalExceptionCrawlTest::bug);
      assertEquals(Optional.empty(), run(config, buggy).fatalError());
      assertEquals(1, bad.count("/boom"));
      assertEquals(1, good.count("/g4"), "the address's later requests still went out");
      List<long[]> sorted = buggy.requests.stream().sorted(Comparator.comparingLong(r -> r[0])).toList();
      for (int i = 1; i < sorted.size(); i++) {
        long gapMillis = (sorted.get(i)[0] - sorted.get(i - 1)[1]) / 1_000_000;
        assertTrue(gapMillis >= perIpDelayMillis - 5, "request " + i + " of " + sorted.size() + " to 127.0.0.1 went "
            + gapMillis + " ms after the one before ended: " + bad.paths() + " " + good.paths());
      }
      TestCrawl.assertPolite(data);
    }
  }
}
