package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.forager.config.CrawlConfig;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Review of the agenda (issue 14, commits 17b1f5c..7af18ec): what a user running crawls relies on. */
@Timeout(120)
class Review5AgendaDefectsTest {

  @TempDir Path tmp;

  /** A clock the test moves: the run's time passes as the site serves pages. */
  private static final class MovableClock extends Clock {
    final AtomicReference<Instant> now;

    MovableClock(Instant start) {
      now = new AtomicReference<>(start);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now.get();
    }
  }

  /**
   * A daily cron job with the default {@code sitemaps.reread_after} (1d): run 1 starts at T0 and the
   * origin leaves the working set ten minutes into it; run 2 starts a day and five minutes after run
   * 1 did. The origin's sitemaps were last read more than a day before, so run 2 reads them again
   * (before the agenda, every run did). With the agenda the origin's entry is at (the time it left) +
   * 1d, after run 2's cutoff (its start): a daily crawl reads sitemaps every other day.
   */
  @Test
  void aDailyRunReadsSitemapsDailyWithTheDefaultRereadAfter() throws Exception {
    try (TestSite site = TestSite.start()) {
      String host = "daily.test";
      Instant t0 = Instant.now().truncatedTo(ChronoUnit.SECONDS);
      MovableClock clock = new MovableClock(t0);
      site.robots("User-agent: *\nAllow: /\nSitemap: " + site.url(host, "/sitemap.txt") + "\n")
          .route("/sitemap.txt", ex -> TestSite.respond(ex, 200, "text/plain", site.url(host, "/a") + "\n"))
          .linking("/")
          .route("/a", ex -> {
            clock.now.set(t0.plus(Duration.ofMinutes(10))); // the run has been going ten minutes
            TestSite.respond(ex, 200, "text/html", "<html><body>a</body></html>");
          });
      Path data = tmp.resolve("data");
      CrawlConfig config = TestCrawl.config(data, List.of(site.url(host, "/")),
          "limits: { fetch_timeout: 2s, max_retries: 2 }\nrecrawl: { interval: 30d }\n"
              + "sitemaps: { default_location: false }\n" + TestCrawl.pinnedToLoopback(host));
      try (Crawler crawler = Crawler.open(config, clock)) {
        crawler.quiet(true).run();
      }
      assertEquals(List.of("/robots.txt", "/sitemap.txt", "/", "/a"), site.paths());

      clock.now.set(t0.plus(Duration.ofDays(1)).plus(Duration.ofMinutes(5)));
      try (Crawler crawler = Crawler.open(config, clock)) {
        crawler.quiet(true).run();
      }
      List<String> second = site.paths().subList(4, site.paths().size());
      assertEquals(true, second.contains("/sitemap.txt"),
          "a day and five minutes after the last run its sitemap is read again: " + second);
    }
  }

  /**
   * Continuous mode: a turn that fails unexpectedly stops that origin ("that origin stops for this
   * run") without settling its agenda entry, so every later pass of the agenda (one per entry coming
   * due: here each second, as another origin's page is due every second) takes it up again and it
   * fails again; 20 within a minute stop the whole crawl. Before the agenda it stayed stopped until a
   * link woke it. The failure is a bug met outside any URL's step (which would be that URL's failure
   * alone): the store's read of the origin's due URLs throws.
   */
  @Test
  void aContinuousCrawlDoesNotRetakeAnOriginWhoseTurnFailedAtEveryPass() throws Exception {
    java.util.concurrent.atomic.AtomicInteger failures = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.CountDownLatch fetches = new java.util.concurrent.CountDownLatch(6);
    try (TestSite site = TestSite.start()) {
      site.route("/", ex -> {
        TestSite.respond(ex, 200, "text/html", "<p>changes " + System.nanoTime() + "</p>");
        if (ex.getRequestHeaders().getFirst("Host").startsWith("good.test")) fetches.countDown();
      });
      Path data = tmp.resolve("data");
      CrawlConfig config = TestCrawl.config(data, List.of(site.url("good.test", "/"), site.url("bad.test", "/")),
          "recrawl: { interval: 1s }\n" + TestCrawl.pinnedToLoopback("good.test", "bad.test"));
      java.util.function.UnaryOperator<org.forager.store.CrawlStore> buggyDueRead = store ->
          (org.forager.store.CrawlStore) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
              new Class<?>[] {org.forager.store.CrawlStore.class}, (proxy, method, args) -> {
                if (method.getName().equals("due") && args[0].toString().contains("bad.test")) {
                  failures.incrementAndGet();
                  throw new IllegalStateException("a bug met on this origin's URLs");
                }
                try {
                  return method.invoke(store, args);
                } catch (java.lang.reflect.InvocationTargetException e) {
                  throw e.getCause();
                }
              });
      try (Crawler crawler = Crawler.open(config, buggyDueRead).quiet(true).continuous(true)) {
        Thread run = Thread.ofPlatform().start(() -> {
          try {
            crawler.run();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
        boolean recrawled = fetches.await(30, java.util.concurrent.TimeUnit.SECONDS);
        crawler.stop();
        run.join(10_000);
        assertEquals(true, recrawled, "good.test recrawled every second");
        assertEquals(java.util.Optional.empty(), crawler.fatalError());
        assertEquals(1, failures.get(), "bad.test stopped for this run after its failure, taken up "
            + failures.get() + " times in " + crawler.unexpectedErrors() + " unexpected errors");
      }
    }
  }
}
