package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
      CountDownLatch bFinished = new CountDownLatch(1);
      b.linking("/", "/b1").linking("/late");
      b.route("/b1", ex -> {
        TestSite.respond(ex, 200, "text/html", "<p>the last page b links to</p>");
        bFinished.countDown();
      });
      a.linking("/", "/a1");
      // /a1 links to a URL of b nobody has seen, and to one b has crawled. It is answered once b has
      // answered its last page, and a little after: by then b's turn has found no more work and ended
      // (a slow page, so that the wake finds b waiting for work rather than in its turn, which it
      // would also take up).
      a.route("/a1", ex -> {
        try {
          assertTrue(bFinished.await(30, TimeUnit.SECONDS), "b's last page was requested");
          Thread.sleep(300);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        TestSite.respond(ex, 200, "text/html",
            "<a href=\"" + b.url("/late") + "\">new</a> <a href=\"" + b.url("/b1") + "\">known</a>");
      });
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("/"), b.url("/")), ""));

      assertEquals(1, b.count("/late"), "the new URL, crawled in this run: " + b.paths());
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, b.url("/late")));
      assertEquals(1, b.count("/b1"), "the known one, once");
    }
  }
}
