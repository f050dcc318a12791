package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page whose links were cut short says so on its crawl log line: links dropped past the page's
 * budget were lost without a trace (an attacker's review, session 67).
 */
@Timeout(60)
class LinksCutCrawlTest {

  @TempDir Path tmp;

  @Test
  void aPageOfMoreLinksThanItsBudgetSaysHowManyItKept() throws Exception {
    StringBuilder many = new StringBuilder();
    for (int k = 0; k < 60_000; k++) many.append("<a href=/p").append(k).append('>');
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\n").route("/", ex -> TestSite.respond(ex, 200, "text/html", many.toString()))
          .linking("/few", "/p1");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/"), site.url("/few")), "max_actions: 3\n"));
      JsonNode home = line(data, site.url("/"));
      assertEquals("FETCHED", home.get("outcome").asText());
      assertEquals("links cut at the page's budget: 50000 kept", home.get("reason").asText());
      assertEquals(true, line(data, site.url("/few")).get("reason").isNull(), "a usual page has no reason");
      TestCrawl.assertPolite(data);
    }
  }

  private static JsonNode line(Path data, String url) {
    return TestCrawl.log(data).stream().filter(l -> l.get("url").asText().equals(url)).findFirst().orElseThrow();
  }
}
