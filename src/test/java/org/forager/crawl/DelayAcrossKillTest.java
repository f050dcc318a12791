package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.forager.testweb.ChildCrawl;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A delay raised by a slow answer holds across a kill -9: the run started after it waits at least the
 * delay the killed run's last line says was in force. Before, the store held the delay of the origin's
 * robots.txt turn only, and the resumed run's first request came within a second (a new user's kill -9
 * and resume: `forager audit` found 82 violations).
 */
@Timeout(120)
class DelayAcrossKillTest {

  private static final String POLITENESS =
      "politeness: { min_delay: 10ms, max_delay: 4s, response_time_factor: 10 }\n";

  @TempDir Path tmp;

  @Test
  void aDelayRaisedJustBeforeAKillHoldsInTheResumedRun() throws Exception {
    CountDownLatch slowServed = new CountDownLatch(1);
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a");
      site.route("/a", ex -> {
        try {
          Thread.sleep(1000); // the server's own slowness: the delay becomes 10 x the mean answer, about 3 s
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        TestSite.respond(ex, 200, "text/html", "<a href=\"/b\">b</a>");
        slowServed.countDown();
      });
      site.html("/b", "<p>b</p>");
      Path data = tmp.resolve("data");
      Path config = tmp.resolve("forager.yaml");
      Files.writeString(config, "data_dir: \"" + data + "\"\nseeds: [ \"" + site.url("/") + "\" ]\n" + POLITENESS
          + "network: { allow_private_addresses: true }\nsitemaps: { default_location: false }\n");

      Process child = ChildCrawl.start(config, tmp.resolve("child.log"));
      assertTrue(slowServed.await(60, TimeUnit.SECONDS), "the child fetched the slow page");
      // Killed once the slow page's line (its delay in force, some 3 s) is in the log, well within that delay.
      awaitLine(data.resolve("logs/crawl.jsonl"), site.url("/a"));
      child.destroyForcibly(); // SIGKILL on Linux
      child.waitFor();
      assertEquals(0, site.count("/b"), "killed before the delay was over");

      try (Crawler crawler = Crawler.open(TestCrawl.config(data, List.of(site.url("/")), POLITENESS))) {
        crawler.run();
      }
      assertEquals(1, site.count("/b"), "the resumed run fetched the next page");
      TestCrawl.assertPolite(data); // the gap from the slow page to the next is its delay at least
    }
  }

  /** The same for a wait the site asked for (429 with Retry-After): the resumed run keeps it. */
  @Test
  void aRetryAfterJustBeforeAKillHoldsInTheResumedRun() throws Exception {
    CountDownLatch limited = new CountDownLatch(1);
    java.util.concurrent.atomic.AtomicInteger answers = new java.util.concurrent.atomic.AtomicInteger();
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a");
      site.route("/a", ex -> {
        if (answers.getAndIncrement() == 0) {
          ex.getResponseHeaders().add("Retry-After", "3");
          TestSite.respond(ex, 429, "text/plain", "slow down");
          limited.countDown();
        } else {
          TestSite.respond(ex, 200, "text/html", "<p>a</p>");
        }
      });
      Path data = tmp.resolve("data");
      Path config = tmp.resolve("forager.yaml");
      String politeness = "politeness: { min_delay: 10ms, max_delay: 4s, response_time_factor: 0 }\n";
      Files.writeString(config, "data_dir: \"" + data + "\"\nseeds: [ \"" + site.url("/") + "\" ]\n" + politeness
          + "network: { allow_private_addresses: true }\nsitemaps: { default_location: false }\n");

      Process child = ChildCrawl.start(config, tmp.resolve("child.log"));
      assertTrue(limited.await(60, TimeUnit.SECONDS), "the child was asked to wait");
      awaitLine(data.resolve("logs/crawl.jsonl"), site.url("/a"));
      child.destroyForcibly();
      child.waitFor();
      assertEquals(1, site.count("/a"), "killed before the wait was over");

      try (Crawler crawler = Crawler.open(TestCrawl.config(data, List.of(site.url("/")), politeness))) {
        crawler.run();
      }
      assertEquals(2, site.count("/a"), "the resumed run asked again");
      TestCrawl.assertPolite(data); // not before the 3 s the site asked for
    }
  }

  /** Waits until the crawl log (which readers see a flush later) has a line of {@code url}. */
  private static void awaitLine(Path log, String url) throws Exception {
    String field = "\"url\":\"" + url + "\"";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!Files.exists(log) || !Files.readString(log).contains(field)) {
      assertTrue(System.nanoTime() - deadline < 0, "no line of " + url + " in " + log);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
  }
}
