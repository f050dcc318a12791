package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.forager.store.postgres.TestPostgres;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fleet (PostgreSQL store), one process: an origin finished, released, then reopened by another
 * origin's link is claimed again in the same run. Since c72ee35 the finished task is forgotten and the
 * new crawler is made with fetchRobotsFirst, so robots.txt is fetched a second time in the run (the
 * old code woke the same crawler, which kept its rules).
 */
@Timeout(120)
class ReviewFleetReclaimTest {

  @TempDir static Path serverDir;
  private static TestPostgres postgres;

  @TempDir Path tmp;

  @BeforeAll
  static void startServer() {
    postgres = TestPostgres.start(serverDir.resolve("pg"));
  }

  @AfterAll
  static void stopServer() throws Exception {
    postgres.close();
  }

  @Test
  void anOriginReclaimedInTheSameRunFetchesRobotsTxtOnlyOnce() throws Exception {
    String url = postgres.freshSchema();
    try (TestSite a = TestSite.start(); TestSite z = TestSite.start()) {
      // Whichever origin goes first, the other's page reopens it after it finished.
      a.linking("/", z.url("z.test", "/late")).linking("/late");
      z.linking("/", a.url("a.test", "/late")).linking("/late");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("a.test", "/"), z.url("z.test", "/")),
          "store: { kind: postgres, url: \"" + url + "\" }\nscope: { mode: domains }\nconcurrency: 1\n"
              + TestCrawl.pinnedToLoopback("a.test", "z.test")));

      assertEquals(List.of("/", "/late"), a.paths().stream().filter(p -> !p.equals("/robots.txt")).toList());
      assertEquals(List.of("/", "/late"), z.paths().stream().filter(p -> !p.equals("/robots.txt")).toList());
      assertEquals(1, a.count("/robots.txt") , "robots.txt once a run: " + a.paths());
      assertEquals(1, z.count("/robots.txt"), "robots.txt once a run: " + z.paths());
    }
  }
}
