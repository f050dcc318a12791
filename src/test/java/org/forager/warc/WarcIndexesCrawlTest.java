package org.forager.warc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.forager.testweb.NodeTools;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CDXJ index the crawl writes when it finishes a WARC file, from the records as it wrote them,
 * against the index read back from the same file: a real crawl of a loopback site, run twice (the
 * second run's 304 is a revisit), into small rotated files, with every kind of record and
 * Content-Type the two ways of building a line must agree on. The files are compressed by the
 * default engine (ISA-L where installed; {@link IsalWarcCrawlTest} names it and runs warcio too).
 */
@Timeout(120)
class WarcIndexesCrawlTest {

  /** What the site's home page links to: every kind of answer. */
  private static final List<String> PATHS = List.of("/page", "/upper", "/params", "/untyped", "/no-mime", "/twice",
      "/logo", "/zipped", "/moved", "/missing", "/etag", "/q?b=2&a=1");

  @TempDir Path tmp;
  private Path data;
  private int port;

  @BeforeEach
  void crawlTwice() throws Exception {
    data = tmp.resolve("data");
    try (TestSite site = TestSite.start()) {
      port = site.port();
      site.linking("/", PATHS.toArray(String[]::new));
      site.html("/page", "<!doctype html><title>Page</title><p>a page</p>");
      site.route("/upper", ex -> TestSite.respond(ex, 200, "TEXT/HTML; Charset=UTF-8", "<p>upper case</p>"));
      site.route("/params", ex -> TestSite.respond(ex, 200, "text/plain; charset=iso-8859-1; format=flowed", "plain"));
      site.route("/untyped", ex -> TestSite.respond(ex, 200, null, "no Content-Type at all"));
      site.route("/no-mime", ex -> TestSite.respond(ex, 200, "; charset=utf-8", "parameters only"));
      site.route("/twice", ex -> {
        ex.getResponseHeaders().add("Content-Type", "text/csv");
        ex.getResponseHeaders().add("content-type", "text/plain");
        TestSite.respond(ex, 200, null, "a,b\n1,2\n");
      });
      site.route("/logo", ex -> TestSite.respond(ex, 200, "image/png", png()));
      site.route("/zipped", ex -> {
        ex.getResponseHeaders().set("Content-Encoding", "gzip");
        TestSite.respond(ex, 200, "text/html", Responses.gzip("<p>zipped</p>".getBytes(UTF_8)));
      });
      site.route("/moved", ex -> {
        ex.getResponseHeaders().set("Location", "/page");
        TestSite.respond(ex, 301, null, "");
      });
      site.route("/etag", ex -> {
        ex.getResponseHeaders().set("ETag", "\"v1\"");
        if ("\"v1\"".equals(ex.getRequestHeaders().getFirst("If-None-Match"))) TestSite.respond(ex, 304, null, "");
        else TestSite.respond(ex, 200, "text/html", "<p>tagged</p>");
      });
      site.html("/q?b=2&a=1", "<p>query</p>");
      // Files of a few records each: rotation finishes files during the run, close() the last one.
      var config = TestCrawl.config(data, List.of(site.url("/")), "recrawl: { interval: 0s }\n"
          + "warc: { max_file_size: 4KiB }\n"
          + "url_query_parameters: [ { prefix: \"" + site.url("/q") + "\", allow: [ a, b ] } ]\n");
      TestCrawl.run(config);
      TestCrawl.run(config);
    }
  }

  @Test
  void theIndexWrittenAtFinishIsTheIndexReadBackByteForByte() throws IOException {
    List<String> lines = indexLines();
    assertEquals(lines.size(), TestCrawl.assertIndexesAsReadBack(data));
    assertTrue(WarcFiles.list(data.resolve("warc"), ".warc.gz").size() > 2, "rotated");
    for (String path : PATHS) assertLine(lines, path, "\"status\":\"");
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("1,0,0,127:" + port + ")/q?a=1&b=2 ")), "query sorted in the key");
    assertLine(lines, "/page", "\"mime\":\"text/html\",\"status\":\"200\"");
    assertLine(lines, "/upper", "\"mime\":\"TEXT/HTML\",\"status\":\"200\"");
    assertLine(lines, "/params", "\"mime\":\"text/plain\",\"status\":\"200\"");
    assertLine(lines, "/untyped", "\"status\":\"200\"");
    assertLine(lines, "/no-mime", "\"mime\":\"\",\"status\":\"200\"");
    assertLine(lines, "/twice", "\"mime\":\"text/csv, text/plain\"");
    assertLine(lines, "/logo", "\"mime\":\"image/png\"");
    assertLine(lines, "/moved", "\"status\":\"301\"");
    assertLine(lines, "/missing", "\"status\":\"404\"");
    assertLine(lines, "/etag", "\"status\":\"200\"");
    assertLine(lines, "/etag", "\"mime\":\"warc/revisit\",\"status\":\"304\"");
    for (String line : lines) {
      if (line.contains("/untyped\"") || line.contains("/moved\"")) assertTrue(!line.contains("\"mime\""), line);
    }
  }

  @Test
  void warcioIndexesTheFilesAsTheCrawlDid() throws Exception {
    var tools = NodeTools.find();
    Assumptions.assumeTrue(tools.isPresent(), NodeTools.notFound("compare the indexes with warcio's"));
    for (Path warc : WarcFiles.list(data.resolve("warc"), ".warc.gz")) {
      NodeTools.Result result = tools.get().runBin(Duration.ofSeconds(60), "warcio", "cdx-index", warc.toString());
      assertEquals(0, result.exitCode(), result.stderr());
      List<String> warcio = result.stdout().lines().filter(l -> !l.isBlank()).sorted().toList();
      assertEquals(warcio, Files.readAllLines(WarcIndexes.indexOf(data.resolve(WarcIndexes.DIRECTORY), warc)),
          warc.toString());
    }
  }

  private List<String> indexLines() throws IOException {
    List<String> lines = new ArrayList<>();
    for (Path index : WarcFiles.list(data.resolve(WarcIndexes.DIRECTORY), WarcIndexes.SUFFIX)) {
      lines.addAll(Files.readAllLines(index));
    }
    return lines;
  }

  /** Some line of the URL ending in {@code path} contains {@code part}. */
  private static void assertLine(List<String> lines, String path, String part) {
    assertTrue(lines.stream().anyMatch(l -> l.contains(path + "\",") && l.contains(part)),
        path + " with " + part + " in\n" + String.join("\n", lines));
  }

  /** The 8-byte PNG signature and a few bytes: a non-HTML body, never parsed. */
  private static byte[] png() {
    byte[] png = new byte[64];
    byte[] signature = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    System.arraycopy(signature, 0, png, 0, signature.length);
    return png;
  }
}
