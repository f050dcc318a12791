package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.forager.record.RunSummary;
import org.forager.store.RocksCrawlStore;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code limits.max_urls_per_origin} against a site minting links: every page links to 20 new pages
 * and two new URLs robots.txt refuses, without end. The store keeps the origin's URLs to the cap, the
 * crawl fetches no more than that, the terminal names the origin once and the summary counts what was
 * not kept; another site it links to has a count of its own, and a sites rule's cap.
 */
@Timeout(120)
class UrlCapCrawlTest {

  @TempDir Path tmp;

  @Test
  void aSiteMintingLinksIsHeldToTheCapAndAnotherSiteToItsSitesRule() throws Exception {
    try (TestSite trap = TestSite.start(); TestSite other = TestSite.start()) {
      trap.robots("User-agent: *\nDisallow: /private/\n");
      for (int page = 0; page < 400; page++) {
        String[] links = new String[23];
        for (int k = 0; k < 20; k++) links[k] = "/p/" + (page * 20 + k + 1);
        links[20] = "/private/" + page + "a";
        links[21] = "/private/" + page + "b";
        links[22] = other.url("other.test", "/from/" + page % 50);
        trap.linking(page == 0 ? "/" : "/p/" + page, links);
      }
      String[] all = new String[49];
      for (int page = 1; page < 50; page++) all[page - 1] = "/from/" + page;
      other.linking("/from/0", all);
      for (int page = 1; page < 50; page++) other.linking("/from/" + page);
      Path data = tmp.resolve("data");
      String seed = trap.url("trap.test", "/");
      String otherSeed = other.url("other.test", "/from/0");
      ByteArrayOutputStream terminal = new ByteArrayOutputStream();
      PrintStream err = System.err;
      RunSummary summary;
      System.setErr(new PrintStream(terminal, true, StandardCharsets.UTF_8));
      try {
        summary = TestCrawl.run(TestCrawl.config(data, List.of(seed, otherSeed),
            TestCrawl.pinnedToLoopback("trap.test", "other.test")
                + "politeness: { min_delay: 0s, max_delay: 1s, response_time_factor: 0 }\n"
                + "limits: { fetch_timeout: 2s, max_retries: 2, max_urls_per_origin: 60 }\n"
                + "sites: [ { host: other.test, max_urls: 20 } ]\n"));
      } finally {
        System.setErr(err);
      }

      String trapOrigin = "http://trap.test:" + trap.port();
      java.util.Set<String> trapUrls = new java.util.HashSet<>();
      long[] otherKept = {0};
      try (RocksCrawlStore store = RocksCrawlStore.openForReading(data.resolve("store"), RocksCrawlStore.MIN_MEMORY_BYTES)) {
        store.forEachUrl(u -> {
          if (u.url().startsWith(trapOrigin + "/")) trapUrls.add(u.url());
          else otherKept[0]++;
        });
      }
      List<JsonNode> log = TestCrawl.log(data);
      List<String> trapLogged = log.stream().map(a -> a.get("url").asText())
          .filter(u -> u.startsWith(trapOrigin + "/") && !u.endsWith("/robots.txt")).toList();
      // The cap (without it, the 400 pages' 8,800 URLs); every page fetched is one of them. The refusals
      // logged by calls in flight as the origin filled may not be kept: a few lines, no more.
      assertEquals(60, trapUrls.size(), "the trap's URLs: the cap");
      assertTrue(trapLogged.stream().filter(u -> !u.contains("/private/")).allMatch(trapUrls::contains));
      assertTrue(trapLogged.stream().filter(u -> !trapUrls.contains(u)).count() <= 10, trapLogged.toString());
      assertEquals(20, otherKept[0], "the other site: its sites rule's cap, its count its own");
      String lines = terminal.toString(StandardCharsets.UTF_8);
      assertEquals(2, lines.lines().filter(l -> l.contains(" URLs (")).count(), lines);
      assertTrue(lines.contains("forager: http://other.test:" + other.port() + " reached its cap of 20 URLs (its sites rule's"
          + " max_urls): its new links are not kept"), lines);
      assertTrue(lines.contains("forager: " + trapOrigin + " reached its cap of 60 URLs (limits.max_urls_per_origin): its new links"
          + " are not kept"), lines);
      assertTrue(summary.urlsNotKept() > 1_000, summary.urlsNotKept() + " URLs not kept: the progress line's count");
      String rendered = summary.render(Duration.ofSeconds(1));
      assertTrue(rendered.matches("(?s).*note: [0-9,]+ new URLs not kept: their origin held limits.max_urls_per_origin"
          + " \\(60\\) URLs or its sites rule's max_urls.*"), rendered);
    }
  }
}
