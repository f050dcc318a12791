package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The export after a recrawl: a 304 confirms the body fetched before, so the page keeps its content
 * type, digest, canonical and robots meta (they once read null, and {@code noindex} false, after every
 * unchanged recrawl: a search index built from the export would have indexed a noindex page); the
 * validators are the ones the next conditional GET sends, kept through a failure.
 */
@Timeout(60)
class ExportAfterRecrawlTest {

  @TempDir Path tmp;

  @Test
  void anUnchangedRecrawlKeepsTheBodysFieldsAndAFailureKeepsTheValidators() throws Exception {
    String page = "<!doctype html><html><head><meta name=\"robots\" content=\"noindex\">"
        + "<link rel=\"canonical\" href=\"/page\"></head><body><p>kept as it was</p></body></html>";
    AtomicInteger status = new AtomicInteger(200);
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/page");
      site.route("/page", ex -> {
        ex.getResponseHeaders().set("ETag", "\"v1\"");
        if (status.get() != 200) {
          TestSite.respond(ex, status.get(), "text/plain", "down for maintenance");
        } else if ("\"v1\"".equals(ex.getRequestHeaders().getFirst("If-None-Match"))) {
          TestSite.respond(ex, 304, null, new byte[0]);
        } else {
          TestSite.respond(ex, 200, "text/html; charset=utf-8", page);
        }
      });
      Path data = tmp.resolve("data");
      var config = TestCrawl.config(data, List.of(site.url("/")), "recrawl: { interval: 0s }");
      String url = site.url("/page");

      TestCrawl.run(config);
      JsonNode first = TestCrawl.export(data).get(url);
      assertEquals("NOINDEX", first.get("last_outcome").asText());
      assertTrue(first.get("noindex").asBoolean());

      TestCrawl.run(config);
      JsonNode unchanged = TestCrawl.export(data).get(url);
      assertEquals("NOT_MODIFIED", unchanged.get("last_outcome").asText());
      assertEquals(304, unchanged.get("http_status").asInt());
      assertEquals("fetched", unchanged.get("state").asText());
      assertTrue(unchanged.get("noindex").asBoolean(), "the 304 confirmed a noindex page");
      assertEquals(first.get("digest").asText(), unchanged.get("digest").asText());
      assertEquals("text/html; charset=utf-8", unchanged.get("content_type").asText());
      assertEquals(first.get("content_length").asInt(), unchanged.get("content_length").asInt());
      assertEquals(url, unchanged.get("canonical").asText());
      assertEquals("\"v1\"", unchanged.get("etag").asText());
      assertEquals(0, unchanged.get("change_count").asInt());
      assertFalse(unchanged.get("fetched_at").asText().equals(first.get("fetched_at").asText()));

      status.set(500);
      TestCrawl.run(config);
      JsonNode failed = TestCrawl.export(data).get(url);
      assertEquals("failed", failed.get("state").asText());
      assertEquals(500, failed.get("http_status").asInt());
      assertEquals("\"v1\"", failed.get("etag").asText(), "the validators the next conditional GET sends");
      assertFalse(failed.get("noindex").asBoolean(), "a failure's fields are its own response's");
    }
  }
}
