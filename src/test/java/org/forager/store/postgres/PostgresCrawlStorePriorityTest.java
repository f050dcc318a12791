package org.forager.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.forager.fetch.Outcome;
import org.forager.store.Candidate;
import org.forager.store.Concurrently;
import org.forager.store.CrawlRecord;
import org.forager.store.DueCandidate;
import org.forager.store.Ranking;
import org.forager.store.UrlRecord;
import org.forager.url.Origin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Priorities, inlinks and hops on a real PostgreSQL server: the never-crawled order, its
 * alternation with recrawls, links counted at a page's first crawl (across two stores at once), and
 * rows from before schema version 6.
 */
@Timeout(120)
class PostgresCrawlStorePriorityTest {

  private static final Origin A = Origin.ofUrl("https://a.example");
  private static final Instant T0 = Instant.parse("2026-11-24T00:00:00Z");
  private static final Instant LATER = T0.plus(Duration.ofDays(30));
  private static final String PAGE = "https://a.example/";

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
    store = PostgresCrawlStore.open(url, 4);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void neverCrawledUrlsComeHighestPriorityFirstThenShallowestThenByUrl() {
    store.addCandidates(List.of(ranked("https://a.example/x", 1, 0.2), ranked("https://a.example/y", 3, 0.9),
        ranked("https://a.example/z", 0, 0.2), ranked("https://a.example/w", 1, 0.2),
        ranked("https://a.example/v", 0, 0.2 + 1e-6))); // closer than 1/65535: ranks as 0.2

    List<DueCandidate> due = store.due(A, T0, 10);
    assertEquals(List.of("https://a.example/y", "https://a.example/v", "https://a.example/z", "https://a.example/w",
        "https://a.example/x"), urls(due));
    assertEquals(stored(0.9), due.get(0).priority());
    assertEquals(stored(0.2), due.get(1).priority());
    assertEquals(List.of("https://a.example/y", "https://a.example/v"), urls(store.due(A, T0, 2)));
  }

  @Test
  void newUrlsAndRecrawlsAlternateStartingWithANewOneThenTheRestOfEither() {
    for (int i = 1; i <= 3; i++) {
      String page = "https://a.example/r" + i;
      store.addCandidates(List.of(Candidate.seed(page)));
      store.record(crawl(page, T0, T0.plus(Duration.ofHours(i))), List.of());
    }
    store.addCandidates(List.of(ranked("https://a.example/n1", 1, 0.3), ranked("https://a.example/n2", 1, 0.6)));

    assertEquals(List.of("https://a.example/n2", "https://a.example/r1", "https://a.example/n1",
        "https://a.example/r2", "https://a.example/r3"), urls(store.due(A, LATER, 10)));
    assertEquals(List.of("https://a.example/n2", "https://a.example/r1", "https://a.example/n1"),
        urls(store.due(A, LATER, 3)));
    assertEquals(List.of("https://a.example/n2", "https://a.example/r1", "https://a.example/n1"),
        urls(store.due(A, T0.plus(Duration.ofMinutes(90)), 10)), "only r1 due by then");
    assertEquals(List.of("https://a.example/n2", "https://a.example/n1"), urls(store.due(A, T0, 10)));

    store.record(crawl("https://a.example/n1", T0, T0.plus(Duration.ofHours(4))), List.of());
    store.record(crawl("https://a.example/n2", T0, T0.plus(Duration.ofHours(5))), List.of());
    assertEquals(List.of("https://a.example/r1", "https://a.example/r2", "https://a.example/r3",
        "https://a.example/n1", "https://a.example/n2"), urls(store.due(A, LATER, 10)), "recrawls by due time");
  }

  @Test
  void aPageCountsItsLinksAtItsFirstCrawlOnly() {
    String known = "https://a.example/known";
    String found = "https://a.example/found";
    String foundLater = "https://a.example/found-later";
    store.addCandidates(List.of(Candidate.seed(PAGE), link(known, 2)));
    assertRank(known, 0, 0.0);

    store.record(crawl(PAGE, T0, T0.plus(Duration.ofDays(1))), List.of(link(known, 1), link(found, 1), link(PAGE, 1)));
    assertRank(known, 1, 0.5 * 1 / (1 + 2 + 1.0)); // ranked at its stored depth, 2
    assertRank(found, 1, 0.5 * 1 / (1 + 1 + 1.0));
    assertRank(PAGE, 0, 1.0); // a link to itself counts nothing

    store.record(crawl(PAGE, T0.plus(Duration.ofDays(1)), LATER),
        List.of(link(known, 1), link(found, 1), link(foundLater, 1)));
    assertRank(known, 1, 0.5 * 1 / (1 + 2 + 1.0));
    assertRank(found, 1, 0.5 * 1 / (1 + 1 + 1.0));
    assertRank(foundLater, 0, 0.0);
  }

  @Test
  void aLinkRaisesAPriorityToTheNewRankingButNeverLowersIt() {
    String high = "https://a.example/high";
    store.addCandidates(List.of(Candidate.seed("https://a.example/p1"), Candidate.seed("https://a.example/p2"),
        ranked(high, 1, 0.8)));

    store.record(crawl("https://a.example/p1", T0, LATER), List.of(link(high, 1)));
    assertRank(high, 1, 0.8); // LINKS gives 1/6

    List<String> asked = new CopyOnWriteArrayList<>();
    Ranking recording = (u, depth, inlinks) -> {
      asked.add(u + " at depth " + depth + " with " + inlinks);
      return 0.9;
    };
    store.record(crawl("https://a.example/p2", T0, LATER),
        List.of(new Candidate(high, 4, Optional.of("https://a.example/p2"), 0, recording)));
    assertTrue(asked.contains(high + " at depth 1 with 2"), asked.toString()); // its stored depth, new count
    assertRank(high, 2, 0.9);
  }

  @Test
  void aCrawledUrlsInlinksNoLongerChange() {
    String crawled = "https://a.example/crawled";
    store.addCandidates(List.of(Candidate.seed(PAGE), link(crawled, 1)));
    store.record(crawl(crawled, T0, LATER), List.of());
    store.record(crawl(PAGE, T0, LATER), List.of(link(crawled, 1)));
    assertRank(crawled, 0, 0.0);
  }

  @Test
  void hopsAndPriorityAreReadBackThroughUrlForEachUrlAndDueAndKeptAsFirstSeen() {
    String far = "http://b.example/far";
    store.addCandidates(List.of(new Candidate(far, 3, Optional.of(PAGE), 2, Ranking.fixed(0.3))));
    store.addCandidates(List.of(new Candidate(far, 1, Optional.of(PAGE), 0, Ranking.fixed(0.9)))); // known: nothing

    UrlRecord record = store.url(far).orElseThrow();
    assertEquals(List.of(3, 0, 2), List.of(record.depth(), record.inlinks(), record.hops()));
    assertEquals(stored(0.3), record.priority());
    List<UrlRecord> all = new ArrayList<>();
    store.forEachUrl(all::add);
    assertEquals(List.of(record), all);
    DueCandidate due = store.due(Origin.ofUrl(far), T0, 10).get(0);
    assertEquals(stored(0.3), due.priority());
    assertEquals(2, due.hops());

    store.record(crawl(far, T0, LATER), List.of());
    UrlRecord crawled = store.url(far).orElseThrow();
    assertEquals(List.of(1, 0, 2), List.of(crawled.fetchCount(), crawled.inlinks(), crawled.hops()));
    assertEquals(stored(0.3), crawled.priority());
    assertEquals(2, store.due(Origin.ofUrl(far), LATER, 10).get(0).hops());
  }

  @Test
  void aUrlStoredBeforeSchemaVersion6ReadsPriority1AndRanksFirst() {
    String old = postgres.freshSchema();
    try (Database database = Database.connect(old, Optional.empty(), 1)) {
      assertEquals(5, Migrations.migrate(database, 5));
    }
    String schema = old.substring(old.indexOf("currentSchema=") + "currentSchema=".length());
    postgres.execute("INSERT INTO " + schema + ".crawl_url (origin, url, depth, discovered_from, discovered_at)"
        + " VALUES ('https://a.example', 'https://a.example/old', 3, 'https://a.example/', now())");
    postgres.execute("INSERT INTO " + schema + ".crawl_due (origin, url, due_at, depth, fetch_count)"
        + " VALUES ('https://a.example', 'https://a.example/old', '-infinity', 3, 0)");
    postgres.execute("INSERT INTO " + schema + ".crawl_url_count (origin, urls) VALUES ('https://a.example', 1)");

    try (PostgresCrawlStore migrated = PostgresCrawlStore.open(old, 2)) {
      UrlRecord record = migrated.url("https://a.example/old").orElseThrow();
      assertEquals(1.0, record.priority());
      assertEquals(List.of(3, 0, 0), List.of(record.depth(), record.inlinks(), record.hops()));
      migrated.addCandidates(List.of(ranked("https://a.example/new", 0, 0.99)));
      List<DueCandidate> due = migrated.due(A, T0, 10);
      assertEquals(List.of("https://a.example/old", "https://a.example/new"), urls(due));
      assertEquals(1.0, due.get(0).priority());
    }
  }

  @Test
  void firstCrawlsOnTwoStoresAtOnceCountEveryLinkOnce() throws Exception {
    int pages = 8;
    List<Candidate> targets = new ArrayList<>();
    for (int t = 0; t < 20; t++) targets.add(link("https://a.example/t" + t, 1));
    List<Candidate> seeds = new ArrayList<>();
    for (int p = 0; p < pages; p++) seeds.add(Candidate.seed("https://b.example/p" + p));
    store.addCandidates(seeds);
    store.addCandidates(targets.subList(0, 10)); // half known, half new to whichever page is first

    try (PostgresCrawlStore other = PostgresCrawlStore.open(url, 4)) {
      Concurrently.run(pages, p -> (p % 2 == 0 ? store : other)
          .record(crawl("https://b.example/p" + p, T0, LATER), targets));
    }
    // 8 inlinks: magnitude 4 (Ranking.LINKS ranks by 1 + floor(log2(inlinks))).
    for (Candidate target : targets) assertRank(target.url(), pages, Ranking.LINKS.priority(target.url(), 1, pages));
  }

  private void assertRank(String url, int inlinks, double priority) {
    UrlRecord record = store.url(url).orElseThrow();
    assertEquals(inlinks, record.inlinks(), url + " inlinks");
    assertEquals(stored(priority), record.priority(), url + " priority");
  }

  private static double stored(double priority) {
    return Ranking.dequantize(Ranking.quantize(priority));
  }

  private static Candidate ranked(String url, int depth, double priority) {
    return new Candidate(url, depth, Optional.of(PAGE), 0, Ranking.fixed(priority));
  }

  private static Candidate link(String url, int depth) {
    return new Candidate(url, depth, Optional.of(PAGE));
  }

  private static CrawlRecord crawl(String url, Instant fetchedAt, Instant nextFetchAt) {
    return new CrawlRecord(url, fetchedAt, Outcome.FETCHED, 200, 42, Optional.of("text/html"), 1000,
        Optional.of("sha1:AAAA"), Optional.empty(), Optional.empty(), false, false, Optional.empty(),
        Optional.empty(), nextFetchAt);
  }

  private static List<String> urls(List<DueCandidate> due) {
    return due.stream().map(DueCandidate::url).toList();
  }
}
