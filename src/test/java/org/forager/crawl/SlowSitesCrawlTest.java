package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slow servers hold no place in the page gate ({@link PageGate}): more sites than the gate has
 * permits send half of a page and wait, and a fast site is crawled meanwhile. Had their fetches kept
 * their permits while waiting for the rest, no page of the fast site could have been processed, and
 * the slow pages would have ended cut at the fetch's deadline.
 */
@Timeout(120)
class SlowSitesCrawlTest {

  @TempDir Path tmp;

  @Test
  void sitesSlowToSendTheirPagesDoNotHoldUpTheOthers() throws Exception {
    int slowSites = PageGate.PERMITS_PER_CORE * Runtime.getRuntime().availableProcessors() + 4;
    CountDownLatch fastSiteCrawled = new CountDownLatch(1);
    String page = "<html><body>" + "<p>slow words</p>".repeat(200) + "</body></html>";
    byte[] body = page.getBytes(StandardCharsets.UTF_8);
    List<TestSite> sites = new ArrayList<>();
    try {
      List<String> seeds = new ArrayList<>();
      for (int i = 0; i < slowSites; i++) {
        TestSite slow = TestSite.start();
        slow.robots("User-agent: *\nAllow: /\n");
        slow.route("/", ex -> {
          ex.getResponseHeaders().set("Content-Type", "text/html");
          ex.sendResponseHeaders(200, body.length);
          try (OutputStream out = ex.getResponseBody()) {
            out.write(body, 0, body.length / 2);
            out.flush();
            // The rest once the fast site is done; if it never is, the page ends cut (the connection
            // closes short of its length), and the test fails.
            if (!fastSiteCrawled.await(10, TimeUnit.SECONDS)) return;
            out.write(body, body.length / 2, body.length - body.length / 2);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
        sites.add(slow);
        seeds.add(slow.url("/"));
      }
      TestSite fast = TestSite.start();
      fast.robots("User-agent: *\nAllow: /\n");
      fast.linking("/", "/1", "/2", "/3", "/4", "/5");
      for (int i = 1; i <= 4; i++) fast.html("/" + i, "<p>page " + i + "</p>");
      fast.route("/5", ex -> {
        fastSiteCrawled.countDown();
        TestSite.respond(ex, 200, "text/html", "<p>the last page</p>");
      });
      sites.add(fast);
      seeds.add(fast.url("/"));
      Path data = tmp.resolve("data");

      TestCrawl.run(TestCrawl.config(data, seeds, "concurrency: " + (slowSites + 1) + "\n"
          + "politeness: { min_delay: 0s, max_delay: 2s, response_time_factor: 0, per_ip: { max_in_flight: "
          + (slowSites + 1) + " } }\n"
          + "limits: { fetch_timeout: 30s, max_retries: 0 }\n"
          + "network: { allow_private_addresses: true, early_requests: always }\n"));

      assertEquals(0, fastSiteCrawled.getCount(), "the fast site's last page was requested");
      for (int i = 0; i < slowSites; i++) {
        assertEquals("FETCHED", TestCrawl.lastOutcome(data, sites.get(i).url("/")), "slow site " + i);
      }
      for (int i = 1; i <= 5; i++) assertEquals("FETCHED", TestCrawl.lastOutcome(data, fast.url("/" + i)));
      assertTrue(fast.count("/5") == 1);
    } finally {
      sites.forEach(TestSite::close);
    }
  }
}
