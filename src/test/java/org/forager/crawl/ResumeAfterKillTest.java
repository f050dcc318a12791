package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.forager.store.CrawlStore;
import org.forager.store.RocksCrawlStore;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A crawl killed with SIGKILL mid-run resumes on the same data directory and loses nothing. */
@Timeout(120)
class ResumeAfterKillTest {

  private static final int ORIGINS = 3;
  private static final int PAGES = 100;

  @TempDir Path tmp;

  @Test
  void resumesAfterKillMinus9WithoutLosingAKnownUrl() throws Exception {
    List<TestSite> sites = new ArrayList<>();
    AtomicInteger pageRequests = new AtomicInteger();
    CountDownLatch halfway = new CountDownLatch(ORIGINS * PAGES / 2);
    try {
      for (int s = 0; s < ORIGINS; s++) {
        TestSite site = TestSite.start();
        sites.add(site);
        String[] links = new String[PAGES];
        for (int i = 0; i < PAGES; i++) {
          links[i] = "/p" + i;
          site.route(links[i], ex -> {
            pageRequests.incrementAndGet();
            halfway.countDown();
            TestSite.respond(ex, 200, "text/html", "<p>a page</p><a href=\"/\">home</a>");
          });
        }
        site.linking("/", links);
      }
      Path data = tmp.resolve("data");
      Path config = tmp.resolve("forager.yaml");
      StringBuilder yaml = new StringBuilder("data_dir: \"" + data + "\"\nseeds:\n");
      for (TestSite site : sites) yaml.append("  - \"").append(site.url("/")).append("\"\n");
      yaml.append("politeness: { min_delay: 5ms, response_time_factor: 0 }\n");
      yaml.append("network: { allow_private_addresses: true }\n");
      Files.writeString(config, yaml);

      Process child = org.forager.testweb.ChildCrawl.start(config, tmp.resolve("child.log"));
      assertTrue(halfway.await(60, TimeUnit.SECONDS), "the child crawled half the pages");
      child.destroyForcibly(); // SIGKILL on Linux
      child.waitFor();
      int beforeKill = pageRequests.get();
      assertTrue(beforeKill < ORIGINS * PAGES, "killed before the end (" + beforeKill + " pages)");

      try (Crawler crawler = Crawler.open(org.forager.testweb.TestCrawl.config(data,
          sites.stream().map(s -> s.url("/")).toList(), ""))) {
        crawler.run();
      }

      for (TestSite site : sites) {
        for (int i = 0; i < PAGES; i++) {
          assertTrue(site.count("/p" + i) >= 1, site.url("/p" + i) + " was crawled");
        }
      }
      int duplicates = pageRequests.get() - ORIGINS * PAGES;
      assertTrue(duplicates <= ORIGINS, "only fetches in flight at the kill are repeated, got " + duplicates);
      org.forager.testweb.TestCrawl.assertWarcFilesFinishedAndReadable(data);
      // The file the kill left open was finished by the resume, and indexed like every other.
      List<Path> warcs;
      try (var files = Files.list(data.resolve("warc"))) {
        warcs = files.filter(f -> f.getFileName().toString().endsWith(".warc.gz")).sorted().toList();
      }
      assertTrue(warcs.size() >= 2, "the killed run's file and the resume's: " + warcs);
      assertEquals(List.of(), org.forager.warc.WarcIndexes.unindexed(data.resolve("warc"), data.resolve("indexes")));
      for (Path warc : warcs) {
        Path index = org.forager.warc.WarcIndexes.indexOf(data.resolve("indexes"), warc);
        assertTrue(Files.size(index) > 0, "an index of " + warc.getFileName());
      }
      try (CrawlStore store = RocksCrawlStore.open(data.resolve("store"))) {
        assertEquals(ORIGINS * (PAGES + 1), store.urlCount(), "every known URL is still known");
        store.forEachUrl(u -> assertTrue(u.lastCrawl().isPresent(), u.url() + " was crawled"));
      }
    } finally {
      sites.forEach(TestSite::close);
    }
  }
}
