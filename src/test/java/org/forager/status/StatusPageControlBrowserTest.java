package org.forager.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.forager.audit.PolitenessAudit;
import org.forager.config.CrawlConfig;
import org.forager.crawl.Crawler;
import org.forager.testweb.Chromium;
import org.forager.testweb.DevToolsPage;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page's buttons in a real browser (headless Chromium over the DevTools protocol), with
 * the token of the link the crawl prints: a click on Pause pauses the crawl (the sites' servers see
 * no request after it but the one in flight), Resume goes on to every page, and a failure's Block
 * button stops all requests to its host. Skipped when no Chromium is installed.
 */
@Timeout(180)
class StatusPageControlBrowserTest {

  /** How long the absence of requests is watched: many times the crawl's delay. */
  private static final long QUIET_WINDOW_MILLIS = 400;

  @TempDir Path tmp;

  @Test
  void aClickPausesTheCrawlResumeGoesOnAndBlockStopsAHost() throws Exception {
    Optional<Path> chromium = Chromium.binary();
    if (chromium.isEmpty()) System.err.println("StatusPageControlBrowserTest skipped: " + Chromium.notFound("click"));
    Assumptions.assumeTrue(chromium.isPresent(), () -> Chromium.notFound("click the status page's buttons"));

    Gate held = new Gate(Gate.linking(pages(10)));
    try (TestSite news = TestSite.start().robots("User-agent: *\n").route("/hold", held);
        TestSite shop = TestSite.start().robots("User-agent: *\nCrawl-delay: 0.5\n");
        StatusServer status = StatusServer.start("127.0.0.1", 0)) {
      for (String page : pages(10)) {
        news.linking(page);
        shop.linking(page);
      }
      shop.linking("/", with("/broken")).route("/broken", ex -> TestSite.respond(ex, 500, "text/plain", "boom"));
      CrawlConfig config = TestCrawl.config(tmp.resolve("data"),
          List.of(news.url("news.test", "/hold"), shop.url("shop.test", "/")),
          TestCrawl.pinnedToLoopback("news.test", "shop.test")
              + "politeness: { min_delay: 20ms, max_delay: 2s, response_time_factor: 0, per_ip: { max_in_flight: 2 } }\n"
              + "limits: { fetch_timeout: 60s, max_retries: 0 }\n");
      ControlToken token = ControlToken.generate();
      try (Crawler crawler = Crawler.open(config, status::timed).listener(status.listener()).quiet(true);
          DevToolsPage page = DevToolsPage.open(chromium.get(), tmp)) {
        status.enableControl(crawler.control(), token);
        CompletableFuture<Void> run = CompletableFuture.runAsync(() -> {
          try {
            crawler.run();
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
        });
        held.awaitArrival();
        page.navigate(status.pageWithToken(token));
        page.await("document.body.dataset.updates >= 1 && !document.getElementById('pause').hidden",
            "the Pause button");
        assertEquals("", page.evaluate("location.hash"), "the token is taken out of the address bar");

        page.click("#pause");
        page.await("document.body.dataset.orders === '1'", "the answer to the click");
        long pausedAt = System.nanoTime();
        assertTrue(crawler.control().state().paused(), "the click paused the crawl");
        page.await("document.getElementById('state').textContent === 'paused'", "the state paused");
        held.open(); // the fetch in flight finishes
        while (crawler.control().state().turnsInFlight() > 0) Thread.sleep(5);
        Thread.sleep(QUIET_WINDOW_MILLIS); // watching for requests that must not come
        assertEquals(List.of(), after(news, pausedAt), "news: nothing after the pause");
        assertEquals(List.of(), after(shop, pausedAt), "shop: nothing after the pause");

        page.await("document.getElementById('pause').textContent === 'Resume'", "the Resume button");
        page.click("#pause");
        page.await("document.body.dataset.orders === '2'", "the answer to the second click");
        page.await("document.querySelector('#errors button[data-host=\"shop.test\"]') !== null",
            "the failure's Block button");
        page.click("#errors button[data-host=\"shop.test\"]");
        page.await("document.body.dataset.orders === '3'", "the answer to the block");
        long blockedAt = System.nanoTime();
        assertEquals("shop.test", crawler.control().state().blocks().get(0).host());
        run.get(60, TimeUnit.SECONDS);
        assertEquals(List.of(), after(shop, blockedAt), "shop: nothing after the block");
        for (String p : pages(10)) assertEquals(1, news.count(p), p + " of news crawled after the resume");
        page.await("document.getElementById('blocked').textContent.includes('shop.test')", "the blocked host");
      }
      List<String> orders = TestCrawl.log(tmp.resolve("data")).stream()
          .filter(l -> l.get("kind").asText().equals("control"))
          .map(l -> l.get("action").asText() + " by " + l.get("by").asText()).toList();
      assertEquals(List.of("pause by page", "resume by page", "block by page"), orders);
      TestCrawl.assertPolite(tmp.resolve("data"), new PolitenessAudit.PerIp(2, 0));
    }
  }

  private static List<String> after(TestSite site, long nanos) {
    return site.requests().stream().filter(r -> r.arrivedNanos() - nanos > 0).map(TestSite.Request::path).toList();
  }

  private static String[] pages(int n) {
    String[] pages = new String[n];
    for (int i = 0; i < n; i++) pages[i] = "/p" + i;
    return pages;
  }

  private static String[] with(String first) {
    List<String> all = new java.util.ArrayList<>(List.of(first));
    all.addAll(List.of(pages(10)));
    return all.toArray(String[]::new);
  }
}
