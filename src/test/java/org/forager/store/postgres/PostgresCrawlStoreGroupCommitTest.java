package org.forager.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.Outcome;
import org.forager.store.Candidate;
import org.forager.store.Concurrently;
import org.forager.store.CrawlRecord;
import org.forager.store.LeaseLostException;
import org.forager.store.OriginLeases.Release;
import org.forager.store.StoreException;
import org.forager.url.Origin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group commit of the PostgreSQL store (issue 16, item 2) on a real server: the writes of many
 * callers share one transaction, and each caller still gets its own outcome (a stale holder's record
 * refused, a failing call failing alone).
 */
@Timeout(120)
class PostgresCrawlStoreGroupCommitTest {

  private static final Instant T0 = Instant.parse("2026-11-24T00:00:00Z");
  /** Long enough that callers released together land in one group even on a busy machine. */
  private static final GroupCommitter.Options ONE_GROUP = new GroupCommitter.Options(256, Duration.ofMillis(500));
  private static final Origin A = Origin.ofUrl("https://a.example");
  private static final Origin B = Origin.ofUrl("https://b.example");

  @TempDir
  static Path serverDir;

  private static TestPostgres postgres;
  private String url;
  private PostgresCrawlStore store;

  @BeforeAll
  static void startServer() {
    postgres = TestPostgres.start(serverDir.resolve("pgdata"));
  }

  @AfterAll
  static void stopServer() throws IOException {
    postgres.close();
  }

  @BeforeEach
  void open() {
    url = postgres.freshSchema();
    store = PostgresCrawlStore.open(url, 4, ONE_GROUP);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void recordsOfManyCallersAtOnceShareOneTransactionAndAllLand() throws Exception {
    int callers = 32;
    List<Candidate> seeds = new ArrayList<>();
    for (int t = 0; t < callers; t++) seeds.add(Candidate.seed(page(t)));
    store.addCandidates(seeds);
    long before = store.groupTransactions();

    Concurrently.run(callers, t -> store.record(crawl(page(t)), List.of(link(t))));

    long transactions = store.groupTransactions() - before;
    assertTrue(transactions <= 3, callers + " records in " + transactions + " transactions");
    for (int t = 0; t < callers; t++) {
      assertEquals(1, store.url(page(t)).orElseThrow().fetchCount(), page(t));
      assertTrue(store.url(link(t).url()).isPresent(), link(t).url());
    }
    assertEquals(2L * callers, store.urlCount());
  }

  @Test
  void aStaleHoldersRecordIsRefusedWithoutFailingTheOthersOfItsGroup() throws Exception {
    store.addScope(List.of(A, B));
    store.addCandidates(List.of(Candidate.seed("https://a.example/"), Candidate.seed("https://b.example/")));
    assertEquals(List.of(A, B), store.claim("one", 5, Duration.ofHours(1), Instant.MAX));
    // A's lease ran out and another process claimed it: this store's writes of A are stale.
    postgres.execute("UPDATE " + schema() + ".origin_lease SET expires_at = now() - interval '1 hour'"
        + " WHERE origin = '" + A + "'");
    try (PostgresCrawlStore other = PostgresCrawlStore.open(url, 2)) {
      assertEquals(List.of(A), other.claim("two", 5, Duration.ofHours(1), Instant.MAX));
    }
    long before = store.groupTransactions();

    List<Object> outcomes = Concurrently.call(2, t -> {
      String page = t == 0 ? "https://a.example/" : "https://b.example/";
      try {
        store.record(crawl(page), List.of(new Candidate(page + "next", 1, Optional.of(page))));
        return "recorded";
      } catch (LeaseLostException e) {
        return e;
      }
    });

    assertEquals(1, store.groupTransactions() - before, "one group");
    assertInstanceOf(LeaseLostException.class, outcomes.get(0));
    assertEquals(A, ((LeaseLostException) outcomes.get(0)).origin());
    assertEquals("recorded", outcomes.get(1));
    assertEquals(0, store.url("https://a.example/").orElseThrow().fetchCount(), "A's crawl refused whole");
    assertTrue(store.url("https://a.example/next").isEmpty(), "and its links");
    assertEquals(1, store.url("https://b.example/").orElseThrow().fetchCount());
    assertTrue(store.url("https://b.example/next").isPresent());
    assertTrue(store.release("one", B, new Release.Unfinished()));
  }

  @Test
  void aCallThatFailsInAGroupFailsAloneAndTheOthersOfItsGroupLand() throws Exception {
    // The server refuses one URL's crawl (a trigger): the call recording it must fail by itself.
    String s = schema();
    postgres.execute("CREATE FUNCTION " + s + ".refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        + " IF NEW.url = '" + page(3) + "' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$");
    postgres.execute("CREATE TRIGGER refuse BEFORE INSERT ON " + s + ".crawl_history"
        + " FOR EACH ROW EXECUTE FUNCTION " + s + ".refuse()");
    int callers = 8;
    List<Candidate> seeds = new ArrayList<>();
    for (int t = 0; t < callers; t++) seeds.add(Candidate.seed(page(t)));
    store.addCandidates(seeds);

    List<Object> outcomes = Concurrently.call(callers, t -> {
      try {
        store.record(crawl(page(t)), List.of(link(t)));
        return "recorded";
      } catch (StoreException e) {
        return e;
      }
    });

    for (int t = 0; t < callers; t++) {
      if (t == 3) {
        assertInstanceOf(StoreException.class, outcomes.get(t));
        assertTrue(((StoreException) outcomes.get(t)).getMessage().contains("refused by the test"));
        assertEquals(0, store.url(page(t)).orElseThrow().fetchCount());
        assertTrue(store.url(link(t).url()).isEmpty());
      } else {
        assertEquals("recorded", outcomes.get(t), "call " + t);
        assertEquals(1, store.url(page(t)).orElseThrow().fetchCount());
        assertTrue(store.url(link(t).url()).isPresent());
      }
    }
  }

  @Test
  void aRecordRacingTheRegistrationOfItsDigestInOneGroupSeesItInCallOrder() throws Exception {
    // Calls of one group run one after another: the second registration of a digest finds the first.
    List<Optional<String>> holders =
        Concurrently.call(4, t -> store.firstWithDigest("sha1:same", "https://a.example/d" + t));
    assertEquals(1, holders.stream().filter(Optional::isEmpty).count(), holders.toString());
  }

  private String schema() {
    return url.substring(url.indexOf("currentSchema=") + "currentSchema=".length());
  }

  private static String page(int t) {
    return "https://a.example/page/" + t;
  }

  private static Candidate link(int t) {
    return new Candidate("https://b.example/from/" + t, 1, Optional.of(page(t)));
  }

  private static CrawlRecord crawl(String url) {
    return new CrawlRecord(url, T0, Outcome.FETCHED, 200, 5, Optional.of("text/html"), 100, Optional.empty(),
        Optional.empty(), Optional.empty(), false, false, Optional.empty(), Optional.empty(),
        T0.plus(Duration.ofDays(7)));
  }
}
