package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.forager.fetch.Outcome;
import org.forager.record.CrawlAction;
import org.forager.record.RunSummary;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crawler's own network goes down mid-crawl (here: every site stops listening at once, so every
 * connect is refused) and comes back. The crawl holds instead of spending the URLs' retries and the
 * origins' patience on it: every page is crawled in the same run, and few requests went out meanwhile.
 */
@Timeout(120)
class NetworkOutageCrawlTest {

  private static final int SITES = 10;
  private static final int PAGES = 12;
  /** How long the network stays down once the crawl holds: the scenario, not a synchronization. */
  private static final long OUTAGE_MILLIS = 6_000;

  @TempDir Path tmp;

  @Test
  void aCrawlHoldsThroughAnOutageOfItsOwnNetworkAndLosesNothing() throws Exception {
    List<TestSite> sites = new ArrayList<>();
    // Each site on an address of its own (127.0.0.2, .3, …), reached by a name pinned to it.
    StringBuilder resolve = new StringBuilder("network: { allow_private_addresses: true, resolve: { ");
    for (int i = 0; i < SITES; i++) {
      sites.add(serve(TestSite.start(address(i), 0)));
      resolve.append(i > 0 ? ", " : "").append("\"").append(host(i)).append("\": \"").append(address(i)).append('"');
    }
    resolve.append(" } }\n");
    List<Integer> ports = sites.stream().map(TestSite::port).toList();
    CountDownLatch blackout = new CountDownLatch(1);
    AtomicInteger fetched = new AtomicInteger();
    java.util.concurrent.atomic.AtomicReference<RunView> view = new java.util.concurrent.atomic.AtomicReference<>();
    CountDownLatch held = new CountDownLatch(1);
    CrawlListener listener = new CrawlListener() {
      @Override
      public void runStarted(RunView run) {
        view.set(run);
      }

      @Override
      public void action(CrawlAction action) {
        if (action.outcome() == Outcome.FETCHED && fetched.incrementAndGet() == SITES * 3) blackout.countDown();
        // Told as the failure that made it is logged: NetworkHealth decides before the line is written.
        if (action.outcome() == Outcome.NETWORK_ERROR && view.get().networkDown()) held.countDown();
      }
    };
    List<String> seeds = new ArrayList<>();
    for (int i = 0; i < SITES; i++) seeds.add(sites.get(i).url(host(i), "/"));
    Path data = tmp.resolve("data");
    RunSummary summary;
    List<TestSite> back = new ArrayList<>();
    try (Crawler crawler = Crawler.open(TestCrawl.config(data, seeds,
        "concurrency: 10\npoliteness: { min_delay: 10ms, response_time_factor: 0 }\n" + resolve)).listener(listener)
        .quiet(true)) {
      CompletableFuture<RunSummary> run = TestCrawl.runInBackground(crawler);
      assertTrue(blackout.await(60, TimeUnit.SECONDS), "the crawl got going");
      sites.forEach(TestSite::close); // the network goes down: every connect is refused
      assertTrue(held.await(60, TimeUnit.SECONDS), "the crawl holds");
      // The outage lasts: longer than a URL's retries take to run out (0.1 + 0.2 + 0.4 s of back-off),
      // and past the hold's first probe (5 s), which fails.
      Thread.sleep(OUTAGE_MILLIS);
      for (int i = 0; i < SITES; i++) back.add(serve(TestSite.start(address(i), ports.get(i)))); // and comes back
      summary = run.get(90, TimeUnit.SECONDS);
    } finally {
      back.forEach(TestSite::close);
    }
    TestCrawl.assertPolite(data);

    List<JsonNode> log = TestCrawl.log(data);
    for (int i = 0; i < SITES; i++) {
      for (int page = 0; page < PAGES; page++) {
        String url = "http://" + host(i) + ":" + ports.get(i) + "/p" + page;
        assertTrue(log.stream().anyMatch(a -> a.get("url").asText().equals(url)
            && a.get("outcome").asText().equals("FETCHED")), url + " crawled in the same run");
      }
    }
    long failures = log.stream().filter(a -> a.get("outcome").asText().equals("NETWORK_ERROR")).count();
    // Before the hold, the first refusals of each site (and the retries of some); during it, one every 5 s.
    assertTrue(failures <= 3 * SITES, failures + " requests failed: the crawl held");
    assertEquals(0, summary.count(Outcome.DNS_ERROR));
    assertTrue(summary.notes().stream().anyMatch(n -> n.startsWith("the network was down for ")), summary.notes().toString());
  }

  private static String host(int i) {
    return "h" + i + ".example.test";
  }

  private static String address(int i) {
    return "127.0.0." + (i + 2);
  }

  /** Pages p0 … p11, each linking to the next; the site's root links to p0. */
  private static TestSite serve(TestSite site) {
    site.linking("/", "/p0");
    for (int page = 0; page < PAGES; page++) {
      if (page + 1 < PAGES) site.linking("/p" + page, "/p" + (page + 1));
      else site.linking("/p" + page);
    }
    return site;
  }
}
