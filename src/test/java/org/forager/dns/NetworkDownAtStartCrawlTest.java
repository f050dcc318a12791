package org.forager.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.forager.crawl.CrawlListener;
import org.forager.crawl.Crawler;
import org.forager.crawl.RunView;
import org.forager.fetch.Outcome;
import org.forager.record.CrawlAction;
import org.forager.record.RunSummary;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crawler's network is down from the crawl's start: its name server does not answer, so no
 * server ever could. The crawl holds from the start (before, every origin's robots.txt failed, the
 * origins were given up and the run ended having crawled nothing) and, the name server back, crawls
 * every page in the same run.
 */
@Timeout(120)
class NetworkDownAtStartCrawlTest {

  private static final int SITES = 4;
  private static final int PAGES = 5;
  /** How long the network stays down once the crawl holds: the scenario, not a synchronization. */
  private static final long OUTAGE_MILLIS = 6_000;

  @TempDir Path tmp;

  @Test
  void aCrawlWhoseNetworkIsDownFromTheStartHoldsAndLosesNothing() throws Exception {
    List<TestSite> sites = new ArrayList<>();
    try (TestDnsServer dns = TestDnsServer.start().silentForAll()) {
      List<String> seeds = new ArrayList<>();
      for (int i = 0; i < SITES; i++) {
        TestSite site = TestSite.start();
        sites.add(site);
        site.linking("/", "/p0");
        for (int page = 0; page < PAGES; page++) {
          if (page + 1 < PAGES) site.linking("/p" + page, "/p" + (page + 1));
          else site.linking("/p" + page);
        }
        dns.a("h" + i + ".test", 300, "127.0.0.1");
        seeds.add(site.url("h" + i + ".test", "/"));
      }
      AtomicReference<RunView> view = new AtomicReference<>();
      CountDownLatch held = new CountDownLatch(1);
      CrawlListener listener = new CrawlListener() {
        @Override
        public void runStarted(RunView run) {
          view.set(run);
        }

        @Override
        public void action(CrawlAction action) {
          if (action.outcome() == Outcome.DNS_ERROR && view.get().networkDown()) held.countDown();
        }
      };
      Path data = tmp.resolve("data");
      RunSummary summary;
      try (Crawler crawler = Crawler.open(TestCrawl.config(data, seeds,
          "concurrency: 10\npoliteness: { min_delay: 10ms, response_time_factor: 0 }\n"
              + "network: { allow_private_addresses: true, dns: { servers: [ \"127.0.0.1:" + dns.address().getPort()
              + "\" ], timeout: 1s, negative_ttl: 1s } }\nlimits: { fetch_timeout: 2s, max_retries: 2 }\n"))
          .listener(listener).quiet(true)) {
        CompletableFuture<RunSummary> run = TestCrawl.runInBackground(crawler);
        assertTrue(held.await(60, TimeUnit.SECONDS), "the crawl holds");
        Thread.sleep(OUTAGE_MILLIS); // the scenario: the network stays down past retries and a probe
        dns.answering();
        summary = run.get(90, TimeUnit.SECONDS);
      }
      TestCrawl.assertPolite(data);
      List<JsonNode> log = TestCrawl.log(data);
      for (int i = 0; i < SITES; i++) {
        for (int page = 0; page < PAGES; page++) {
          String url = sites.get(i).url("h" + i + ".test", "/p" + page);
          assertTrue(log.stream().anyMatch(a -> a.get("url").asText().equals(url)
              && a.get("outcome").asText().equals("FETCHED")), url + " crawled in the same run");
        }
      }
      assertTrue(summary.notes().stream().anyMatch(n -> n.startsWith("the network was down for ")), summary.notes().toString());
    } finally {
      sites.forEach(TestSite::close);
    }
  }
}
