package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.forager.store.RocksCrawlStore;
import org.forager.store.UrlRecord;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A turn's refusals are written to the store with its page's record (issue 15), not one by one: a
 * refused URL must still be refused once only. Far more refused URLs than a todo batch (16), in runs
 * of them between pages, make the origin read its due URLs again between refusals: a refusal not
 * written by then would be read as due, refused and logged a second time.
 */
@Timeout(60)
class RefusalWritesCrawlTest {

  private static final int PRIVATE_FROM_HOME = 40;
  /** More than the reads of a run of refusals take together until they are at their largest (16, 64, 256). */
  private static final int MANY_PRIVATE_FROM_HOME = 700;
  private static final int PAGES = 6;
  private static final int PRIVATE_PER_PAGE = 5;

  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"robots.txt", "do_not_crawl"})
  void eachRefusedUrlIsLoggedOnceAndRecordedOnce(String gate) throws Exception {
    crawl(gate, PRIVATE_FROM_HOME);
  }

  /**
   * A run of refusals takes the origin's due URLs in larger reads (OriginCrawler.MAX_REFUSAL_BATCH):
   * still each refused once, and the pages among them all fetched.
   */
  @ParameterizedTest
  @ValueSource(strings = {"robots.txt", "do_not_crawl"})
  void aLongRunOfRefusalsIsReadInLargerBatchesAndEachRefusedOnce(String gate) throws Exception {
    crawl(gate, MANY_PRIVATE_FROM_HOME);
  }

  private void crawl(String gate, int privateFromHome) throws Exception {
    try (TestSite site = TestSite.start()) {
      List<String> home = new ArrayList<>();
      List<String> refused = new ArrayList<>();
      for (int i = 0; i < privateFromHome; i++) home.add("/private/h" + i);
      for (int p = 0; p < PAGES; p++) {
        // Each page links to more refused URLs: refused in the turn of the next page, before it.
        List<String> links = new ArrayList<>();
        for (int i = 0; i < PRIVATE_PER_PAGE; i++) links.add("/private/p" + p + "-" + i);
        links.add("/");
        site.linking("/page" + p, links.toArray(String[]::new));
        refused.addAll(links.subList(0, PRIVATE_PER_PAGE));
        home.add("/page" + p);
      }
      refused.addAll(home.subList(0, privateFromHome));
      site.robots(gate.equals("robots.txt") ? "User-agent: *\nDisallow: /private/\n" : "User-agent: *\nAllow: /\n")
          .linking("/", home.toArray(String[]::new));
      String rule = gate.equals("robots.txt") ? ""
          : "do_not_crawl: [ { prefix: \"" + site.url("/private/") + "\" } ]\n";
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), rule));

      String outcome = gate.equals("robots.txt") ? "BLOCKED_BY_ROBOTS_TXT" : "BLOCKED_URL_BY_LOCAL_POLICY";
      Map<String, Integer> logged = new LinkedHashMap<>();
      for (JsonNode line : TestCrawl.log(data)) {
        if (line.path("kind").asText().equals("page")) logged.merge(line.path("url").asText(), 1, Integer::sum);
      }
      try (RocksCrawlStore store = RocksCrawlStore.open(data.resolve("store"))) {
        for (String path : refused) {
          String url = site.url(path);
          assertEquals(1, logged.getOrDefault(url, 0), "log lines of " + url);
          UrlRecord record = store.url(url).orElseThrow();
          assertEquals(1, record.fetchCount(), url);
          assertEquals(outcome, record.lastCrawl().orElseThrow().outcome().name(), url);
          assertEquals(1, store.history(url).size(), url);
        }
        for (int p = 0; p < PAGES; p++) {
          assertEquals(1, store.url(site.url("/page" + p)).orElseThrow().fetchCount(), "/page" + p);
        }
      }
      assertTrue(site.paths().stream().noneMatch(path -> path.startsWith("/private/")), site.paths().toString());
      assertEquals(1 + 1 + PAGES, site.paths().size(), "robots.txt, the home page and its pages: " + site.paths());
    }
  }
}
