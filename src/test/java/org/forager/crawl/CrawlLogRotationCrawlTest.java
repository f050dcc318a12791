package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.forager.cli.Main;
import org.forager.config.CrawlConfig;
import org.forager.record.CrawlLogFiles;
import org.forager.record.RunSummary;
import org.forager.testweb.CapturedConsole;
import org.forager.testweb.ChildCrawl;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Real crawls whose crawl log rotates by size: the parts hold every action, and the audit reads them all. */
@Timeout(120)
class CrawlLogRotationCrawlTest {

  private static final int PAGES = 40;

  @TempDir Path tmp;
  @RegisterExtension final CapturedConsole console = new CapturedConsole();

  private static void chain(TestSite site, Semaphore served) {
    for (int i = 0; i < PAGES; i++) {
      String body = "<p>page " + i + "</p>" + (i + 1 < PAGES ? "<a href=\"/p" + (i + 1) + "\">next</a>" : "");
      site.route(i == 0 ? "/" : "/p" + i, ex -> {
        TestSite.respond(ex, 200, "text/html", body);
        served.release();
      });
    }
  }

  private static List<String> logNames(Path data) throws Exception {
    try (Stream<Path> files = Files.list(data.resolve("logs"))) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("crawl")).sorted().toList();
    }
  }

  @Test
  void aCrawlRotatingItsLogBySizeKeepsEveryActionAndStaysProvablyPolite() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      Semaphore served = new Semaphore(0);
      chain(a, served);
      chain(b, served);
      Path data = tmp.resolve("data");
      CrawlConfig config = TestCrawl.config(data, List.of(a.url("/"), b.url("/")), "log: { rotate_size: 2KiB }");

      RunSummary summary = TestCrawl.run(config); // audits the log, across its parts

      List<Path> parts = CrawlLogFiles.parts(data.resolve("logs/crawl.jsonl"));
      assertTrue(parts.size() > 5, "2 KiB parts of a log of 80 pages: " + parts);
      assertTrue(logNames(data).stream().allMatch(n -> n.equals("crawl.jsonl") || n.endsWith(".jsonl.gz")),
          "every finished part is compressed, no temporary file left: " + logNames(data));
      List<JsonNode> lines = TestCrawl.log(data);
      assertEquals(summary.actions(), lines.size(), "one line per action, none lost or doubled by rotation");
      assertEquals(PAGES * 2 + 2, lines.size(), "80 pages and 2 robots.txt");

      assertEquals(0, Main.run("audit", "--data-dir", data.toString()));
      assertTrue(console.out().contains("POLITE: 82 requests to 2 origins in 82 log lines"), console.out());
    }
  }

  @Test
  void aCrawlKilledAgainAndAgainWhileRotatingResumesItsLogWhole() throws Exception {
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      Semaphore served = new Semaphore(0);
      chain(a, served);
      chain(b, served);
      Path data = tmp.resolve("data");
      Path yaml = tmp.resolve("forager.yaml");
      Files.writeString(yaml, "data_dir: \"" + data + "\"\nseeds: [ \"" + a.url("/") + "\", \"" + b.url("/") + "\" ]\n"
          + "politeness: { min_delay: 1ms, response_time_factor: 0 }\n"
          + "network: { allow_private_addresses: true }\n"
          + "sitemaps: { default_location: false }\n"
          + "log: { rotate_size: 1KiB }\n");
      for (int kill = 0; kill < 3; kill++) {
        Process child = ChildCrawl.start(yaml, tmp.resolve("child.log"));
        served.drainPermits();
        boolean progressed = served.tryAcquire(8, 60, TimeUnit.SECONDS);
        child.destroyForcibly(); // SIGKILL, perhaps in the middle of a line, a rename or a gzip
        child.waitFor();
        assertTrue(progressed, "the child crawled between kills (kill " + kill + "): "
            + Files.readString(tmp.resolve("child.log")));
      }

      TestCrawl.run(TestCrawl.config(data, List.of(a.url("/"), b.url("/")), "log: { rotate_size: 1KiB }"));

      assertTrue(logNames(data).stream().allMatch(n -> n.equals("crawl.jsonl") || n.endsWith(".jsonl.gz")),
          "what the kills left was finished at the next start: " + logNames(data));
      List<JsonNode> lines = TestCrawl.log(data); // every line, of every part, one whole JSON object
      Set<String> fetched = new HashSet<>();
      for (JsonNode line : lines) {
        if (line.get("outcome").asText().equals("FETCHED")) fetched.add(line.get("url").asText());
      }
      List<String> missing = new ArrayList<>();
      for (TestSite site : List.of(a, b)) {
        for (int i = 0; i < PAGES; i++) {
          String url = site.url(i == 0 ? "/" : "/p" + i);
          if (!fetched.contains(url)) missing.add(url);
        }
      }
      assertEquals(List.of(), missing, "every page's fetch is in the log");
      long sequences = CrawlLogFiles.parts(data.resolve("logs/crawl.jsonl")).size() - 1;
      assertTrue(sequences > 5, "the parts of four runs: " + logNames(data));
    }
  }
}
