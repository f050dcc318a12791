package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Local policy in a real crawl: refused candidates are logged, never requested. */
@Timeout(60)
class LocalPolicyTest {

  @TempDir Path tmp;

  @Test
  void doNotCrawlAndQueryRulesRefuseCandidatesWithALoggedAction() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/private/a", "/calendar/2024/01", "/search?q=x&page=2", "/search?q=x&sessionid=1",
              "/ok?tracking=1", "/fine")
          .html("/search?q=x&page=2", "<p>results</p>")
          .html("/fine", "<p>fine</p>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), """
          do_not_crawl:
            - prefix: "%1$s/private/"
            - regex: ".*/calendar/\\\\d{4}/.*"
          url_query_parameters:
            - prefix: "%1$s/search"
              allow: [ q, page ]
          """.formatted(site.origin())));

      assertEquals(List.of("/robots.txt", "/", "/fine", "/search?q=x&page=2"), site.paths());
      for (String refused : List.of("/private/a", "/calendar/2024/01", "/search?q=x&sessionid=1", "/ok?tracking=1")) {
        JsonNode line = TestCrawl.log(data).stream()
            .filter(l -> l.get("url").asText().equals(site.url(refused))).findFirst().orElseThrow();
        assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", line.get("outcome").asText(), refused);
        assertEquals(0, line.get("http_status").asInt());
      }
    }
  }

  @Test
  void trapLimitsAndSkippedExtensionsKeepLinksFromBecomingCandidates() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/d1", "/image.JPG", "/" + "x".repeat(300))
          .linking("/d1", "/d2")
          .linking("/d2", "/d3")
          .linking("/d3", "/d4");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")),
          "limits: { fetch_timeout: 2s, max_depth: 2, max_url_length: 200 }"));

      assertEquals(List.of("/robots.txt", "/", "/d1", "/d2"), site.paths());
      assertNull(TestCrawl.lastOutcome(data, site.url("/d3")), "deeper than max_depth: not a candidate");
      assertNull(TestCrawl.lastOutcome(data, site.url("/image.JPG")), "skipped extension: not a candidate");
    }
  }

  /** Pages each naming the next as canonical went on past max_depth: a canonical was taken at the same depth. */
  @Test
  void aChainOfCanonicalsEndsAtMaxDepth() throws Exception {
    try (TestSite site = TestSite.start()) {
      for (int n = 0; n < 100; n++) {
        site.html("/c" + n, "<link rel=\"canonical\" href=\"/c" + (n + 1) + "\"><p>copy</p>");
      }
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/c0")), "limits: { fetch_timeout: 2s, max_depth: 3 }"));
      assertEquals(List.of("/robots.txt", "/c0", "/c1", "/c2", "/c3"), site.paths().stream()
          .filter(p -> !p.equals("/sitemap.xml")).toList());
      assertEquals("NON_CANONICAL", TestCrawl.lastOutcome(data, site.url("/c3")));
      // Deeper than max_depth: not a candidate, and the log says why the canonical was not followed.
      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", TestCrawl.lastOutcome(data, site.url("/c4")));
      try (var store = org.forager.store.RocksCrawlStore.open(data.resolve("store"))) {
        assertTrue(store.url(site.url("/c4")).isEmpty(), "not stored");
      }
    }
  }

  @Test
  void anEndlessTrapEndsInABoundedNumberOfRequests() throws Exception {
    try (TestSite site = TestSite.start()) {
      // Every calendar page links to the next day, forever; each URL is new.
      for (int day = 0; day < 1000; day++) {
        site.linking("/calendar?day=" + day, "/calendar?day=" + (day + 1));
      }
      site.linking("/", "/calendar?day=0");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), """
          limits: { fetch_timeout: 2s, max_pages_per_origin: 25 }
          url_query_parameters: [ { prefix: "%s/calendar", allow: [ day ] } ]
          """.formatted(site.origin())));
      assertEquals(26, site.requests().size(), "robots.txt and 25 pages");
    }
  }

  @Test
  void theExclusionFileRefusesItsHostsAndPrefixes() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/staff/a", "/ok").html("/ok", "<p>ok</p>");
      Path file = tmp.resolve("never-crawl.txt");
      java.nio.file.Files.writeString(file, "# no staff pages\n" + site.url("/staff/") + "\n");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "do_not_crawl_file: \"" + file + "\""));
      assertEquals(List.of("/robots.txt", "/", "/ok"), site.paths());
      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", TestCrawl.lastOutcome(data, site.url("/staff/a")));
    }
  }

  /**
   * No query is crawled by default (the contract's url_query_parameters): a dataset crawl that did not
   * know it is told at the end, seeds by name, with the way to allow queries on every site.
   */
  @Test
  void queriesRefusedByDefaultAreNotedWithTheWayToAllowThemEverywhere() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/list?page=2", "/plain").html("/list?page=2", "<p>2</p>").html("/plain", "<p>p</p>")
          .html("/item?id=5", "<p>5</p>");
      Path data = tmp.resolve("data");
      String summary = TestCrawl.run(TestCrawl.config(data, List.of(site.url("/"), site.url("/item?id=5")), ""))
          .render(java.time.Duration.ofSeconds(1));
      assertEquals(List.of("/robots.txt", "/", "/plain"), site.paths());
      assertTrue(summary.contains("note: seed " + site.url("/item?id=5") + " is not requested: url_query_parameters:"
          + " no rule allows the parameters of this query\n"), summary);
      assertTrue(summary.contains("note: 2 URLs with a query not requested: no url_query_parameters rule allows their"
          + " parameters (none does by default; a rule names a URL prefix and the parameters to crawl, or allow: [\"*\"]"
          + " any: docs/configuration.md)\n"), summary);

      String allowed = TestCrawl.run(TestCrawl.config(tmp.resolve("data2"), List.of(site.url("/"), site.url("/item?id=5")),
          "url_query_parameters: [ { prefix: \"http://\", allow: [ \"*\" ] } ]")).render(java.time.Duration.ofSeconds(1));
      assertTrue(site.paths().containsAll(List.of("/list?page=2", "/item?id=5")), site.paths().toString());
      assertFalse(allowed.contains("url_query_parameters"), allowed);
    }
  }

  /**
   * A host's trailing dot names the same host: "victim.test." was a second origin (robots.txt and every page
   * fetched twice, milliseconds apart) and passed a do_not_crawl prefix written without it (the attacker review).
   */
  @Test
  void aTrailingDotIsTheSameOriginUnderTheSameRules() throws Exception {
    try (TestSite site = TestSite.start()) {
      String plain = "http://victim.test:" + site.port();
      String dotted = "http://victim.test.:" + site.port();
      site.linking("/", dotted + "/", dotted + "/a", plain + "/a", dotted + "/private/x").html("/a", "<p>a</p>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(dotted + "/"), TestCrawl.pinnedToLoopback("victim.test")
          + "do_not_crawl: [ { prefix: \"" + plain + "/private/\" } ]"));
      assertEquals(List.of("/robots.txt", "/", "/a"), site.paths());
      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", TestCrawl.lastOutcome(data, plain + "/private/x"));
    }
  }

  @Test
  void seedWithASkippedExtensionIsRefusedWithALoggedAction() throws Exception {
    try (TestSite site = TestSite.start()) {
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/photo.png")), ""));
      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", TestCrawl.lastOutcome(data, site.url("/photo.png")));
      assertEquals(List.of("/robots.txt"), site.paths());
    }
  }
}
