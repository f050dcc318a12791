package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.forager.config.CrawlConfig;
import org.forager.fetch.FetchRequest;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Fetcher;
import org.forager.fetch.HttpFetcher;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * with early requests on, a fetcher given through Crawler.builder().fetcher (an embedder's
 * HTTP stack, a proxy client, a wrapper) takes Fetcher's default gated fetch, which enters the page
 * gate before the request and holds it for the whole network wait: the crawl's requests in flight are
 * capped at the gate's permits (8 a core), whatever the concurrency.
 */
@Timeout(120)
class EmbedderFetcherGateTest {

  @TempDir Path tmp;

  @Test
  void aWrappedFetcherStillHasMoreRequestsInFlightThanTheGateHasPermits() throws Exception {
    int sites = PageGate.PERMITS_PER_CORE * Runtime.getRuntime().availableProcessors() + 4;
    CountDownLatch allInFlight = new CountDownLatch(sites);
    java.util.concurrent.atomic.AtomicBoolean waitedInVain = new java.util.concurrent.atomic.AtomicBoolean();
    List<TestSite> started = new ArrayList<>();
    try {
      List<String> seeds = new ArrayList<>();
      for (int i = 0; i < sites; i++) {
        TestSite site = TestSite.start();
        site.robots("User-agent: *\nAllow: /\n");
        site.route("/", ex -> {
          allInFlight.countDown();
          try {
            if (!allInFlight.await(10, TimeUnit.SECONDS)) waitedInVain.set(true); // a bound, not a synchronisation
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          TestSite.respond(ex, 200, "text/html", "<p>slow</p>");
        });
        started.add(site);
        seeds.add(site.url("/"));
      }
      CrawlConfig config = TestCrawl.config(tmp.resolve("data"), seeds, "concurrency: " + (sites + 1) + "\n"
          + "politeness: { min_delay: 0s, max_delay: 2s, response_time_factor: 0, per_ip: { max_in_flight: "
          + (sites + 1) + " } }\n"
          + "limits: { fetch_timeout: 30s, max_retries: 0 }\n"
          + "network: { allow_private_addresses: true, early_requests: always }\n");
      Fetcher http = new HttpFetcher(HttpFetcher.Options.from(config, HttpFetcher.Options.dnsCache(config)));
      Fetcher wrapper = new Fetcher() { // e.g. one that logs or counts
        @Override
        public FetchResult fetch(FetchRequest request) {
          return http.fetch(request);
        }

        @Override
        public void close() {
          http.close();
        }
      };
      try (Crawler crawler = Crawler.builder(config).fetcher(wrapper).open()) {
        crawler.quiet(true).run();
      }
      assertEquals(false, waitedInVain.get(), "the requests of the " + sites + " sites were never all in flight at once");
    } finally {
      started.forEach(TestSite::close);
    }
  }
}
