package org.forager.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.Outcome;
import org.forager.store.Candidate;
import org.forager.store.CrawlRecord;
import org.forager.store.StoreUnavailableException;
import org.forager.url.Origin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PostgreSQL server stopped and started again under an open store (issue 16, item 3): calls
 * while it is down fail as unavailable, in one line, and the same store works again once it is back,
 * with everything committed before the outage kept.
 */
@Timeout(120)
class PostgresCrawlStoreOutageTest {

  private static final Instant T0 = Instant.parse("2026-11-24T00:00:00Z");

  @TempDir
  static Path serverDir;

  private static TestPostgres postgres;

  @BeforeAll
  static void startServer() {
    postgres = TestPostgres.startRestartable(serverDir.resolve("pgdata"));
  }

  @AfterAll
  static void stopServer() throws IOException {
    postgres.close();
  }

  @Test
  void aStoppedServerIsUnavailableAndTheSameStoreCarriesOnOnceItIsBack() throws Exception {
    String url = postgres.freshSchema();
    Origin a = Origin.ofUrl("https://a.example");
    try (PostgresCrawlStore store = PostgresCrawlStore.open(url, 2)) {
      store.addScope(List.of(a));
      store.addCandidates(List.of(Candidate.seed("https://a.example/"), Candidate.seed("https://a.example/2")));
      store.record(crawl("https://a.example/"), List.of());

      postgres.stop();
      StoreUnavailableException write = assertThrows(StoreUnavailableException.class,
          () -> store.record(crawl("https://a.example/2"), List.of()));
      StoreUnavailableException read = assertThrows(StoreUnavailableException.class,
          () -> store.due(a, T0, 10));
      for (StoreUnavailableException e : List.of(write, read)) {
        assertTrue(e.getMessage().startsWith("crawl database jdbc:postgresql://127.0.0.1:"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
      }

      postgres.restart();
      // The pool replaces the connections the shutdown cut off; nothing committed before is lost.
      assertEquals(1, store.url("https://a.example/").orElseThrow().fetchCount());
      store.record(crawl("https://a.example/2"), List.of(new Candidate("https://a.example/3", 1,
          Optional.of("https://a.example/2"))));
      assertEquals(1, store.url("https://a.example/2").orElseThrow().fetchCount());
      assertEquals(3, store.urlCount());
    }
  }

  private static CrawlRecord crawl(String url) {
    return new CrawlRecord(url, T0, Outcome.FETCHED, 200, 5, Optional.of("text/html"), 100, Optional.empty(),
        Optional.empty(), Optional.empty(), false, false, Optional.empty(), Optional.empty(),
        T0.plus(Duration.ofDays(7)));
  }
}
