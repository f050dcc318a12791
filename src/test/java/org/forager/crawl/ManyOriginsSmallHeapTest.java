package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.forager.testweb.ChildCrawl;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14: 200,000 seed origins in a 128 MiB heap. A million sites were a million crawlers in the
 * heap (about 2.5 KB each), and died of OutOfMemoryError at start. Now the scope lives in the store
 * and a run holds a bounded working set: the crawl starts, crawls a real site in full while the
 * others are taken up in the slots it leaves free, and stops at its action budget, exit 0. The 199,999 other origins are loopback addresses on a port where nothing
 * listens (127.1-4.x.y:9): every request to them is refused at once, nothing leaves the machine.
 */
@Timeout(240)
class ManyOriginsSmallHeapTest {

  private static final int ORIGINS = 200_000;

  @TempDir Path tmp;

  @Test
  void twoHundredThousandSeedOriginsStartAndCrawlInA128MiBHeap() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a", "/b").linking("/a").linking("/b");
      Path seeds = tmp.resolve("seeds.txt");
      try (BufferedWriter out = Files.newBufferedWriter(seeds)) {
        // The real site sorts first (127.0.0.1 before 127.1.*): its origin is in the first page of the scope.
        out.write(site.url("/") + "\n");
        for (int i = 1; i < ORIGINS; i++) {
          out.write("http://127." + (1 + i / 62_500) + "." + (i / 250 % 250) + "." + (i % 250 + 1) + ":9/\n");
        }
      }
      Path data = tmp.resolve("data");
      Path config = Files.writeString(tmp.resolve("crawl.yaml"), """
          user_agent: "ForagerBot/0.1 (+https://example.org/bot)"
          data_dir: "%s"
          max_actions: 6000
          sitemaps: { default_location: false }
          concurrency: 64
          politeness: { min_delay: 20ms, max_delay: 2s, response_time_factor: 0 }
          limits: { fetch_timeout: 2s, max_retries: 0 }
          network: { allow_private_addresses: true }
          """.formatted(data));
      Path out = tmp.resolve("crawl.out");
      Process crawl = ChildCrawl.builder(List.of("-Xmx128m"), config, "--quiet", "--seeds-file", seeds.toString())
          .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile())).start();
      assertTrue(crawl.waitFor(200, TimeUnit.SECONDS), "the crawl ended");
      String output = Files.readString(out);
      assertEquals(0, crawl.exitValue(), output);
      assertFalse(output.contains("OutOfMemoryError") || output.contains("out of memory"), output);
      // The origins not started yet (priority 0) fill the slots the real site's pages leave free.
      assertEquals(List.of("/robots.txt", "/", "/a", "/b"), site.paths(), "the real site, crawled in full");
      assertEquals(6000, TestCrawl.log(data).size(), "the action budget, spent");
      TestCrawl.assertPolite(data);
    }
  }
}
