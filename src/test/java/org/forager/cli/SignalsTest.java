package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.forager.testweb.ChildCrawl;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** SIGTERM stops a crawl gracefully; a second one stops it at once; either way it resumes. */
@Timeout(120)
class SignalsTest {

  @TempDir Path tmp;

  private Process crawl(Path config) throws Exception {
    return ChildCrawl.start(config, tmp.resolve("child.log"), "--quiet");
  }

  private Path config(TestSite site, Path data) throws Exception {
    Path config = tmp.resolve("forager.yaml");
    Files.writeString(config, "data_dir: \"" + data + "\"\nseeds: [ \"" + site.url("/") + "\" ]\n"
        + "politeness: { min_delay: 50ms, response_time_factor: 0 }\n"
        + "network: { allow_private_addresses: true }\nsitemaps: { default_location: false }\n");
    return config;
  }

  @Test
  void sigtermFinishesTheFetchInFlightClosesTheOutputsAndPrintsTheSummary() throws Exception {
    CountDownLatch third = new CountDownLatch(3);
    try (TestSite site = TestSite.start()) {
      String[] links = new String[40];
      for (int i = 0; i < links.length; i++) {
        links[i] = "/p" + i;
        site.route(links[i], ex -> {
          third.countDown();
          TestSite.respond(ex, 200, "text/html", "<p>page</p>");
        });
      }
      site.linking("/", links);
      Path data = tmp.resolve("data");
      Process child = crawl(config(site, data));
      assertTrue(third.await(60, TimeUnit.SECONDS));
      child.destroy(); // SIGTERM
      assertTrue(child.waitFor(30, TimeUnit.SECONDS), "stopped");
      assertEquals(4, child.exitValue(), "stopped before it finished: not what a finished crawl exits with");
      String output = Files.readString(tmp.resolve("child.log"));
      assertTrue(output.contains("forager: stopped before the crawl finished (exit status 4); run again to resume"),
          output);
      assertTrue(output.contains("stopping after the fetches in flight") && output.contains("TOTAL"), output);
      try (var files = Files.list(data.resolve("warc"))) {
        assertTrue(files.allMatch(f -> f.toString().endsWith(".warc.gz")), "WARC files finished");
      }
      assertTrue(site.paths().size() < 42, "stopped before the end");
      TestCrawl.assertPolite(data);
    }
  }

  @Test
  void aSecondSignalStopsAtOnceAndTheCrawlStillResumes() throws Exception {
    CountDownLatch hanging = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/hang", "/after").html("/after", "<p>after</p>").route("/hang", ex -> {
        hanging.countDown();
        try {
          release.await(60, TimeUnit.SECONDS); // a fetch that will not finish soon
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        TestSite.respond(ex, 200, "text/html", "<p>finally</p>");
      });
      Path data = tmp.resolve("data");
      Path config = config(site, data);
      Process child = ChildCrawl.builder(config, "--quiet").start();
      var output = new java.io.BufferedReader(new java.io.InputStreamReader(child.getInputStream()));
      assertTrue(hanging.await(60, TimeUnit.SECONDS));
      child.toHandle().destroy(); // SIGTERM, leaving our end of its output open
      // The graceful stop waits for /hang; once the child says it is stopping, the second signal must not.
      String line;
      while ((line = output.readLine()) != null && !line.contains("stopping after")) { }
      Thread.ofPlatform().daemon().start(() -> output.lines().forEach(l -> { }));
      child.toHandle().destroy();
      assertTrue(child.waitFor(20, TimeUnit.SECONDS), "stopped at once");
      assertEquals(130, child.exitValue());
      release.countDown();

      Process again = crawl(config);
      assertTrue(again.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, again.exitValue(), Files.readString(tmp.resolve("child.log")));
      assertTrue(site.count("/hang") >= 1 && site.count("/after") == 1, site.paths().toString());
    }
  }
}
