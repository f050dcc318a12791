package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page wakes the other origins it adds URLs to, and only those (a link to a URL the store knows woke
 * its origin when that URL was added; docs/benchmarks.md, session 39): an origin whose crawl had run
 * out of work takes up the new URL in the same run.
 */
@Timeout(60)
class WakeOtherOriginsCrawlTest {

  @TempDir Path tmp;

  @Test
  void anOriginThatRanOutOfWorkCrawlsTheUrlAnotherOriginsPageAdds() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      b.linking("/", "/b1").linking("/b1").linking("/late");
      a.linking("/", "/a1").linking("/a2", b.url("/late"), b.url("/b1"));
      Path data = tmp.resolve("data");
      // a's /a1 is answered once b's last page is in the log, and links on to /a2, which a requests a
      // politeness delay later: by then b's turn has found no more work and ended. /a2 links to a URL of
      // b nobody has seen, and to one b has crawled.
      a.route("/a1", ex -> {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!logged(data, b.url("/b1")) && System.nanoTime() < deadline) LockSupport.parkNanos(1_000_000);
        TestSite.respond(ex, 200, "text/html", "<a href=\"/a2\">on</a>");
      });
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("/"), b.url("/")), ""));

      assertEquals(1, b.count("/late"), "the new URL, crawled in this run: " + b.paths());
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, b.url("/late")));
      assertEquals(1, b.count("/b1"), "the known one, once");
    }
  }

  private static boolean logged(Path data, String url) {
    Path log = data.resolve("logs").resolve("crawl.jsonl");
    try {
      return Files.exists(log) && Files.readString(log).contains("\"" + url + "\"");
    } catch (IOException e) {
      return false;
    }
  }
}
