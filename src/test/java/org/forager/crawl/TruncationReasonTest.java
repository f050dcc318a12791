package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

/**
 * A page cut short says why, the same way in the crawl log ({@code reason}) and in the WARC record
 * ({@code WARC-Truncated}): a body that drips until {@code fetch_timeout} was once logged TRUNCATED
 * with no reason and stored as {@code WARC-Truncated: length}.
 */
@Timeout(60)
class TruncationReasonTest {

  @TempDir Path tmp;

  @Test
  void bodyDrippingUntilTheDeadlineIsTruncatedByTimeNotLength() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.route("/", exchange -> {
        exchange.getResponseHeaders().set("Content-Type", "text/html");
        exchange.sendResponseHeaders(200, 100_000);
        OutputStream out = exchange.getResponseBody();
        try {
          for (int i = 0; i < 100_000; i++) {
            out.write('d');
            out.flush();
            Thread.sleep(50); // the drip is the server's behaviour under test, not synchronisation
          }
        } catch (IOException | InterruptedException e) {
          // The crawler hung up at its deadline, as it should.
        }
      });
      Path data = tmp.resolve("data");

      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "limits: { fetch_timeout: 1s, max_retries: 0 }"));

      JsonNode line = pageLine(data, site.url("/"));
      assertEquals("TRUNCATED", line.get("outcome").asText());
      assertEquals("deadline", line.get("reason").asText());
      assertEquals(Optional.of("time"), warcTruncated(data, site.url("/")));
    }
  }

  @Test
  void pageOverMaxPageBytesIsTruncatedByLength() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.html("/", "<p>filler</p>".repeat(20_000));
      Path data = tmp.resolve("data");

      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")),
          "limits: { fetch_timeout: 2s, max_page_bytes: 64KiB }"));

      JsonNode line = pageLine(data, site.url("/"));
      assertEquals("TRUNCATED", line.get("outcome").asText());
      assertEquals("max_page_bytes", line.get("reason").asText());
      assertEquals(Optional.of("length"), warcTruncated(data, site.url("/")));
    }
  }

  @Test
  void wholePageHasNoTruncationReason() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.html("/", "<p>whole</p>");
      Path data = tmp.resolve("data");

      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));

      JsonNode line = pageLine(data, site.url("/"));
      assertEquals("FETCHED", line.get("outcome").asText());
      assertTrue(line.path("reason").isNull() || line.path("reason").isMissingNode(), line.toString());
      assertEquals(Optional.empty(), warcTruncated(data, site.url("/")));
    }
  }

  private static JsonNode pageLine(Path data, String url) {
    return TestCrawl.log(data).stream()
        .filter(l -> l.get("kind").asText().equals("page") && l.get("url").asText().equals(url))
        .reduce((first, second) -> second).orElseThrow();
  }

  /** The WARC-Truncated field of the URL's response record, read with jwarc. */
  private static Optional<String> warcTruncated(Path data, String url) throws IOException {
    List<Optional<String>> found = new ArrayList<>();
    try (Stream<Path> files = Files.list(data.resolve("warc"))) {
      for (Path file : files.toList()) {
        try (InputStream in = Files.newInputStream(file); WarcReader reader = new WarcReader(in)) {
          for (WarcRecord record : reader) {
            if (record instanceof WarcResponse response && response.target().equals(url)) {
              found.add(response.headers().sole("WARC-Truncated"));
            }
          }
        }
      }
    }
    assertEquals(1, found.size(), "response records for " + url);
    return found.get(0);
  }
}
