package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.forager.testweb.ChildCrawl;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.forager.testweb.ZstdWarcs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcResponse;

/**
 * A crawl writing {@code .warc.zst} killed with SIGKILL mid-run: the next run finishes the file left
 * {@code .open} (cut after its last whole frame) and every file reads record by record with jwarc.
 */
@Timeout(120)
class ZstdResumeAfterKillTest {

  private static final int PAGES = 150;

  @TempDir Path tmp;

  @Test
  void aZstdWarcFileLeftOpenByAKillIsFinishedOnResumeAndReadable() throws Exception {
    CountDownLatch halfway = new CountDownLatch(PAGES / 2);
    try (TestSite site = TestSite.start()) {
      String[] links = new String[PAGES];
      for (int i = 0; i < PAGES; i++) {
        links[i] = "/p" + i;
        site.route(links[i], ex -> {
          halfway.countDown();
          TestSite.respond(ex, 200, "text/html", "<p>a page</p>".repeat(200));
        });
      }
      site.linking("/", links);
      Path data = tmp.resolve("data");
      Path config = tmp.resolve("forager.yaml");
      Files.writeString(config, "data_dir: \"" + data + "\"\nseeds: [ \"" + site.url("/") + "\" ]\n"
          + "politeness: { min_delay: 5ms, response_time_factor: 0 }\nnetwork: { allow_private_addresses: true }\n"
          + "warc: { compression: zstd }\n");

      Process child = ChildCrawl.start(config, tmp.resolve("child.log"));
      assertTrue(halfway.await(60, TimeUnit.SECONDS), "the child crawled half the pages");
      child.destroyForcibly(); // SIGKILL on Linux
      child.waitFor();
      assertTrue(names(data).stream().anyMatch(n -> n.endsWith(".warc.zst.open")), "the kill left a file open");

      try (Crawler crawler = Crawler.open(TestCrawl.config(data, List.of(site.url("/")), "warc: { compression: zstd }"))) {
        crawler.run();
      }

      Set<String> stored = new HashSet<>();
      for (String name : names(data)) {
        assertTrue(name.endsWith(".warc.zst"), "finished: " + name);
        ZstdWarcs.eachRecord(data.resolve("warc").resolve(name), (record, offset) -> {
          if (record instanceof WarcResponse r) stored.add(r.target());
          return record.type();
        });
      }
      for (String link : links) assertTrue(stored.contains(site.url(link)), site.url(link) + " is in a WARC file");
      assertTrue(stored.contains(site.url("/")) && stored.contains(site.url("/robots.txt")), "/ and robots.txt too");
    }
  }

  private static List<String> names(Path data) throws Exception {
    try (Stream<Path> files = Files.list(data.resolve("warc"))) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
