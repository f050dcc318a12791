package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.forager.config.CrawlConfig;
import org.forager.store.postgres.TestPostgres;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Review 6: defects of the control API's orders in the crawl. */
@Timeout(120)
class Review6ControlDefectsTest {

  private static final int CHAIN = 30;

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

  /**
   * On PostgreSQL (always leases: FleetCoordinator) a blocked origin with URLs due is claimed, its turn
   * sees the block and finishes at once (OriginCrawler.turnUnguarded: control.blocks -> finish()), and
   * FleetCoordinator.finished releases it as NothingDue; its URLs are due, so LeaseTable's NOTHING_DUE
   * sets done_until NULL and it is free for the very next claim. While any other origin keeps the
   * process busy, the blocked one is claimed, loaded and released over and over (each claim bumps the
   * lease's epoch), database round trips for nothing, and every process of a fleet does the same. The
   * embedded store's OriginWorkingSet skips blocked origins; the fleet's claim has no such skip.
   * (The run still ends, by a race: finished() asks for a claim before its release commits, and a claim
   * that skips the locked row finds nothing.)
   */
  @Test
  void aBlockedOriginIsNotClaimedOverAndOverWhileTheOthersAreCrawled() throws Exception {
    String url = postgres.freshSchema();
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      a.linking("/", "/p1");
      for (int i = 1; i <= CHAIN; i++) a.linking("/p" + i, "/p" + (i + 1));
      b.linking("/", "/b1").linking("/b1");
      CrawlConfig config = TestCrawl.config(tmp.resolve("data"), List.of(a.url("a.test", "/"), b.url("b.test", "/")),
          "store: { kind: postgres, url: \"" + url + "\" }\nscope: { mode: domains }\n"
              + "politeness: { min_delay: 50ms, max_delay: 2s, response_time_factor: 0 }\n"
              + "fleet: { lease: 3s }\nlimits: { fetch_timeout: 1s }\nrecrawl: { interval: 0s }\n"
              + TestCrawl.pinnedToLoopback("a.test", "b.test"));
      TestCrawl.run(config); // every URL known, and due again in the next run (recrawl interval 0)
      int bRequests = b.paths().size();
      long epochBefore = epoch(url, b.url("b.test", "/"));
      try (Crawler crawler = Crawler.open(config)) {
        crawler.control().block("b.test", "cli");
        crawler.run();
      }
      assertEquals(bRequests, b.paths().size(), "nothing requested of the blocked host: " + b.paths());
      long claims = epoch(url, b.url("b.test", "/")) - epochBefore;
      assertTrue(claims <= 2, "the blocked origin was claimed " + claims + " times in one run of ~"
          + (CHAIN + 2) + " pages of a.test at 50 ms");
    }
  }

  private static long epoch(String url, String originUrl) throws Exception {
    String origin = originUrl.substring(0, originUrl.length() - 1);
    try (var c = java.sql.DriverManager.getConnection(url);
        var st = c.prepareStatement("SELECT epoch FROM origin_lease WHERE origin = ?")) {
      st.setString(1, origin);
      try (var rs = st.executeQuery()) {
        assertTrue(rs.next(), "a lease row for " + origin);
        return rs.getLong(1);
      }
    }
  }
}
