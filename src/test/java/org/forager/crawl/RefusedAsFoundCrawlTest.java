package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.store.RocksCrawlStore;
import org.forager.store.UrlRecord;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page's link to a URL of its own origin that robots.txt disallows is refused as it is found (issue
 * 15): logged right after the page, once, written once as the refused URL it would have become at its
 * turn; never requested. What the turn's own checks decide otherwise stays with the turn: a local gate
 * comes first, and a link from another origin (whose robots.txt is not in hand) is refused at its turn.
 */
@Timeout(60)
class RefusedAsFoundCrawlTest {

  private static final String DISALLOW_PRIVATE = "User-agent: *\nDisallow: /private/\n";

  @TempDir Path tmp;

  @Test
  void aDisallowedLinkIsRefusedRightAfterThePageThatLinksToItAndOnce() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.robots(DISALLOW_PRIVATE)
          .linking("/", "/private/a", "/private/b", "/p1")
          .linking("/p1", "/private/a", "/private/c", "/");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));

      List<String> pages = pageLines(data);
      assertEquals(List.of(site.url("/") + " FETCHED", site.url("/private/a") + " BLOCKED_BY_ROBOTS_TXT",
          site.url("/private/b") + " BLOCKED_BY_ROBOTS_TXT", site.url("/p1") + " FETCHED",
          site.url("/private/c") + " BLOCKED_BY_ROBOTS_TXT"), pages);
      assertTrue(site.paths().stream().noneMatch(p -> p.startsWith("/private/")), site.paths().toString());
      try (RocksCrawlStore store = RocksCrawlStore.open(data.resolve("store"))) {
        UrlRecord a = store.url(site.url("/private/a")).orElseThrow();
        assertEquals(1, a.fetchCount());
        assertEquals("BLOCKED_BY_ROBOTS_TXT", a.lastCrawl().orElseThrow().outcome().name());
        assertEquals(1, a.depth(), "a link of the seed");
        assertEquals(Optional.of(site.url("/")), a.discoveredFrom());
        assertTrue(a.nextFetchAt().isAfter(a.lastCrawl().orElseThrow().fetchedAt()), "due again after recrawl.interval");
        assertEquals(2, store.url(site.url("/private/c")).orElseThrow().depth(), "a link of /p1");
        assertEquals(1, store.history(site.url("/private/a")).size());
        assertEquals(5, store.urlCount(), "the home page, /p1 and the three refused");
      }

      // A run on the same data: nothing is due, nothing refused again.
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));
      assertEquals(pages, pageLines(data));
    }
  }

  @Test
  void aLocalGateStillComesFirst() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.robots(DISALLOW_PRIVATE).linking("/", "/private/local", "/private/robots");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")),
          "do_not_crawl: [ { prefix: \"" + site.url("/private/local") + "\" } ]\n"));

      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", TestCrawl.lastOutcome(data, site.url("/private/local")));
      assertEquals("BLOCKED_BY_ROBOTS_TXT", TestCrawl.lastOutcome(data, site.url("/private/robots")));
      assertEquals(List.of("/robots.txt", "/"), site.paths());
    }
  }

  @Test
  void aLinkFromAnotherOriginIsRefusedAtItsOwnTurn() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      a.robots("User-agent: *\nAllow: /\n").linking("/", b.url("/private/x"));
      b.robots(DISALLOW_PRIVATE).linking("/", "/b1");
      b.linking("/b1");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("/"), b.url("/")), ""));

      long lines = TestCrawl.log(data).stream().filter(l -> l.path("url").asText().equals(b.url("/private/x"))).count();
      assertEquals(1, lines);
      assertEquals("BLOCKED_BY_ROBOTS_TXT", TestCrawl.lastOutcome(data, b.url("/private/x")));
      assertTrue(b.paths().stream().noneMatch(p -> p.startsWith("/private/")), b.paths().toString());
      assertEquals(1, fetchCount(data, b.url("/private/x")));
    }
  }

  @Test
  void theActionBudgetCountsARefusalAsFound() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.robots(DISALLOW_PRIVATE).linking("/", "/private/a", "/private/b", "/private/c");
      Path data = tmp.resolve("data");
      // robots.txt, the home page and one refusal.
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "max_actions: 3\n"));

      assertEquals(List.of(site.url("/") + " FETCHED", site.url("/private/a") + " BLOCKED_BY_ROBOTS_TXT"), pageLines(data));
      assertEquals(0, fetchCount(data, site.url("/private/b")), "no action left: stored as due");
    }
  }

  @Test
  void anOriginAtItsPageLimitRefusesNothingMoreAsFound() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.robots(DISALLOW_PRIVATE).linking("/", "/private/a", "/p1");
      Path data = tmp.resolve("data");
      // As the turn would: at the limit the URLs stay due for a later run, refused or not.
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")),
          "limits: { fetch_timeout: 2s, max_retries: 2, max_pages_per_origin: 1 }\n"));

      assertEquals(List.of(site.url("/") + " FETCHED"), pageLines(data));
      assertEquals(0, fetchCount(data, site.url("/private/a")), "still due");
    }
  }

  /** The log's page lines, each as its URL and outcome. */
  private static List<String> pageLines(Path data) {
    List<String> lines = new ArrayList<>();
    for (JsonNode line : TestCrawl.log(data)) {
      if (line.path("kind").asText().equals("page")) lines.add(line.path("url").asText() + " " + line.path("outcome").asText());
    }
    return lines;
  }

  /** How often the store of the crawl in {@code data} says {@code url} was crawled. */
  private static int fetchCount(Path data, String url) {
    try (RocksCrawlStore store = RocksCrawlStore.open(data.resolve("store"))) {
      return store.url(url).orElseThrow().fetchCount();
    }
  }
}
