package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.forager.fetch.Outcome;
import org.forager.record.RunSummary;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRevisit;

/** Crawl, change some pages, recrawl: 304s for what did not change, fresh content for what did. */
@Timeout(60)
class FreshnessTest {

  @TempDir Path tmp;

  @Test
  void theSecondRunGets304sForUnchangedPagesAndNewContentAndLinksForChangedOnes() throws Exception {
    AtomicInteger version = new AtomicInteger(1);
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/stable", "/changing");
      site.route("/stable", ex -> {
        if ("\"s1\"".equals(ex.getRequestHeaders().getFirst("If-None-Match"))) {
          TestSite.respond(ex, 304, null, new byte[0]);
          return;
        }
        ex.getResponseHeaders().set("ETag", "\"s1\"");
        TestSite.respond(ex, 200, "text/html", "<p>never changes</p>");
      });
      site.route("/changing", ex -> {
        String etag = "\"c" + version.get() + "\"";
        if (etag.equals(ex.getRequestHeaders().getFirst("If-None-Match"))) {
          TestSite.respond(ex, 304, null, new byte[0]);
          return;
        }
        ex.getResponseHeaders().set("ETag", etag);
        String links = version.get() == 1 ? "" : "<a href=\"/new\">new</a>";
        TestSite.respond(ex, 200, "text/html", "<p>version " + version.get() + "</p>" + links);
      });
      site.html("/new", "<p>new page</p>");
      Path data = tmp.resolve("data");
      var config = TestCrawl.config(data, List.of(site.url("/")), "recrawl: { interval: 0s }");

      TestCrawl.run(config);
      String firstDigest = digestOf(data, site.url("/changing"));
      version.set(2);
      RunSummary second = TestCrawl.run(config);

      List<JsonNode> log = TestCrawl.log(data);
      assertEquals(List.of("FETCHED", "NOT_MODIFIED"), outcomes(log, site.url("/stable")));
      assertEquals(List.of("FETCHED", "FETCHED"), outcomes(log, site.url("/changing")));
      assertNotEquals(firstDigest, digestOf(data, site.url("/changing")), "the changed content was stored");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, site.url("/new")), "the changed page's new link");
      assertTrue(second.count(Outcome.NOT_MODIFIED) >= 1);
      assertEquals(1, revisits(data), "a 304 is a revisit record in the WARC");
      // The summary tells recrawls from first fetches, and a changed body from the same one (/, /stable, /changing).
      String rendered = second.render(java.time.Duration.ofSeconds(1));
      assertTrue(rendered.matches("(?s).*\\Rof them recrawled +3 \\(1 changed, 2 unchanged\\)\\R.*"), rendered);
    }
  }

  private static List<String> outcomes(List<JsonNode> log, String url) {
    return log.stream().filter(l -> l.get("url").asText().equals(url)).map(l -> l.get("outcome").asText()).toList();
  }

  private static String digestOf(Path data, String url) {
    String digest = null;
    for (JsonNode l : TestCrawl.log(data)) {
      if (l.get("url").asText().equals(url) && l.hasNonNull("digest")) digest = l.get("digest").asText();
    }
    return digest;
  }

  private static int revisits(Path data) throws Exception {
    List<WarcRecord> found = new ArrayList<>();
    try (Stream<Path> files = Files.list(data.resolve("warc"))) {
      for (Path file : files.toList()) {
        try (InputStream in = Files.newInputStream(file); WarcReader reader = new WarcReader(in)) {
          for (WarcRecord record : reader) if (record instanceof WarcRevisit) found.add(record);
        }
      }
    }
    return found.size();
  }
}
