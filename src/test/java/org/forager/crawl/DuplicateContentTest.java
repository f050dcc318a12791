package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Exact duplicates by body digest, near-duplicates by simhash, and the change history in the export. */
@Timeout(60)
class DuplicateContentTest {

  /** One body under two paths: its relative link resolves to a different URL on each. */
  private static final String SAME_BODY = "<p>The same page served twice</p><a href=\"next\">next</a>";

  private static final String ARTICLE = "The harbour town woke early that morning, as the fishing boats came"
      + " back with the tide and the market stalls opened along the quay. Merchants argued about the price of"
      + " herring, children ran between the carts, and an old sailor told anyone who would listen about the"
      + " storm of the winter before, when the lighthouse keeper kept the lamp burning for three nights."
      + " By noon the square was full, the church bell rang twelve times, and the baker sold his last loaf.";

  /**
   * About 1,300 words: at this length a one-word edit moves the simhash by at most 3 bits (on an
   * 80-word text it does only 4 times in 10, see docs/freshness.md).
   */
  private static String longArticle(String edit) {
    StringBuilder text = new StringBuilder(edit);
    for (int day = 1; day < 16; day++) text.append(' ').append(ARTICLE.replace("morning", "morning " + day));
    return text.toString();
  }

  @TempDir Path tmp;

  @Test
  void theLaterUrlWithTheSameBodyIsADuplicateOfTheFirstAndItsLinksAreNotFollowed() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/x/page", "/y/page", "/n1", "/n2", "/n3");
      // Crawled shallowest first, then in URL order: /x/page before /y/page, /n1 before /n2.
      site.html("/x/page", SAME_BODY).html("/y/page", SAME_BODY);
      site.html("/x/next", "<p>reached from the original</p>").html("/y/next", "<p>reached from the copy</p>");
      site.html("/n1", "<article>" + longArticle(ARTICLE) + "</article>");
      site.html("/n2", "<article>" + longArticle(ARTICLE.replace("twelve", "eleven")) + "</article>");
      site.html("/n3", "<article>Quarterly results: revenue grew by four percent while costs fell, and the"
          + " board approved a dividend of twelve cents per share payable in March.</article>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));

      assertEquals("DUPLICATE_CONTENT", TestCrawl.lastOutcome(data, site.url("/y/page")));
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, site.url("/x/page")));
      assertEquals(1, site.count("/x/next"));
      assertEquals(0, site.count("/y/next"), "the duplicate's links are not followed");
      JsonNode logged = TestCrawl.log(data).stream()
          .filter(l -> l.get("url").asText().equals(site.url("/y/page"))).findFirst().orElseThrow();
      assertEquals("duplicate of " + site.url("/x/page"), logged.get("reason").asText(), logged.toString());

      Map<String, JsonNode> export = TestCrawl.export(data);
      assertFalse(export.containsKey(site.url("/y/next")));
      assertEquals(site.url("/x/page"), export.get(site.url("/y/page")).get("duplicate_of").asText());
      assertTrue(export.get(site.url("/x/page")).get("duplicate_of").isNull());
      assertEquals("fetched", export.get(site.url("/y/page")).get("state").asText());

      assertTrue(export.get(site.url("/n1")).get("near_duplicate_of").isNull());
      assertEquals(site.url("/n1"), export.get(site.url("/n2")).get("near_duplicate_of").asText());
      assertTrue(export.get(site.url("/n3")).get("near_duplicate_of").isNull());
      assertTrue(export.get(site.url("/n2")).get("duplicate_of").isNull(), "near, not exact");
      // An exact duplicate is reported as such only, not as a near one too.
      assertTrue(export.get(site.url("/y/page")).get("near_duplicate_of").isNull());
    }
  }

  @Test
  void withSkipLinksOffTheDuplicatesLinksAreFollowed() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/x/page", "/y/page");
      site.html("/x/page", SAME_BODY).html("/y/page", SAME_BODY);
      site.html("/x/next", "<p>x</p>").html("/y/next", "<p>y</p>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "duplicates: { skip_links: false }"));

      assertEquals("DUPLICATE_CONTENT", TestCrawl.lastOutcome(data, site.url("/y/page")));
      assertEquals(1, site.count("/y/next"));
    }
  }

  @Test
  void aRefetchIsNoDuplicateOfItselfAndTheExportCountsChanges() throws Exception {
    AtomicInteger version = new AtomicInteger(1);
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/x/page", "/y/page", "/changing");
      site.html("/x/page", SAME_BODY).html("/y/page", SAME_BODY);
      site.html("/x/next", "<p>x</p>");
      site.route("/changing", ex -> TestSite.respond(ex, 200, "text/html", "<p>version " + version.get() + "</p>"));
      Path data = tmp.resolve("data");
      var config = TestCrawl.config(data, List.of(site.url("/")), "recrawl: { interval: 0s }");

      TestCrawl.run(config);
      Map<String, JsonNode> first = TestCrawl.export(data);
      assertEquals(0, first.get(site.url("/changing")).get("change_count").asInt());
      assertTrue(first.get(site.url("/changing")).get("last_change").isNull());

      version.set(2);
      TestCrawl.run(config);
      assertEquals(2, site.count("/x/page"));
      List<String> outcomes = TestCrawl.log(data).stream()
          .filter(l -> l.get("url").asText().equals(site.url("/x/page"))).map(l -> l.get("outcome").asText()).toList();
      assertEquals(List.of("FETCHED", "FETCHED"), outcomes, "the unchanged original is not a duplicate of itself");
      assertEquals("DUPLICATE_CONTENT", TestCrawl.lastOutcome(data, site.url("/y/page")));

      Map<String, JsonNode> second = TestCrawl.export(data);
      JsonNode changing = second.get(site.url("/changing"));
      assertEquals(2, changing.get("fetch_count").asInt());
      assertEquals(1, changing.get("change_count").asInt());
      assertEquals(changing.get("fetched_at").asText(), changing.get("last_change").asText());
      JsonNode stable = second.get(site.url("/x/page"));
      assertEquals(2, stable.get("fetch_count").asInt());
      assertEquals(0, stable.get("change_count").asInt());
      assertTrue(stable.get("last_change").isNull());
      assertTrue(stable.hasNonNull("next_fetch_at"));
    }
  }

}
