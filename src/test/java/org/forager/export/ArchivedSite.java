package org.forager.export;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;

/**
 * A small site crawled twice into a data directory, so that its WARC files hold every kind of
 * record an index must handle: HTML pages with titles (one UTF-8, one gzip-encoded), a text file,
 * a redirect, a 404, robots.txt, and in the second run a 304 (a revisit record). The second run
 * starts in a later second than the first ended.
 */
final class ArchivedSite {

  /** Text only page A's body has: what a replay of it must show. */
  static final String PAGE_A_TEXT = "Hello from page A, archived by Forager";
  /** Text only the page behind an ETag has: the second crawl gets a 304 for it (a revisit record). */
  static final String PAGE_ETAG_TEXT = "Tagged page, unchanged since the first crawl";

  private ArchivedSite() {}

  /** Crawls {@code site} (routes set here) twice into {@code data}; {@code extraYaml} as for TestCrawl. */
  static void crawl(TestSite site, Path data, String extraYaml) throws InterruptedException {
    site.linking("/", "/a", "/b", "/zipped", "/plain.txt", "/moved", "/missing", "/etag");
    site.html("/a", "<!doctype html><html><head><title>Page A</title></head><body><h1>Page A</h1><p>"
        + PAGE_A_TEXT + "</p><a href=\"/b\">to B</a></body></html>");
    site.html("/b", "<!doctype html><html><head><meta charset=\"utf-8\"><title>Café B</title></head>"
        + "<body><p>Page B</p></body></html>");
    site.route("/zipped", ex -> {
      ex.getResponseHeaders().set("Content-Encoding", "gzip");
      TestSite.respond(ex, 200, "text/html; charset=utf-8",
          gzip("<html><head><title>Zipped page</title></head><body>compressed</body></html>"));
    });
    site.route("/plain.txt", ex -> TestSite.respond(ex, 200, "text/plain", "just text"));
    site.route("/moved", ex -> {
      ex.getResponseHeaders().set("Location", "/a");
      TestSite.respond(ex, 301, null, "");
    });
    site.route("/etag", ex -> {
      ex.getResponseHeaders().set("ETag", "\"v1\"");
      if ("\"v1\"".equals(ex.getRequestHeaders().getFirst("If-None-Match"))) TestSite.respond(ex, 304, null, "");
      else TestSite.respond(ex, 200, "text/html", "<html><head><title>Tagged</title></head><body>" + PAGE_ETAG_TEXT
          + "</body></html>");
    });
    var config = TestCrawl.config(data, List.of(site.url("/")), "recrawl: { interval: 0s }\n" + extraYaml);
    TestCrawl.run(config);
    untilTheNextSecond(Instant.now());
    TestCrawl.run(config);
  }

  /**
   * Returns once the clock is past {@code time}'s second, so that no capture of the second run has a
   * CDXJ timestamp (whole seconds) of the first. Replay tools key a capture by URL and that timestamp:
   * of two in one second ReplayWeb.page keeps one, the response, and the second run's revisit of
   * {@code /etag} was replayed only when the runs happened to fall in different seconds.
   */
  private static void untilTheNextSecond(Instant time) throws InterruptedException {
    long next = (time.getEpochSecond() + 1) * 1000;
    for (long left; (left = next - System.currentTimeMillis()) > 0; ) Thread.sleep(left);
  }

  private static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }
}
