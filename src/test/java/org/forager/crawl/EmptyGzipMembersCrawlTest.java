package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hostile page of one gzip member and 20,000 empty ones (review of session 66): the JDK's gzip
 * stream called itself once per empty member, the StackOverflowError ended the whole crawl before the
 * page was logged, and every resume fetched it again and stopped again. Now the page is one failed
 * decoding and the other site is crawled.
 */
@Timeout(60)
class EmptyGzipMembersCrawlTest {

  @TempDir Path tmp;

  private static byte[] gzip(byte[] content) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(content);
    }
    return bytes.toByteArray();
  }

  @Test
  void aBodyOfEmptyGzipMembersIsOnePagesFailureNotTheCrawls() throws Exception {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(gzip("<html><a href=\"/x\">x</a></html>".getBytes()));
    byte[] nothing = gzip(new byte[0]);
    for (int i = 0; i < 20_000; i++) body.write(nothing);
    byte[] hostile = body.toByteArray();
    try (TestSite bad = TestSite.start(); TestSite good = TestSite.start()) {
      bad.route("/", ex -> {
        ex.getResponseHeaders().set("Content-Encoding", "gzip");
        TestSite.respond(ex, 200, "text/html", hostile);
      });
      good.linking("/", "/a").html("/a", "<p>a</p>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(bad.url("bad.test", "/"), good.url("good.test", "/")),
          TestCrawl.pinnedToLoopback("bad.test", "good.test")));
      assertNotNull(TestCrawl.lastOutcome(data, bad.url("bad.test", "/")), "the page is logged");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, good.url("good.test", "/a")), "the other site crawled");
      TestCrawl.assertPolite(data);
    }
  }
}
