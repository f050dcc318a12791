package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.forager.config.CrawlConfig;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@link Error} set off by one URL is that URL's failure, not the run's: once, the first one (a
 * {@code StackOverflowError} in a body of empty gzip members) ended the whole crawl before the page was
 * logged, and every resume fetched the page again and ended again. The stack overflow here is a real
 * one: {@code java.util.regex} recurses once per repetition of a group, through every level of nested
 * groups, and a {@code do_not_crawl} regex of eight levels overflows the stack on a URL of some hundreds
 * of characters, well within limits.max_url_length (a longer URL is refused as too long before any
 * regex runs over it: {@link #aRedirectLongerThanTheUrlLimitIsDroppedAsTooLongAndSetsNothingOff}).
 */
@Timeout(60)
class InternalErrorCrawlTest {

  /** A rule a user may write; on a path of its letters it recurses through its eight levels once a letter. */
  private static final String REGEX_RULE =
      "do_not_crawl: [ { regex: \".*/private/(((((((a|b)|c)|d)|e)|f)|g)|h)+\" } ]\n";
  /**
   * A path it overflows the stack on, even compiled (about 600 characters do then): 1,809 characters,
   * a URL within limits.max_url_length (2048).
   */
  private static final String DEEP_PATH = "/private/" + "ab".repeat(900);

  @TempDir Path tmp;

  private static CrawlConfig config(Path data, List<String> seeds, String extra) {
    return TestCrawl.config(data, seeds, TestCrawl.pinnedToLoopback("bad.test", "good.test") + REGEX_RULE + extra);
  }

  private static JsonNode lastLine(Path data, String url) {
    JsonNode last = null;
    for (JsonNode line : TestCrawl.log(data)) {
      if (line.get("url").asText().equals(url)) last = line;
    }
    return last;
  }

  private static Crawler run(CrawlConfig config) throws InterruptedException {
    Crawler crawler = Crawler.open(config).quiet(true);
    try {
      crawler.run();
    } finally {
      crawler.close();
    }
    return crawler;
  }

  @Test
  void aStackOverflowProcessingOnePageIsThatPagesFailureAndAResumeDoesNotFetchItAgain() throws Exception {
    try (TestSite bad = TestSite.start(); TestSite good = TestSite.start()) {
      bad.linking("/", "/r", "/a").html("/a", "<p>a</p>").html("/b", "<p>b</p>");
      bad.route("/r", ex -> {
        // Not followed (skip_extensions): checked against every gate, its rules first, to say why.
        ex.getResponseHeaders().set("Location", DEEP_PATH + ".zip");
        TestSite.respond(ex, 302, "text/html", "");
      });
      good.linking("/", "/g1", "/g2").html("/g1", "<p>1</p>").html("/g2", "<p>2</p>");
      Path data = tmp.resolve("data");
      String r = bad.url("bad.test", "/r");
      List<String> seeds = List.of(bad.url("bad.test", "/"), good.url("good.test", "/"));

      Crawler first = run(config(data, seeds, ""));
      assertEquals(Optional.empty(), first.fatalError(), "the run was not ended by the error");
      assertEquals(1, first.unexpectedErrors(), "counted against the error budget");
      JsonNode line = lastLine(data, r);
      assertEquals("INTERNAL_ERROR", line.get("outcome").asText(), line.toString());
      assertEquals(302, line.get("http_status").asInt(), "the request's line, with what came back");
      assertTrue(line.get("reason").asText().startsWith("internal error: java.lang.StackOverflowError"), line.toString());
      assertEquals("127.0.0.1", line.get("ip").asText(), "the address it was sent to, for the per-IP audit");
      assertEquals(1, TestCrawl.log(data).stream().filter(l -> l.get("url").asText().equals(r)).count(),
          "one line for its one request");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, bad.url("bad.test", "/a")), "its origin went on");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, good.url("good.test", "/g1")), "the other origin too");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, good.url("good.test", "/g2")));
      JsonNode exported = TestCrawl.export(data).get(r);
      assertEquals("failed", exported.get("state").asText());
      assertEquals("INTERNAL_ERROR", exported.get("last_outcome").asText());
      TestCrawl.assertPolite(data);

      // A resume, with new work for the origin: the page is not fetched again (nor the error met again).
      Crawler second = run(config(data, List.of(bad.url("bad.test", "/b")), ""));
      assertEquals(Optional.empty(), second.fatalError());
      assertEquals(0, second.unexpectedErrors());
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, bad.url("bad.test", "/b")));
      assertEquals(1, bad.count("/r"), "fetched once in two runs");

      // Once the bug is mended, retry-failed makes it due, as any failed URL.
      try (Crawler control = Crawler.open(config(data, List.of(), "")).quiet(true)) {
        assertEquals(1, control.control().retryFailed(Optional.of("bad.test"), "test"));
      }
      run(config(data, List.of(), ""));
      assertEquals(2, bad.count("/r"));
      TestCrawl.assertPolite(data);
    }
  }

  /**
   * A redirect's target is checked against every gate to say why it is not followed: once a hostile
   * page's 14,000-character Location ran the do_not_crawl regexes over it and overflowed the stack (so
   * did robots.txt's). A URL that long is never a candidate: refused as too long before any regex.
   */
  @Test
  void aRedirectLongerThanTheUrlLimitIsDroppedAsTooLongAndSetsNothingOff() throws Exception {
    String tooLong = "/private/" + "ab".repeat(7_000);
    try (TestSite bad = TestSite.start()) {
      bad.route("/robots.txt", ex -> {
        ex.getResponseHeaders().set("Location", tooLong);
        TestSite.respond(ex, 301, "text/html", "");
      });
      bad.linking("/", "/r", "/a").html("/a", "<p>a</p>");
      bad.route("/r", ex -> {
        ex.getResponseHeaders().set("Location", tooLong);
        TestSite.respond(ex, 302, "text/html", "");
      });
      Path data = tmp.resolve("data");
      Crawler crawler = run(config(data, List.of(bad.url("bad.test", "/")), ""));
      assertEquals(Optional.empty(), crawler.fatalError());
      assertEquals(0, crawler.unexpectedErrors(), "no internal error");
      String target = bad.url("bad.test", tooLong);
      List<JsonNode> refusals = TestCrawl.log(data).stream().filter(l -> l.get("url").asText().equals(target)).toList();
      assertEquals(2, refusals.size(), "robots.txt's hop and the page's target: " + refusals);
      for (JsonNode refusal : refusals) {
        assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", refusal.get("outcome").asText());
        assertTrue(refusal.get("reason").asText().endsWith("longer than limits.max_url_length 2048"),
            refusal.get("reason").asText());
      }
      assertEquals("REDIRECT", TestCrawl.lastOutcome(data, bad.url("bad.test", "/r")));
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, bad.url("bad.test", "/a")),
          "robots.txt's redirect refused: unavailable, allow all (RFC 9309 2.3.1.2)");
      assertEquals(0, bad.paths().stream().filter(p -> p.startsWith("/private/")).count(), "never requested");
      TestCrawl.assertPolite(data);
    }
  }

  @Test
  void aGateThatOverflowsTheStackOnAUrlRefusesItAndItsOriginGoesOn() throws Exception {
    try (TestSite bad = TestSite.start(); TestSite good = TestSite.start()) {
      bad.linking("/", DEEP_PATH, "/a").html("/a", "<p>a</p>");
      good.linking("/", "/g1").html("/g1", "<p>1</p>");
      Path data = tmp.resolve("data");
      String deep = bad.url("bad.test", DEEP_PATH);
      // A candidate: the regex meets it at its turn, before any request.
      Crawler crawler = run(config(data, List.of(bad.url("bad.test", "/"), good.url("good.test", "/")), ""));
      assertEquals(Optional.empty(), crawler.fatalError());
      assertEquals(1, crawler.unexpectedErrors());
      JsonNode line = lastLine(data, deep);
      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", line.get("outcome").asText(), "refused: the gates could not clear it");
      assertTrue(line.get("reason").asText().contains("StackOverflowError"), line.get("reason").asText());
      assertEquals(0, bad.paths().stream().filter(p -> p.startsWith("/private/")).count(), "never requested");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, bad.url("bad.test", "/a")));
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, good.url("good.test", "/g1")));
      assertEquals("blocked", TestCrawl.export(data).get(deep).get("state").asText(), "recorded: not judged again");
      TestCrawl.assertPolite(data);
    }
  }

  /**
   * One page of 25 links that each set off a gate's overflow stopped the whole crawl ("more than 20
   * unexpected errors within a minute"): an attacker's review, session 67. Now one site's errors cost its
   * own patience (five), and only errors on many sites stop the crawl.
   */
  @Test
  void oneSitesBurstOfErrorsCostsItsPatienceNotTheCrawl() throws Exception {
    try (TestSite bad = TestSite.start(); TestSite good = TestSite.start()) {
      String[] deep = new String[25];
      for (int i = 0; i < deep.length; i++) deep[i] = DEEP_PATH + "/" + i;
      bad.linking("/", deep);
      good.linking("/", "/g1", "/g2").html("/g1", "<p>1</p>").html("/g2", "<p>2</p>");
      Path data = tmp.resolve("data");
      Crawler crawler = run(config(data, List.of(bad.url("bad.test", "/"), good.url("good.test", "/")), ""));
      assertEquals(Optional.empty(), crawler.fatalError(), "the crawl was not stopped");
      assertEquals(5, crawler.unexpectedErrors(), "five: then the site is out of patience");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, good.url("good.test", "/g2")));
      assertEquals(0, bad.paths().stream().filter(p -> p.startsWith("/private/")).count(), "never requested");
      TestCrawl.assertPolite(data);
    }
  }

  @Test
  void aGateThatOverflowsTheStackOnASitemapRefusesItAndItsOriginGoesOn() throws Exception {
    try (TestSite bad = TestSite.start(); TestSite good = TestSite.start()) {
      String deepSitemap = bad.url("bad.test", DEEP_PATH);
      bad.robots("User-agent: *\nSitemap: " + deepSitemap + "\n").linking("/", "/a").html("/a", "<p>a</p>");
      good.linking("/", "/g1").html("/g1", "<p>1</p>");
      Path data = tmp.resolve("data");
      Crawler crawler = run(config(data, List.of(bad.url("bad.test", "/"), good.url("good.test", "/")),
          "sitemaps: { enabled: true, default_location: false }\n"));
      assertEquals(Optional.empty(), crawler.fatalError());
      JsonNode line = lastLine(data, deepSitemap);
      assertEquals("sitemap", line.get("kind").asText(), line.toString());
      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", line.get("outcome").asText());
      assertTrue(line.get("reason").asText().contains("StackOverflowError"), line.get("reason").asText());
      assertEquals(0, bad.paths().stream().filter(p -> p.startsWith("/private/")).count(), "never requested");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, bad.url("bad.test", "/a")), "its origin went on");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, good.url("good.test", "/g1")));
      TestCrawl.assertPolite(data);
    }
  }

  @Test
  void aStackOverflowReadingRobotsTxtPutsOnlyItsOriginOff() throws Exception {
    try (TestSite bad = TestSite.start(); TestSite good = TestSite.start()) {
      bad.route("/robots.txt", ex -> {
        ex.getResponseHeaders().set("Location", DEEP_PATH); // checked against the gates before it is followed
        TestSite.respond(ex, 301, "text/html", "");
      });
      bad.linking("/", "/a");
      good.linking("/", "/g1").html("/g1", "<p>1</p>");
      Path data = tmp.resolve("data");
      Crawler crawler = run(config(data, List.of(bad.url("bad.test", "/"), good.url("good.test", "/")), ""));
      assertEquals(Optional.empty(), crawler.fatalError());
      JsonNode robots = lastLine(data, bad.url("bad.test", "/robots.txt"));
      assertEquals("INTERNAL_ERROR", robots.get("outcome").asText(), robots.toString());
      assertEquals("robots", robots.get("kind").asText());
      assertEquals(List.of("/robots.txt"), bad.paths(), "no rules: no page of the origin requested");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, good.url("good.test", "/g1")));
      TestCrawl.assertPolite(data);
    }
  }

  @Test
  void aPriorityHookThatOverflowsTheStackRanksTheUrlZeroAndTheCrawlGoesOn() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a", "/deep").html("/a", "<p>a</p>").html("/deep", "<p>deep</p>");
      Path data = tmp.resolve("data");
      try (Crawler crawler = Crawler.open(config(data, List.of(site.url("bad.test", "/")), "")).quiet(true)) {
        // Asked inside the store's group write: thrown there, it failed the writes of every origin in the group.
        crawler.priority((url, depth, inlinks) -> {
          if (url.endsWith("/deep")) throw new StackOverflowError("thrown by a test");
          return 0.5;
        });
        crawler.run();
        assertEquals(Optional.empty(), crawler.fatalError());
        var deep = crawler.store().url(site.url("bad.test", "/deep"));
        assertTrue(deep.isPresent(), "the link was stored with its page");
        assertEquals(0.0, deep.get().priority());
      }
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, site.url("bad.test", "/deep")), "ranked 0, crawled all the same");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, site.url("bad.test", "/a")));
    }
  }

  @Test
  void anOutOfMemoryErrorStillEndsTheRun() throws Exception {
    try (TestSite bad = TestSite.start(); TestSite good = TestSite.start()) {
      bad.linking("/", "/a").html("/a", "<p>a</p>");
      String[] pages = new String[30];
      for (int i = 0; i < pages.length; i++) {
        pages[i] = "/g" + i;
        good.html(pages[i], "<p>" + i + "</p>");
      }
      good.linking("/", pages);
      Path data = tmp.resolve("data");
      String badRoot = bad.url("bad.test", "/");
      CrawlConfig config = config(data, List.of(badRoot, good.url("good.test", "/")),
          "politeness: { min_delay: 50ms, max_delay: 2s, response_time_factor: 0 }\n");
      try (Crawler crawler = Crawler.open(config).quiet(true)) {
        // The JVM cannot be trusted after this one (a real one would be the heap's): it is not contained.
        crawler.onPage(page -> {
          if (page.url().equals(badRoot)) throw new OutOfMemoryError("thrown by a test");
        });
        crawler.run();
        assertTrue(crawler.fatalError().orElse("").contains("java.lang.OutOfMemoryError: thrown by a test"),
            crawler.fatalError().toString());
        assertTrue(crawler.stopRequested());
      }
      assertTrue(good.requests().size() < 1 + pages.length + 1, "the run ended before the other origin's end");
      assertEquals(0, bad.count("/a"));
      TestCrawl.assertPolite(data);
    }
  }
}
