package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.forager.store.CrawlStore;
import org.forager.store.RocksCrawlStore;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crawl killed with SIGKILL again and again, at moments chosen by a seeded random count of
 * requests, still completes: no known URL lost, every WARC file readable, every log line whole,
 * and repeated fetches bounded by what was in flight at each kill.
 */
@Timeout(300)
class CrashLoopTest {

  private static final int ORIGINS = 3;
  private static final int PAGES = 150;
  private static final int KILLS = 20;

  @TempDir Path tmp;

  @Test
  void survivesTwentyKillsAndCompletes() throws Exception {
    List<TestSite> sites = new ArrayList<>();
    AtomicInteger pageRequests = new AtomicInteger();
    Semaphore served = new Semaphore(0);
    try {
      for (int s = 0; s < ORIGINS; s++) {
        TestSite site = TestSite.start();
        sites.add(site);
        for (int i = 0; i < PAGES; i++) {
          // Home links to every page; each page back home and to the next: shallow, many links.
          StringBuilder html = new StringBuilder("<p>page " + i + "</p><a href=\"/\">home</a>");
          if (i == 0) for (int j = 1; j < PAGES; j++) html.append("<a href=\"/p").append(j).append("\">").append(j).append("</a>");
          else if (i + 1 < PAGES) html.append("<a href=\"/p").append(i + 1).append("\">next</a>");
          String body = html.toString();
          site.route(i == 0 ? "/" : "/p" + i, ex -> {
            pageRequests.incrementAndGet();
            TestSite.respond(ex, 200, "text/html", body);
            served.release();
          });
        }
      }
      Path data = tmp.resolve("data");
      Path config = tmp.resolve("forager.yaml");
      StringBuilder yaml = new StringBuilder("data_dir: \"" + data + "\"\nseeds:\n");
      for (TestSite site : sites) yaml.append("  - \"").append(site.url("/")).append("\"\n");
      yaml.append("politeness: { min_delay: 1ms, response_time_factor: 0 }\n");
      yaml.append("network: { allow_private_addresses: true }\n");
      Files.writeString(config, yaml);

      Random random = new Random(20261121);
      int kills = 0;
      while (kills < KILLS) {
        Process child = org.forager.testweb.ChildCrawl.start(config, tmp.resolve("child.log"));
        served.drainPermits();
        int wait = 1 + random.nextInt(25);
        boolean progressed = served.tryAcquire(wait, 60, TimeUnit.SECONDS);
        child.destroyForcibly(); // SIGKILL
        child.waitFor();
        assertTrue(progressed, "the child crawled between kills (kill " + kills + ")");
        kills++;
      }
      assertTrue(pageRequests.get() < ORIGINS * PAGES, "the kills came before the end");

      try (Crawler crawler = Crawler.open(TestCrawl.config(data, sites.stream().map(s -> s.url("/")).toList(), ""))) {
        crawler.run();
      }

      for (TestSite site : sites) {
        assertTrue(site.count("/") >= 1);
        for (int i = 1; i < PAGES; i++) assertTrue(site.count("/p" + i) >= 1, site.url("/p" + i) + " crawled");
      }
      int repeated = pageRequests.get() - ORIGINS * PAGES;
      assertTrue(repeated <= KILLS * ORIGINS, "at most one repeated fetch per origin per kill, got " + repeated);
      try (CrawlStore store = RocksCrawlStore.open(data.resolve("store"))) {
        assertEquals(ORIGINS * PAGES, store.urlCount());
        store.forEachUrl(u -> assertTrue(u.lastCrawl().isPresent(), u.url() + " was crawled"));
      }
      TestCrawl.assertWarcFilesFinishedAndReadable(data);
      ObjectMapper json = new ObjectMapper();
      for (String line : Files.readAllLines(data.resolve("logs/crawl.jsonl"))) json.readTree(line);
    } finally {
      sites.forEach(TestSite::close);
    }
  }
}
