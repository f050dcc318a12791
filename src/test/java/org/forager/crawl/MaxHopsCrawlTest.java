package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.forager.store.RocksCrawlStore;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scope.max_hops} in domains mode: how many links a crawl may follow outside the seeds' domains.
 * The seed's domain links to another site, which links to a third and back into the seed's domain.
 */
@Timeout(120)
class MaxHopsCrawlTest {

  private static final String PINNED =
      TestCrawl.pinnedToLoopback("example.test", "www.example.test", "other.test", "third.test");

  @TempDir Path tmp;

  @Test
  void oneHopReachesTheLinkedSiteButNotTheSiteItLinksTo() throws Exception {
    try (TestSite home = TestSite.start(); TestSite www = TestSite.start(); TestSite other = TestSite.start();
        TestSite third = TestSite.start()) {
      home.linking("/", other.url("other.test", "/a"));
      other.linking("/a", third.url("third.test", "/b"), www.url("www.example.test", "/c"));
      www.linking("/c", other.url("other.test", "/d"));
      other.linking("/d");
      third.linking("/b");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(home.url("example.test", "/")),
          "scope: { mode: domains, max_hops: 1 }\n" + PINNED));

      assertEquals(List.of("/robots.txt", "/"), home.paths());
      assertEquals(List.of("/robots.txt", "/a", "/d"), other.paths(), "one hop away, twice");
      assertEquals(List.of("/robots.txt", "/c"), www.paths(), "back in the seed's domain: hops start again");
      assertEquals(List.of(), third.paths(), "two hops away: never contacted");
      JsonNode a = TestCrawl.log(data).stream()
          .filter(action -> action.get("url").asText().equals(other.url("other.test", "/a"))).findFirst().orElseThrow();
      assertEquals(1, a.get("out_of_scope_links").asInt(), a.toString());
      try (RocksCrawlStore store = RocksCrawlStore.open(data.resolve("store"))) {
        assertEquals(1, store.url(other.url("other.test", "/a")).orElseThrow().hops());
        assertEquals(0, store.url(www.url("www.example.test", "/c")).orElseThrow().hops());
        assertEquals(1, store.url(other.url("other.test", "/d")).orElseThrow().hops());
      }
    }
  }

  @Test
  void withoutHopsTheLinkedSiteIsNotContactedAndAResumeWithFewerHopsRefusesWhatIsNowBeyond() throws Exception {
    try (TestSite home = TestSite.start(); TestSite other = TestSite.start()) {
      home.linking("/", other.url("other.test", "/a"));
      other.linking("/a", other.url("other.test", "/b")).linking("/b");
      Path data = tmp.resolve("data");
      String seed = home.url("example.test", "/");
      // Stopped after robots.txt, the seed, and other.test's robots.txt: /a is stored, one hop away.
      TestCrawl.run(TestCrawl.config(data, List.of(seed), "max_actions: 3\nscope: { mode: domains, max_hops: 1 }\n"
          + PINNED));
      assertEquals(List.of("/robots.txt"), other.paths());

      TestCrawl.run(TestCrawl.config(data, List.of(seed), "scope: { mode: domains }\n" + PINNED));
      assertEquals(List.of("/robots.txt"), other.paths(), "max_hops 0 now: nothing more of other.test");
      JsonNode refused = TestCrawl.log(data).stream()
          .filter(action -> action.get("url").asText().equals(other.url("other.test", "/a"))).findFirst().orElseThrow();
      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", refused.get("outcome").asText(), refused.toString());
      assertTrue(refused.get("reason").asText().contains("out of scope"), refused.toString());
    }
  }
}
