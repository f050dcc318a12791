package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.forager.fetch.Outcome;
import org.forager.url.Origin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link CrawlStore} must have. A subclass supplies the store; the embedded and
 * the PostgreSQL store run the same suite.
 */
public abstract class CrawlStoreConformanceTest {

  protected static final Origin A = Origin.ofUrl("https://a.example");
  protected static final Origin A8080 = Origin.ofUrl("https://a.example:8080");
  protected static final Origin B = Origin.ofUrl("http://b.example");
  protected static final Instant T0 = Instant.parse("2026-11-21T00:00:00Z");

  protected CrawlStore store;

  /** Opens the store under test; called again after {@code close()} it opens the same data. */
  protected abstract CrawlStore openStore();

  @BeforeEach
  void openTheStore() {
    store = openStore();
  }

  @AfterEach
  void closeTheStore() {
    store.close();
  }

  protected void reopen() {
    store.close();
    store = openStore();
  }

  @Test
  void addCandidatesCountsOnlyUrlsNotKnownYet() {
    assertEquals(2, store.addCandidates(List.of(seed("https://a.example/1"), seed("https://a.example/2"))));
    assertEquals(1, store.addCandidates(List.of(seed("https://a.example/2"), seed("https://a.example/3"))));
    assertEquals(0, store.addCandidates(List.of(seed("https://a.example/3"))));
    assertEquals(3, store.urlCount());
  }

  @Test
  void blocksAreKeptAcrossReopeningAndUnblockRemovesOne() {
    assertEquals(List.of(), store.blocks());
    store.block(new Block("example.org", T0, "cli"));
    store.block(new Block("a.example", T0, "api"));
    store.block(new Block("a.example", T0.plusSeconds(1), "page")); // replaces the first of its host
    reopen();
    assertEquals(List.of(new Block("a.example", T0.plusSeconds(1), "page"), new Block("example.org", T0, "cli")),
        store.blocks());
    assertTrue(store.unblock("a.example"));
    assertFalse(store.unblock("a.example"));
    reopen();
    assertEquals(List.of(new Block("example.org", T0, "cli")), store.blocks());
  }

  @Test
  void aUrlTwiceInOneCallIsAddedOnceWithItsShallowestDepth() {
    List<Candidate> batch = List.of(link("https://a.example/x", 3), seed("https://a.example/y"),
        link("https://a.example/x", 1), link("https://a.example/x", 2));
    assertEquals(2, store.addCandidates(batch));
    assertEquals(2, store.urlCount());
    assertEquals(1, store.url("https://a.example/x").orElseThrow().depth());
    assertEquals(2, store.due(A, T0, 10).size());
  }

  @Test
  void aNewCandidateIsKnownAndNeverCrawled() {
    store.addCandidates(List.of(new Candidate("https://a.example/p", 2, Optional.of("https://a.example/"))));
    UrlRecord url = store.url("https://a.example/p").orElseThrow();
    assertEquals(2, url.depth());
    assertEquals(Optional.of("https://a.example/"), url.discoveredFrom());
    assertEquals(0, url.fetchCount());
    assertEquals(Optional.empty(), url.lastCrawl());
    assertEquals(Instant.EPOCH, url.nextFetchAt());
    assertEquals(Optional.empty(), store.url("https://a.example/unknown"));
  }

  @Test
  void dueListsNeverCrawledCandidatesOfTheOriginShallowestFirst() {
    store.addCandidates(List.of(link("https://a.example/d2", 2), seed("https://a.example/d0"),
        link("https://a.example/d1", 1), seed("https://a.example:8080/other-port"),
        seed("http://b.example/other-host")));
    assertEquals(List.of("https://a.example/d0", "https://a.example/d1", "https://a.example/d2"),
        urls(store.due(A, T0, 10)));
    assertEquals(List.of("https://a.example/d0", "https://a.example/d1"), urls(store.due(A, T0, 2)));
    assertEquals(List.of("https://a.example:8080/other-port"), urls(store.due(A8080, T0, 10)));
    assertEquals(List.of(), store.due(Origin.ofUrl("https://c.example"), T0, 10));
    assertEquals(List.of(), store.due(A, T0, 0));
  }

  @Test
  void dueHonoursTheCutoffAndOrdersRecrawlsByDueTime() {
    store.addCandidates(List.of(seed("https://a.example/1"), seed("https://a.example/2"),
        link("https://a.example/new", 5)));
    store.record(crawl("https://a.example/1", T0, T0.plus(Duration.ofHours(2))), List.of());
    store.record(crawl("https://a.example/2", T0, T0.plus(Duration.ofHours(1))), List.of());

    assertEquals(List.of("https://a.example/new"), urls(store.due(A, T0, 10)));
    assertEquals(List.of("https://a.example/new", "https://a.example/2"),
        urls(store.due(A, T0.plus(Duration.ofHours(1)), 10)));
    List<DueCandidate> all = store.due(A, T0.plus(Duration.ofDays(1)), 10);
    assertEquals(List.of("https://a.example/new", "https://a.example/2", "https://a.example/1"), urls(all));
    assertEquals(List.of(0, 1, 1), all.stream().map(DueCandidate::fetchCount).toList());
    assertEquals(5, all.get(0).depth());
  }

  /**
   * The longest URL a crawl takes (limits.max_url_length's default, and the most the PostgreSQL store
   * allows) on the longest origin, its path incompressible: a PostgreSQL index entry holds it whole.
   */
  @Test
  void theLongestUrlOnTheLongestOriginIsStoredListedAndRecorded() {
    String host = "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(61);
    Origin origin = Origin.ofUrl("https://" + host + ":65535");
    StringBuilder url = new StringBuilder(origin + "/");
    Random random = new Random(53);
    String chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~";
    while (url.length() < 2048) url.append(chars.charAt(random.nextInt(chars.length())));
    String u = url.toString();
    store.addScope(Set.of(origin));

    assertEquals(1, store.addCandidates(List.of(seed(u))));
    assertEquals(List.of(u), urls(store.due(origin, T0, 10)));
    store.record(crawl(u, T0, T0.plus(Duration.ofDays(1))), List.of());
    assertEquals(1, store.url(u).orElseThrow().fetchCount());
  }

  @Test
  void recordMovesTheDueTime() {
    String u = "https://a.example/page";
    store.addCandidates(List.of(seed(u)));
    store.record(crawl(u, T0, T0.plus(Duration.ofDays(1))), List.of());
    assertEquals(List.of(), store.due(A, T0, 10));
    assertEquals(List.of(u), urls(store.due(A, T0.plus(Duration.ofDays(1)), 10)));

    CrawlRecord second = crawl(u, T0.plus(Duration.ofDays(1)), T0.plus(Duration.ofDays(2)));
    store.record(second, List.of());
    assertEquals(List.of(), store.due(A, T0.plus(Duration.ofDays(1)), 10));
    List<DueCandidate> due = store.due(A, T0.plus(Duration.ofDays(2)), 10);
    assertEquals(List.of(u), urls(due));
    assertEquals(2, due.get(0).fetchCount());

    UrlRecord url = store.url(u).orElseThrow();
    assertEquals(2, url.fetchCount());
    assertEquals(Optional.of(second), url.lastCrawl());
    assertEquals(T0.plus(Duration.ofDays(2)), url.nextFetchAt());
    assertEquals(1, store.urlCount());
  }

  @Test
  void bringForwardMovesACrawledUrlEarlierOnly() {
    String u = "https://a.example/page";
    CrawlRecord crawled = withValidators(crawl(u, T0, T0.plus(Duration.ofDays(30))), 200, "\"e1\"", null);
    store.record(crawled, List.of());
    assertTrue(store.bringForward(u, T0.plus(Duration.ofDays(2))));
    assertEquals(List.of(), store.due(A, T0.plus(Duration.ofDays(1)), 10));
    List<DueCandidate> due = store.due(A, T0.plus(Duration.ofDays(2)), 10);
    assertEquals(List.of(u), urls(due));
    assertEquals(Optional.of("\"e1\""), due.get(0).etag());
    assertEquals(1, due.get(0).fetchCount());

    assertFalse(store.bringForward(u, T0.plus(Duration.ofDays(3))), "later than due: unchanged");
    assertFalse(store.bringForward(u, T0.plus(Duration.ofDays(2))), "due then already");
    reopen();
    UrlRecord url = store.url(u).orElseThrow();
    assertEquals(T0.plus(Duration.ofDays(2)), url.nextFetchAt());
    assertEquals(Optional.of(crawled), url.lastCrawl());
    assertEquals(1, store.history(u).size(), "no crawl action recorded");
    assertEquals(1, store.urlCount());

    CrawlRecord next = crawl(u, T0.plus(Duration.ofDays(2)), T0.plus(Duration.ofDays(9)));
    store.record(next, List.of());
    assertEquals(List.of(), store.due(A, T0.plus(Duration.ofDays(8)), 10), "the old due entry is gone");
    assertEquals(List.of(u), urls(store.due(A, T0.plus(Duration.ofDays(9)), 10)));
  }

  @Test
  void bringForwardLeavesUnknownAndNeverCrawledUrlsAlone() {
    assertFalse(store.bringForward("https://a.example/unknown", T0));
    assertEquals(0, store.urlCount());
    store.addCandidates(List.of(seed("https://a.example/new")));
    assertFalse(store.bringForward("https://a.example/new", T0));
    UrlRecord url = store.url("https://a.example/new").orElseThrow();
    assertEquals(0, url.fetchCount());
    assertEquals(List.of("https://a.example/new"), urls(store.due(A, T0.minus(Duration.ofDays(1)), 10)));
  }

  @Test
  void bringForwardRacingRecordsLeavesOneDueEntry() throws Exception {
    // Each URL is brought forward while it is recorded again: whichever comes second, the URL is due
    // exactly once, at one of the two times.
    List<String> pages = new ArrayList<>();
    for (int i = 0; i < 50; i++) pages.add("https://a.example/r" + i);
    for (String page : pages) store.record(crawl(page, T0, T0.plus(Duration.ofDays(30))), List.of());
    Instant early = T0.plus(Duration.ofDays(1));
    Instant recorded = T0.plus(Duration.ofDays(10));
    Concurrently.run(2, thread -> {
      for (String page : pages) {
        if (thread == 0) store.bringForward(page, early);
        else store.record(crawl(page, T0.plusSeconds(1), recorded), List.of());
      }
    });
    List<DueCandidate> due = store.due(A, T0.plus(Duration.ofDays(365)), 1000);
    assertEquals(new HashSet<>(pages), new HashSet<>(urls(due)));
    assertEquals(pages.size(), due.size());
    for (String page : pages) {
      Instant next = store.url(page).orElseThrow().nextFetchAt();
      assertTrue(next.equals(early) || next.equals(recorded), page + " due at " + next);
      assertEquals(2, store.url(page).orElseThrow().fetchCount());
    }
  }

  @Test
  void recordAddsTheDiscoveredCandidatesWithTheCrawl() {
    String page = "https://a.example/";
    store.addCandidates(List.of(seed(page), seed("https://a.example/known")));
    List<Candidate> links = List.of(
        new Candidate("https://a.example/n1", 1, Optional.of(page)),
        new Candidate("http://b.example/n2", 1, Optional.of(page)),
        new Candidate("https://a.example/n1", 1, Optional.of(page)),
        new Candidate("https://a.example/known", 1, Optional.of(page)),
        new Candidate(page, 1, Optional.of(page)));
    store.record(crawl(page, T0, T0.plus(Duration.ofDays(7))), links);

    assertEquals(4, store.urlCount());
    UrlRecord n1 = store.url("https://a.example/n1").orElseThrow();
    assertEquals(Optional.of(page), n1.discoveredFrom());
    assertEquals(1, n1.depth());
    assertEquals(0, store.url("https://a.example/known").orElseThrow().depth());
    assertEquals(0, store.url(page).orElseThrow().depth());
    assertEquals(List.of("https://a.example/known", "https://a.example/n1"), urls(store.due(A, T0, 10)));
    assertEquals(List.of("http://b.example/n2"), urls(store.due(B, T0, 10)));
  }

  @Test
  void recordingAnUnknownUrlAddsIt() {
    String u = "https://a.example/seed";
    store.record(crawl(u, T0, T0.plus(Duration.ofDays(1))), List.of());
    assertEquals(1, store.urlCount());
    UrlRecord url = store.url(u).orElseThrow();
    assertEquals(0, url.depth());
    assertEquals(1, url.fetchCount());
    assertEquals(List.of(u), urls(store.due(A, T0.plus(Duration.ofDays(1)), 10)));
  }

  @Test
  void historyIsOldestFirstAndPerUrl() {
    String u = "https://a.example/p";
    CrawlRecord second = crawl(u, T0.plus(Duration.ofHours(2)), T0.plus(Duration.ofDays(1)));
    CrawlRecord first = crawl(u, T0.plus(Duration.ofHours(1)), T0.plus(Duration.ofDays(1)));
    CrawlRecord third = crawl(u, T0.plus(Duration.ofHours(3)), T0.plus(Duration.ofDays(1)));
    store.record(second, List.of());
    store.record(first, List.of());
    store.record(third, List.of());
    store.record(crawl(u + "2", T0, T0), List.of());
    store.record(crawl("https://a.example/", T0, T0), List.of());

    assertEquals(List.of(first, second, third), store.history(u));
    assertEquals(1, store.history(u + "2").size());
    assertEquals(List.of(), store.history("https://a.example/never"));
  }

  @Test
  void aCrawlRecordKeepsEveryField() {
    String u = "https://a.example/full";
    CrawlRecord full = new CrawlRecord(u, T0.plusNanos(123_456_789), Outcome.NOINDEX, 200, 1234,
        Optional.of("text/html; charset=utf-8"), 56_789, Optional.of("sha1:ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"),
        Optional.of("https://a.example/elsewhere"), Optional.of("https://a.example/canonical"), true, true,
        Optional.of("\"etag-é\""), Optional.of("Sat, 21 Nov 2026 00:00:00 GMT"), T0.plus(Duration.ofDays(7)),
        Optional.of("https://a.example/original"), OptionalLong.of(0x8000_0000_0000_0001L));
    CrawlRecord empty = new CrawlRecord(u, T0.plusSeconds(1), Outcome.NETWORK_ERROR, 0, 0,
        Optional.empty(), -1, Optional.empty(), Optional.empty(), Optional.empty(), false, false,
        Optional.empty(), Optional.empty(), T0.plusSeconds(60));
    store.record(full, List.of());
    store.record(empty, List.of());
    assertEquals(List.of(full, empty), store.history(u));
    assertEquals(Optional.of(empty), store.url(u).orElseThrow().lastCrawl());
  }

  @Test
  void theFirstUrlWithADigestHoldsItForGood() {
    String digest = "sha1:ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    assertEquals(Optional.empty(), store.firstWithDigest(digest, "https://a.example/first"));
    // Its own refetch is not a duplicate of itself.
    assertEquals(Optional.empty(), store.firstWithDigest(digest, "https://a.example/first"));
    assertEquals(Optional.of("https://a.example/first"), store.firstWithDigest(digest, "https://a.example/copy"));
    // Per origin: the same body on another site may link elsewhere.
    assertEquals(Optional.empty(), store.firstWithDigest(digest, "http://b.example/mirror"));
    assertEquals(Optional.of("http://b.example/mirror"), store.firstWithDigest(digest, "http://b.example/copy"));
    assertEquals(Optional.empty(), store.firstWithDigest(digest, "https://a.example:8080/other-port"));
    assertEquals(Optional.empty(), store.firstWithDigest("sha1:OTHER", "https://a.example/copy"));
    reopen();
    assertEquals(Optional.of("https://a.example/first"), store.firstWithDigest(digest, "https://a.example/copy"));
    assertEquals(Optional.empty(), store.firstWithDigest(digest, "https://a.example/first"));
    assertEquals(0, store.urlCount(), "the digest index is no URL table");
  }

  @Test
  @Timeout(60)
  void concurrentRegistrationsOfOneDigestHaveExactlyOneHolder() throws Exception {
    int threads = 4;
    for (int round = 0; round < 20; round++) {
      String digest = "sha1:ROUND" + round;
      List<Optional<String>> results =
          Concurrently.call(threads, t -> store.firstWithDigest(digest, "https://a.example/t" + t));
      Set<String> holders = new HashSet<>();
      int firsts = 0;
      for (Optional<String> holder : results) {
        if (holder.isEmpty()) firsts++;
        else holders.add(holder.get());
      }
      assertEquals(1, firsts, "round " + round);
      assertEquals(1, holders.size(), "round " + round);
    }
  }

  @Test
  void dueCandidatesCarryTheValidatorsOfTheLastRepresentation() {
    String u = "https://a.example/v";
    Instant later = T0.plus(Duration.ofDays(30));
    store.record(withValidators(crawl(u, T0, T0), 200, "\"e1\"", "Fri, 20 Nov 2026 00:00:00 GMT"), List.of());
    assertValidators(u, later, Optional.of("\"e1\""), Optional.of("Fri, 20 Nov 2026 00:00:00 GMT"));

    store.record(withValidators(crawl(u, T0, T0), 0, null, null), List.of());
    assertValidators(u, later, Optional.of("\"e1\""), Optional.of("Fri, 20 Nov 2026 00:00:00 GMT"));

    store.record(withValidators(crawl(u, T0, T0), 304, "\"e2\"", null), List.of());
    assertValidators(u, later, Optional.of("\"e2\""), Optional.of("Fri, 20 Nov 2026 00:00:00 GMT"));

    store.record(withValidators(crawl(u, T0, T0), 200, null, null), List.of());
    assertValidators(u, later, Optional.empty(), Optional.empty());
  }

  @Test
  void originStateRoundTripsWithTheRobotsBytes() {
    assertEquals(Optional.empty(), store.originState(A));
    byte[] robots = "User-agent: *\nDisallow: /private\n\u00ff".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    OriginState state = new OriginState(A,
        Optional.of(new OriginState.RobotsTxt(200, robots, T0, T0.plus(Duration.ofMinutes(30)))), 1500, 4);
    store.saveOriginState(state);
    store.saveOriginState(new OriginState(B, Optional.empty(), 1000, 5));

    assertSameState(state, store.originState(A).orElseThrow());
    assertEquals(new OriginState(B, Optional.empty(), 1000, 5), store.originState(B).orElseThrow());
    assertEquals(Optional.empty(), store.originState(A8080));

    OriginState unreachable = new OriginState(A,
        Optional.of(new OriginState.RobotsTxt(0, new byte[0], T0, T0.plusSeconds(60))), 120_000, 0);
    store.saveOriginState(unreachable);
    assertSameState(unreachable, store.originState(A).orElseThrow());
  }

  @Test
  void scopeIsASetKeptAcrossRuns() {
    assertEquals(Set.of(), store.scope());
    store.addScope(List.of(A, B));
    store.addScope(List.of(A, A8080));
    assertEquals(Set.of(A, B, A8080), store.scope());
    reopen();
    assertEquals(Set.of(A, B, A8080), store.scope());
  }

  @Test
  void discoveredOriginsAreInScopeButAreNoSeedOrigins() {
    store.addScope(List.of(A));
    store.addDiscoveredOrigins(List.of(B, A8080, B));
    assertEquals(Set.of(A, B, A8080), store.scope());
    assertEquals(Set.of(A), store.seedOrigins());
    reopen();
    assertEquals(Set.of(A, B, A8080), store.scope());
    assertEquals(Set.of(A), store.seedOrigins());
  }

  @Test
  void theScopeIsReadPageByPageInOriginOrderSeedsAndDiscoveredMerged() {
    Origin c = Origin.ofUrl("https://c.example");
    Origin a9 = Origin.ofUrl("https://a.example:9");
    store.addScope(List.of(c, A));
    store.addDiscoveredOrigins(List.of(B, A8080, a9));
    List<Origin> all = List.of(B, A, A8080, a9, c); // by the bytes of "http://b...", "https://a.example", ...
    assertEquals(all, store.scopeOrigins(Optional.empty(), 10));
    assertEquals(all.subList(0, 2), store.scopeOrigins(Optional.empty(), 2));
    assertEquals(all.subList(2, 4), store.scopeOrigins(Optional.of(A), 2), "after A, A itself excluded");
    assertEquals(List.of(c), store.scopeOrigins(Optional.of(a9), 10));
    assertEquals(List.of(), store.scopeOrigins(Optional.of(c), 10));
    assertEquals(List.of(), store.scopeOrigins(Optional.empty(), 0));
    assertEquals(5, store.scopeCount());
    assertEquals(Set.of(A, B), store.inScope(List.of(A, B, Origin.ofUrl("https://unknown.example"), A)));
    assertEquals(Set.of(), store.inScope(List.of()));
    reopen();
    assertEquals(all, store.scopeOrigins(Optional.empty(), 10));
  }

  /** The end of a wait the site asked for is kept, exact, with or without run progress, and cleared. */
  @Test
  void anOriginsWaitUntilIsKept() {
    Instant until = T0.plusNanos(123_456_789);
    OriginState.RunProgress run = new OriginState.RunProgress(T0, 42, true, false);
    store.saveOriginState(new OriginState(A, Optional.empty(), 1500, 3, Optional.of(run), Optional.of(until)));
    store.saveOriginState(new OriginState(B, Optional.empty(), 1500, 3, Optional.empty(), Optional.of(until)));
    reopen();
    assertEquals(Optional.of(until), store.originState(A).orElseThrow().waitUntil());
    assertEquals(Optional.of(run), store.originState(A).orElseThrow().run());
    assertEquals(Optional.of(until), store.originState(B).orElseThrow().waitUntil());
    store.saveOriginState(new OriginState(A, Optional.empty(), 1500, 3, Optional.of(run)));
    assertEquals(Optional.empty(), store.originState(A).orElseThrow().waitUntil(), "cleared");
  }

  @Test
  void anOriginsRunProgressIsKept() {
    OriginState.RunProgress run = new OriginState.RunProgress(T0, 42, true, false);
    store.saveOriginState(new OriginState(A, Optional.empty(), 1500, 3, Optional.of(run)));
    assertEquals(Optional.of(run), store.originState(A).orElseThrow().run());
    store.saveOriginState(new OriginState(A, Optional.empty(), 1500, 3));
    assertEquals(Optional.empty(), store.originState(A).orElseThrow().run());
    OriginState.RunProgress givenUp = new OriginState.RunProgress(T0.plusNanos(123_456_789), 0, false, true);
    store.saveOriginState(new OriginState(B, Optional.empty(), 0, 0, Optional.of(givenUp)));
    // When the sitemaps were read (a continuous run reads them again only reread_after later), exact.
    OriginState.RunProgress read = new OriginState.RunProgress(T0, 7, true, false, Optional.of(T0.plusNanos(987_654_321)));
    Origin c = Origin.ofUrl("https://c.example");
    store.saveOriginState(new OriginState(c, Optional.empty(), 0, 0, Optional.of(read)));
    reopen();
    assertEquals(Optional.of(givenUp), store.originState(B).orElseThrow().run());
    assertEquals(Optional.of(read), store.originState(c).orElseThrow().run());
    store.saveOriginState(new OriginState(c, Optional.empty(), 0, 0, Optional.of(givenUp)));
    assertEquals(Optional.of(givenUp), store.originState(c).orElseThrow().run(), "the time cleared");
    // Every state, streamed (forager status counts the origins given up from them).
    java.util.Map<Origin, Optional<OriginState.RunProgress>> all = new java.util.HashMap<>();
    store.forEachOriginState(state -> all.put(state.origin(), state.run()));
    assertEquals(java.util.Map.of(A, Optional.empty(), B, Optional.of(givenUp), c, Optional.of(givenUp)), all);
  }

  @Test
  void aDiscoveredOriginAddedLaterAsASeedsBecomesASeedOrigin() {
    store.addDiscoveredOrigins(List.of(A, B));
    assertEquals(Set.of(), store.seedOrigins());
    store.addScope(List.of(B));
    assertEquals(Set.of(B), store.seedOrigins());
    assertEquals(Set.of(A, B), store.scope());
    reopen();
    assertEquals(Set.of(B), store.seedOrigins());
    assertEquals(Set.of(A, B), store.scope());
  }

  @Test
  void aSeedOriginAddedAgainAsDiscoveredStaysASeedOrigin() {
    store.addScope(List.of(A, B));
    store.addDiscoveredOrigins(List.of(A, A8080));
    assertEquals(Set.of(A, B), store.seedOrigins());
    assertEquals(Set.of(A, B, A8080), store.scope());
    reopen();
    assertEquals(Set.of(A, B), store.seedOrigins());
    assertEquals(Set.of(A, B, A8080), store.scope());
  }

  @Test
  void addingNoOriginsChangesNothing() {
    store.addScope(List.of());
    store.addDiscoveredOrigins(List.of());
    assertEquals(Set.of(), store.scope());
    assertEquals(Set.of(), store.seedOrigins());
  }

  @Test
  void aPageWorthOfDiscoveredOriginsIsAddedAtOnce() {
    List<Origin> discovered = new ArrayList<>();
    for (int i = 0; i < 500; i++) discovered.add(Origin.ofUrl("https://h" + i + ".example"));
    store.addScope(discovered.subList(0, 10));
    store.addDiscoveredOrigins(discovered);
    assertEquals(Set.copyOf(discovered), store.scope());
    assertEquals(Set.copyOf(discovered.subList(0, 10)), store.seedOrigins());
  }

  @Test
  @Timeout(60)
  void concurrentSeedAndDiscoveredAddsOfTheSameOriginsLeaveEverySeedASeed() throws Exception {
    int threads = 4;
    List<Origin> origins = new ArrayList<>();
    for (int i = 0; i < 200; i++) origins.add(Origin.ofUrl("https://h" + i + ".example"));
    // Even threads add every origin as discovered, odd ones add the even-numbered origins as seeds',
    // one at a time (as the crawl loop takes origins on), in opposite orders.
    Concurrently.run(threads, t -> {
      for (int i = 0; i < origins.size(); i++) {
        int at = t % 2 == 0 ? i : origins.size() - 1 - i;
        if (t % 2 == 0) {
          store.addDiscoveredOrigins(List.of(origins.get(at)));
        } else if (at % 2 == 0) {
          store.addScope(List.of(origins.get(at)));
        }
      }
    });
    Set<Origin> seeds = new HashSet<>();
    for (int i = 0; i < origins.size(); i += 2) seeds.add(origins.get(i));
    assertEquals(seeds, store.seedOrigins());
    assertEquals(Set.copyOf(origins), store.scope());
    reopen();
    assertEquals(seeds, store.seedOrigins());
    assertEquals(Set.copyOf(origins), store.scope());
  }

  @Test
  void anUnknownSettingIsEmpty() {
    assertEquals(Optional.empty(), store.setting("scope.mode"));
  }

  @Test
  void aSavedSettingIsReadBackAndReplaced() {
    store.saveSetting("scope.mode", "domains");
    store.saveSetting("scope.allow", "");
    assertEquals(Optional.of("domains"), store.setting("scope.mode"));
    assertEquals(Optional.of(""), store.setting("scope.allow"), "an empty value is a value");
    store.saveSetting("scope.mode", "open");
    assertEquals(Optional.of("open"), store.setting("scope.mode"));
    assertEquals(Optional.empty(), store.setting("scope.deny"));
  }

  @Test
  void settingsSurviveCloseAndReopen() {
    String largest = "é".repeat(CrawlSettings.MAX_VALUE_BYTES / 2); // two bytes each: exactly 64 KiB
    String unicode = "*.bücher.example\nxn--r8jz45g.example 🦊";
    store.saveSetting("scope.allow", largest);
    store.saveSetting("scope.deny", unicode);
    store.saveSetting("scope.mode", "origins");
    store.saveSetting("scope.mode", "domains");
    reopen();
    assertEquals(Optional.of(largest), store.setting("scope.allow"));
    assertEquals(Optional.of(unicode), store.setting("scope.deny"));
    assertEquals(Optional.of("domains"), store.setting("scope.mode"));
    assertEquals(Set.of(), store.scope(), "settings are not scope origins");
  }

  @Test
  void invalidSettingNamesAreRefused() {
    for (String name : List.of("", "Scope", "scope mode", "scope/mode", "é", "a".repeat(65), "x\n")) {
      assertThrows(IllegalArgumentException.class, () -> store.saveSetting(name, "v"), name);
      assertThrows(IllegalArgumentException.class, () -> store.setting(name), name);
    }
    String longest = "a".repeat(64);
    store.saveSetting(longest, "v");
    assertEquals(Optional.of("v"), store.setting(longest));
    store.saveSetting("0_9.a-z", "v");
    assertEquals(Optional.of("v"), store.setting("0_9.a-z"));
  }

  @Test
  void invalidSettingValuesAreRefusedAndChangeNothing() {
    store.saveSetting("scope.allow", "kept");
    List<String> invalid = List.of("é".repeat(CrawlSettings.MAX_VALUE_BYTES / 2) + "x",
        "a".repeat(CrawlSettings.MAX_VALUE_BYTES + 1), "nul\0inside", "lone \ud800 surrogate");
    for (String value : invalid) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> store.saveSetting("scope.allow", value));
      assertTrue(e.getMessage().contains("scope.allow"), e.getMessage());
    }
    assertEquals(Optional.of("kept"), store.setting("scope.allow"));
  }

  @Test
  @Timeout(60)
  void concurrentSavesOfDifferentSettingsAllLand() throws Exception {
    int threads = 4;
    Concurrently.run(threads, t -> {
      for (int i = 0; i < 25; i++) store.saveSetting("s" + t + "." + i, "value " + t + "/" + i);
    });
    for (int t = 0; t < threads; t++) {
      for (int i = 0; i < 25; i++) {
        assertEquals(Optional.of("value " + t + "/" + i), store.setting("s" + t + "." + i));
      }
    }
  }

  @Test
  void reopeningKeepsEverything() {
    String page = "https://a.example/";
    store.addScope(List.of(A));
    store.addCandidates(List.of(seed(page), seed("http://b.example/")));
    CrawlRecord crawl = crawl(page, T0, T0.plus(Duration.ofDays(7)));
    store.record(crawl, List.of(new Candidate("https://a.example/x", 1, Optional.of(page))));
    OriginState state = new OriginState(A, Optional.empty(), 2000, 3);
    store.saveOriginState(state);

    reopen();

    assertEquals(Set.of(A), store.scope());
    assertEquals(3, store.urlCount());
    assertEquals(List.of(crawl), store.history(page));
    assertEquals(Optional.of(crawl), store.url(page).orElseThrow().lastCrawl());
    assertEquals(List.of("https://a.example/x"), urls(store.due(A, T0, 10)));
    assertEquals(List.of("https://a.example/x", page), urls(store.due(A, T0.plus(Duration.ofDays(7)), 10)));
    assertEquals(Optional.of(state), store.originState(A));
    assertEquals(0, store.addCandidates(List.of(seed(page), seed("https://a.example/x"))));
  }

  @Test
  void forEachUrlVisitsEveryUrlOnceInUrlOrder() {
    List<String> added = List.of("https://a.example/b", "http://b.example/", "https://a.example/a",
        "https://a.example:8080/", "https://a.example/a?q=1");
    store.addCandidates(added.stream().map(CrawlStoreConformanceTest::seed).toList());
    store.record(crawl("https://a.example/a", T0, T0), List.of());
    List<String> visited = new ArrayList<>();
    store.forEachUrl(url -> visited.add(url.url()));
    assertEquals(added.stream().sorted().toList(), visited);
    assertEquals(added.size(), store.urlCount());
  }

  @Test
  @Timeout(60)
  void concurrentAddCandidatesLoseNothingAndDuplicateNothing() throws Exception {
    int threads = 4;
    int universe = 6000;
    AtomicInteger added = new AtomicInteger();
    Concurrently.run(threads, t -> {
      int offset = t * 1000;
      // Each thread covers 3000 URLs of the universe, overlapping its neighbours'.
      for (int batch = 0; batch < 30; batch++) {
        List<Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < 100; i++) candidates.add(seed(syntheticUrl((offset + batch * 100 + i) % universe)));
        added.addAndGet(store.addCandidates(candidates));
      }
    });
    Set<String> expected = new HashSet<>();
    for (int t = 0; t < threads; t++) for (int i = 0; i < 3000; i++) expected.add(syntheticUrl((t * 1000 + i) % universe));
    assertEquals(expected.size(), added.get());
    assertEquals(expected.size(), store.urlCount());
    List<String> visited = new ArrayList<>();
    store.forEachUrl(url -> visited.add(url.url()));
    assertEquals(expected, new HashSet<>(visited));
    assertEquals(expected.size(), visited.size());
    int due = 0;
    for (int o = 0; o < 10; o++) due += store.due(Origin.ofUrl("https://s" + o + ".example"), T0, universe).size();
    assertEquals(expected.size(), due);
  }

  @Test
  @Timeout(60)
  void concurrentRecordsWithOverlappingDiscoveriesKeepEachUrlOnce() throws Exception {
    int threads = 4;
    Set<String> pages = ConcurrentHashMap.newKeySet();
    Concurrently.run(threads, thread -> {
      for (int p = 0; p < 50; p++) {
        String page = syntheticUrl(10_000 + thread * 100 + p);
        pages.add(page);
        List<Candidate> links = new ArrayList<>();
        for (int i = 0; i < 40; i++) links.add(new Candidate(syntheticUrl(p * 10 + i), 1, Optional.of(page)));
        store.record(crawl(page, T0, T0.plus(Duration.ofDays(1))), links);
      }
    });
    int links = 49 * 10 + 40;
    assertEquals(pages.size() + links, store.urlCount());
    AtomicInteger visited = new AtomicInteger();
    store.forEachUrl(url -> visited.incrementAndGet());
    assertEquals(pages.size() + links, visited.get());
    for (String page : pages) assertEquals(1, store.history(page).size());
  }

  @Test
  void theAgendaListsOriginsWithNewUrlsFirstThenByTheirFirstRecrawl() {
    store.addScope(List.of(A, A8080, B));
    store.addCandidates(List.of(seed("https://a.example/1"), seed("http://b.example/1"), seed("https://a.example:8080/1")));
    assertEquals(List.of(AgendaEntry.newWork(B), AgendaEntry.newWork(A), AgendaEntry.newWork(A8080)),
        store.agenda(T0, Optional.empty(), 10), "new work, in the origins' byte order (http before https)");

    store.record(crawl("https://a.example/1", T0, T0.plus(Duration.ofHours(2))), List.of());
    store.record(crawl("http://b.example/1", T0, T0.plus(Duration.ofHours(1))), List.of());
    assertEquals(Optional.of(T0.plus(Duration.ofHours(2))), store.settle(A, Optional.empty()));
    assertEquals(Optional.of(T0.plus(Duration.ofHours(1))), store.settle(B, Optional.empty()));
    assertEquals(Optional.of(AgendaEntry.NEW_WORK), store.settle(A8080, Optional.empty()), "still new work");

    assertEquals(List.of(AgendaEntry.newWork(A8080)), store.agenda(T0, Optional.empty(), 10),
        "a and b have nothing due before their recrawls");
    List<AgendaEntry> all = List.of(AgendaEntry.newWork(A8080), new AgendaEntry(T0.plus(Duration.ofHours(1)), B),
        new AgendaEntry(T0.plus(Duration.ofHours(2)), A));
    assertEquals(all, store.agenda(T0.plus(Duration.ofDays(1)), Optional.empty(), 10));
    assertEquals(all.subList(0, 2), store.agenda(T0.plus(Duration.ofHours(1)), Optional.empty(), 10), "cutoff inclusive");
    assertEquals(all.subList(1, 3), store.agenda(T0.plus(Duration.ofDays(1)), Optional.of(all.get(0)), 10), "after");
    assertEquals(all.subList(1, 2), store.agenda(T0.plus(Duration.ofDays(1)), Optional.of(all.get(0)), 1), "limit");
    assertEquals(List.of(), store.agenda(T0, Optional.empty(), 0));
  }

  @Test
  void aNewUrlPutsASettledOriginBackOnTheAgendaAtOnce() {
    store.addScope(List.of(A, B));
    store.addCandidates(List.of(seed("https://a.example/1"), seed("http://b.example/1")));
    store.record(crawl("https://a.example/1", T0, T0.plus(Duration.ofDays(3))), List.of());
    store.settle(A, Optional.empty());
    assertEquals(List.of(AgendaEntry.newWork(B)), store.agenda(T0, Optional.empty(), 10));

    // b's page links to a new page of a: a has work now, without being settled again.
    store.record(crawl("http://b.example/1", T0, T0.plus(Duration.ofDays(3))),
        List.of(link("https://a.example/2", 1)));
    assertTrue(store.agenda(T0, Optional.empty(), 10).contains(AgendaEntry.newWork(A)));
    reopen();
    assertTrue(store.agenda(T0, Optional.empty(), 10).contains(AgendaEntry.newWork(A)), "kept across a reopen");
  }

  @Test
  void settlingAnOriginWithoutUrlsTakesItOffTheAgenda() {
    store.addScope(List.of(A));
    assertEquals(Optional.empty(), store.settle(A, Optional.empty()));
    assertEquals(List.of(), store.agenda(T0.plus(Duration.ofDays(3650)), Optional.empty(), 10));
  }

  protected static Candidate seed(String url) {
    return Candidate.seed(url);
  }

  protected static Candidate link(String url, int depth) {
    return new Candidate(url, depth, Optional.of("https://a.example/"));
  }

  @Test
  void dueListsNewUrlsHighestPriorityFirstThenShallowest() {
    store.addCandidates(List.of(ranked("https://a.example/low", 1, 0.1), ranked("https://a.example/high", 3, 0.9),
        ranked("https://a.example/mid-deep", 2, 0.5), ranked("https://a.example/mid", 1, 0.5),
        seed("https://a.example/")));
    List<DueCandidate> due = store.due(A, T0, 10);
    assertEquals(List.of("https://a.example/", "https://a.example/high", "https://a.example/mid",
        "https://a.example/mid-deep", "https://a.example/low"), urls(due));
    assertEquals(List.of(1.0, Ranking.dequantize(Ranking.quantize(0.9))),
        due.subList(0, 2).stream().map(DueCandidate::priority).toList());
  }

  @Test
  void newUrlsAndDueRecrawlsAlternateOneForOne() {
    List<Candidate> seeds = new ArrayList<>();
    for (int i = 0; i < 6; i++) seeds.add(ranked("https://a.example/" + i, 1, 0.9 - i * 0.1));
    store.addCandidates(seeds);
    for (int i = 0; i < 2; i++) {
      store.record(crawl("https://a.example/" + i, T0, T0.plus(Duration.ofHours(i + 1))), List.of());
    }
    // 2..5 new (by priority), 0 and 1 crawled and due by a day later (by due time).
    Instant later = T0.plus(Duration.ofDays(1));
    assertEquals(List.of("https://a.example/2", "https://a.example/0", "https://a.example/3",
        "https://a.example/1", "https://a.example/4", "https://a.example/5"), urls(store.due(A, later, 10)));
    assertEquals(List.of("https://a.example/2", "https://a.example/0", "https://a.example/3"),
        urls(store.due(A, later, 3)));
    assertEquals(List.of("https://a.example/2", "https://a.example/3", "https://a.example/4",
        "https://a.example/5"), urls(store.due(A, T0, 10)), "recrawls not due yet are not listed");
  }

  @Test
  void aPagesFirstCrawlCountsItsLinksAsInlinksAndRaisesTheirPriority() {
    String x = "https://a.example/x";
    String y = "https://a.example/y";
    store.addCandidates(List.of(seed("https://a.example/p1"), seed("https://a.example/p2"),
        seed("https://a.example/p3")));
    store.record(crawl("https://a.example/p1", T0, T0.plus(Duration.ofDays(1))), List.of(link(x, 1), link(y, 1)));
    assertEquals(1, store.url(x).orElseThrow().inlinks());
    assertEquals(Ranking.dequantize(Ranking.quantize(0.5 / 3)), store.url(x).orElseThrow().priority());

    store.record(crawl("https://a.example/p2", T0, T0.plus(Duration.ofDays(1))), List.of(link(x, 1)));
    UrlRecord twice = store.url(x).orElseThrow();
    assertEquals(2, twice.inlinks());
    assertEquals(Ranking.dequantize(Ranking.quantize(0.5 * 2 / 4)), twice.priority());
    List<String> newOnes = urls(store.due(A, T0, 10));
    assertTrue(newOnes.indexOf(x) < newOnes.indexOf(y), "more inlinks first: " + newOnes);

    // A recrawl of a page counts nothing again; a crawled URL's inlinks no longer change.
    store.record(crawl("https://a.example/p2", T0.plus(Duration.ofDays(1)), T0.plus(Duration.ofDays(2))),
        List.of(link(x, 1)));
    assertEquals(2, store.url(x).orElseThrow().inlinks());
    store.record(crawl(x, T0, T0.plus(Duration.ofDays(1))), List.of());
    store.record(crawl("https://a.example/p3", T0, T0.plus(Duration.ofDays(1))), List.of(link(x, 1)));
    assertEquals(2, store.url(x).orElseThrow().inlinks());
    assertEquals(1, store.url(y).orElseThrow().inlinks());
  }

  /** Whether {@link CrawlStore#record(CrawlRecord, java.util.Collection, List)} answers in full, not a prefix. */
  protected boolean answersHeldInFull() {
    return false;
  }

  @Test
  void recordingWithHeldUrlsAnswersTheOriginsFirstDueUrls() {
    // A site whose pages link to one another at random: new URLs and inlinks that move URLs up land
    // before, among and after the URLs a crawler holds, as in a crawl.
    Random random = new Random(15);
    store.addCandidates(List.of(seed("https://a.example/")));
    List<DueCandidate> held = store.due(A, T0, 16);
    int merged = 0;
    for (int step = 0; step < 150 && !held.isEmpty(); step++) {
      DueCandidate next = held.get(0);
      List<DueCandidate> rest = List.copyOf(held.subList(1, held.size()));
      List<Candidate> links = new ArrayList<>();
      for (int i = random.nextInt(12); i > 0; i--) {
        links.add(new Candidate("https://a.example/p" + random.nextInt(200), next.depth() + 1, Optional.of(next.url())));
      }
      CrawlRecord page = crawl(next.url(), T0, T0.plus(Duration.ofDays(1)));
      if (rest.isEmpty()) {
        store.record(page, links);
        held = store.due(A, T0, 16);
        continue;
      }
      List<DueCandidate> after = store.record(page, links, rest);
      List<DueCandidate> due = store.due(A, T0, 1000);
      assertTrue(after.size() <= due.size(), "step " + step);
      assertEquals(due.subList(0, after.size()), after, "step " + step + ": a first part of what due reads");
      if (answersHeldInFull()) {
        DueCandidate last = rest.get(rest.size() - 1);
        long atOrBefore = due.stream().filter(d -> DUE_ORDER.compare(d, last) <= 0).count();
        assertEquals(atOrBefore, after.size(), "step " + step + ": every due URL up to the last held");
        for (DueCandidate c : after) {
          rest.stream().filter(h -> h.equals(c)).findFirst()
              .ifPresent(h -> assertSame(h, c, "an untouched held URL is the same object"));
        }
        if (!links.isEmpty()) merged++;
      }
      held = after.isEmpty() ? store.due(A, T0, 16) : after;
    }
    assertTrue(!answersHeldInFull() || merged > 50, "writes were merged: " + merged);
  }

  /** The URL recorded, were it among those held, is crawled now: never answered as still due (review of session 8). */
  @Test
  void recordingAHeldUrlAnswersItNoMore() {
    store.addCandidates(List.of(ranked("https://a.example/1", 1, 0.9), ranked("https://a.example/2", 1, 0.8),
        ranked("https://a.example/3", 1, 0.7)));
    List<DueCandidate> held = store.due(A, T0, 10);
    List<DueCandidate> after = store.record(crawl("https://a.example/1", T0, T0.plus(Duration.ofDays(1))), List.of(), held);
    assertEquals(List.of("https://a.example/2", "https://a.example/3"), urls(after));
    after = store.record(crawl("https://a.example/2", T0, T0.plus(Duration.ofDays(1))),
        List.of(link("https://a.example/4", 1)), after);
    assertFalse(urls(after).contains("https://a.example/2"), "crawled now: " + urls(after));
    assertEquals(store.due(A, T0, 10).subList(0, after.size()), after);
  }

  /**
   * A crawl turn's writes as one call (issue 15): the URLs refused before the page, then the page,
   * with what the held URLs are after; the same as recording them one by one.
   */
  @Test
  void refusalsRecordedWithThePageAreRecordedAsIfOneByOne() {
    String home = "https://a.example/";
    List<Candidate> links = new ArrayList<>();
    for (int i = 0; i < 8; i++) links.add(link("https://a.example/p" + i, 1));
    store.addCandidates(List.of(seed(home)));
    store.record(crawl(home, T0, T0.plus(Duration.ofDays(1))), links);
    List<DueCandidate> held = store.due(A, T0, 16);
    assertEquals(8, held.size());
    // The crawler polls the first three: two are refused, the third is the page crawled.
    CrawlRecord refusedFirst = refusal(held.get(0).url());
    CrawlRecord refusedSecond = refusal(held.get(1).url());
    String page = held.get(2).url();
    List<DueCandidate> rest = List.copyOf(held.subList(3, held.size()));
    List<Candidate> found = List.of(link(held.get(0).url(), 2), link("https://a.example/new", 2),
        link(rest.get(0).url(), 2));
    List<DueCandidate> after = store.record(List.of(refusedFirst, refusedSecond),
        crawl(page, T0, T0.plus(Duration.ofDays(1))), found, rest);

    for (CrawlRecord refused : List.of(refusedFirst, refusedSecond)) {
      UrlRecord url = store.url(refused.url()).orElseThrow();
      assertEquals(1, url.fetchCount(), refused.url());
      assertEquals(Optional.of(refused), url.lastCrawl());
      assertEquals(List.of(refused), store.history(refused.url()));
      assertEquals(1, url.inlinks(), "crawled before the page: its link counts nothing");
    }
    assertEquals(1, store.url(page).orElseThrow().fetchCount());
    assertEquals(2, store.url(rest.get(0).url()).orElseThrow().inlinks(), "the page's link counted");
    assertEquals(1, store.url("https://a.example/new").orElseThrow().inlinks());
    List<DueCandidate> due = store.due(A, T0, 1000);
    assertEquals(List.of(), due.stream().filter(d -> d.url().equals(refusedFirst.url())
        || d.url().equals(refusedSecond.url()) || d.url().equals(page)).toList(), "none is due any more");
    assertEquals(due.subList(0, after.size()), after, "the held URLs after the writes, as due reads them");
    assertEquals(List.of(refusedFirst.url()), urls(store.due(A, T0.plus(Duration.ofDays(7)), 1000)).stream()
        .filter(u -> u.equals(refusedFirst.url())).toList(), "due again when its record says");
    assertEquals(1 + 8 + 1, store.urlCount());
  }

  @Test
  void recordAllRecordsEachInOrder() {
    String u = "https://a.example/private/x";
    String v = "https://b.example/private/y";
    store.addCandidates(List.of(seed(u)));
    store.recordAll(List.of());
    CrawlRecord second = CrawlRecord.withoutRequest(u, T0.plusSeconds(1), Outcome.BLOCKED_URL_BY_LOCAL_POLICY,
        T0.plus(Duration.ofDays(2)));
    store.recordAll(List.of(refusal(u), second, refusal(v)));
    assertEquals(2, store.url(u).orElseThrow().fetchCount());
    assertEquals(Optional.of(second), store.url(u).orElseThrow().lastCrawl());
    assertEquals(List.of(refusal(u), second), store.history(u));
    assertEquals(1, store.url(v).orElseThrow().fetchCount(), "an unknown URL recorded is added");
    assertEquals(List.of(), store.due(A, T0.plus(Duration.ofDays(1)), 10));
  }

  /** A failure of the combined call is the page's: the page is not recorded, the call throws. */
  @Test
  void aFailedCombinedCallDoesNotRecordThePage() {
    String page = "https://a.example/page";
    store.addCandidates(List.of(seed(page)));
    assertThrows(IllegalArgumentException.class, () -> store.record(List.of(refusal("https://a.example/nul\0")),
        crawl(page, T0, T0.plus(Duration.ofDays(1))), List.of(link("https://a.example/new", 1)), List.of()));
    assertEquals(0, store.url(page).orElseThrow().fetchCount());
    assertEquals(Optional.empty(), store.url("https://a.example/new"));
    assertEquals(List.of(page), urls(store.due(A, T0, 10)));
  }

  /** What a cap's listener heard: dropped URLs per origin. */
  protected static final class DroppedUrls implements UrlCap.Dropped {
    final Map<String, Integer> byOrigin = new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public void dropped(String origin, int count) {
      byOrigin.merge(origin, count, Integer::sum);
    }
  }

  @Test
  void pastItsCapAnOriginsNewUrlsAreDroppedAndToldButSeedsAndKnownUrlsAreKept() {
    DroppedUrls dropped = new DroppedUrls();
    store.capUrls(UrlCap.of(3, dropped));
    assertEquals(2, store.addCandidates(List.of(seed("https://a.example/"), link("https://a.example/1", 1))));
    // One more fits; the page's other new links of a.example do not; b.example has its own count.
    store.record(crawl("https://a.example/", T0, T0.plus(Duration.ofDays(1))), List.of(link("https://a.example/1", 1),
        link("https://a.example/2", 1), link("https://a.example/3", 1), link("https://a.example/4", 1),
        link("http://b.example/x", 1)));
    assertEquals(3, countOf("https://a.example/"));
    assertEquals(Map.of("https://a.example", 2), dropped.byOrigin);
    assertTrue(store.url("http://b.example/x").isPresent());
    // A seed is always kept; a known URL is still recorded.
    assertEquals(1, store.addCandidates(List.of(seed("https://a.example/seed"))));
    store.record(crawl("https://a.example/1", T0, T0.plus(Duration.ofDays(1))), List.of(link("https://a.example/5", 2)));
    assertEquals(1, store.url("https://a.example/1").orElseThrow().fetchCount());
    assertEquals(Optional.empty(), store.url("https://a.example/5"));
    assertEquals(Map.of("https://a.example", 3), dropped.byOrigin);
    assertEquals(5, store.urlCount());
  }

  /** A URL counts once for each 256 characters begun: a site of long URLs keeps fewer, its bytes bounded too. */
  @Test
  void longUrlsCountAsSeveralAgainstTheCap() {
    DroppedUrls dropped = new DroppedUrls();
    store.capUrls(UrlCap.of(10, dropped));
    String long600a = "https://a.example/" + "a".repeat(600 - 18);
    String long600b = "https://a.example/" + "b".repeat(600 - 18);
    String long1000 = "https://a.example/" + "c".repeat(1000 - 18);
    assertEquals(3, UrlCap.weight(long600a));
    assertEquals(4, UrlCap.weight(long1000));
    assertEquals(1, UrlCap.weight("https://a.example/" + "d".repeat(256 - 18)));
    assertEquals(2, UrlCap.weight("https://a.example/" + "d".repeat(257 - 18)));
    assertEquals(3, store.addCandidates(List.of(seed("https://a.example/"), link(long600a, 1), link(long600b, 1))));
    reopen(); // the weighted count is what is kept
    store.capUrls(UrlCap.of(10, dropped));
    // 7 of 10 taken: a URL counting 4 does not fit, a short one does.
    assertEquals(0, store.addCandidates(List.of(link(long1000, 1))));
    assertEquals(Map.of("https://a.example", 1), dropped.byOrigin);
    assertEquals(1, store.addCandidates(List.of(link("https://a.example/short", 1))));
    assertEquals(Optional.empty(), store.url(long1000));
    assertTrue(store.url("https://a.example/short").isPresent());
    assertEquals(4, store.urlCount(), "the store's URL count is of URLs, not of their weight");
    // A seed is kept whatever its weight.
    assertEquals(1, store.addCandidates(List.of(seed(long1000))));
  }

  @Test
  void theCountOfAnOriginsUrlsIsKeptAcrossReopening() {
    store.capUrls(UrlCap.of(4, new DroppedUrls()));
    store.addCandidates(List.of(seed("https://a.example/"), link("https://a.example/1", 1), link("https://a.example/2", 1)));
    reopen();
    DroppedUrls dropped = new DroppedUrls();
    store.capUrls(UrlCap.of(4, dropped));
    assertEquals(1, store.addCandidates(List.of(link("https://a.example/3", 1), link("https://a.example/4", 1),
        link("https://a.example/5", 1))));
    assertEquals(Map.of("https://a.example", 2), dropped.byOrigin);
    assertEquals(4, countOf("https://a.example/"));
  }

  @Test
  void withoutACapEveryNewUrlIsKept() {
    List<Candidate> many = new ArrayList<>();
    for (int i = 0; i < 50; i++) many.add(link("https://a.example/" + i, 1));
    assertEquals(50, store.addCandidates(many));
  }

  /** How many URLs of the store start with {@code prefix}. */
  protected long countOf(String prefix) {
    long[] n = {0};
    store.forEachUrl(u -> {
      if (u.url().startsWith(prefix)) n[0]++;
    });
    return n[0];
  }

  protected static CrawlRecord refusal(String url) {
    return CrawlRecord.withoutRequest(url, T0, Outcome.BLOCKED_BY_ROBOTS_TXT, T0.plus(Duration.ofDays(7)));
  }

  /** The order of never-crawled URLs {@link CrawlStore#due} lists: priority (as kept), depth, URL. */
  private static final Comparator<DueCandidate> DUE_ORDER = Comparator
      .comparingInt((DueCandidate d) -> -Ranking.quantize(d.priority()))
      .thenComparingInt(DueCandidate::depth)
      .thenComparing(DueCandidate::url);

  @Test
  void anInlinkNeverLowersAPriority() {
    String entry = "https://a.example/from-sitemap";
    store.addCandidates(List.of(seed("https://a.example/"), ranked(entry, 1, 0.7)));
    assertEquals(0, store.url(entry).orElseThrow().inlinks());
    store.record(crawl("https://a.example/", T0, T0.plus(Duration.ofDays(1))), List.of(link(entry, 1)));
    UrlRecord linked = store.url(entry).orElseThrow();
    assertEquals(1, linked.inlinks());
    assertEquals(Ranking.dequantize(Ranking.quantize(0.7)), linked.priority());
  }

  @Test
  void hopsAndPriorityAreKeptAndReadBack() {
    String far = "https://b.example/far";
    store.addCandidates(List.of(new Candidate(far, 3, Optional.of("https://a.example/"), 2, Ranking.fixed(0.25))));
    UrlRecord url = store.url(far).orElseThrow();
    assertEquals(2, url.hops());
    assertEquals(Ranking.dequantize(Ranking.quantize(0.25)), url.priority());
    DueCandidate due = store.due(Origin.ofUrl(far), T0, 1).get(0);
    assertEquals(2, due.hops());
    assertEquals(url.priority(), due.priority());
    store.record(crawl(far, T0, T0.plus(Duration.ofHours(1))), List.of());
    DueCandidate again = store.due(Origin.ofUrl(far), T0.plus(Duration.ofDays(1)), 1).get(0);
    assertEquals(2, again.hops());
    assertEquals(url.priority(), again.priority());
    reopen();
    List<UrlRecord> all = new ArrayList<>();
    store.forEachUrl(all::add);
    assertEquals(2, all.get(0).hops());
    assertEquals(url.priority(), all.get(0).priority());
  }

  protected static Candidate ranked(String url, int depth, double priority) {
    return new Candidate(url, depth, Optional.of("https://a.example/"), 0, Ranking.fixed(priority));
  }

  protected static String syntheticUrl(int i) {
    return "https://s" + (i % 10) + ".example/page/" + i;
  }

  protected static CrawlRecord crawl(String url, Instant fetchedAt, Instant nextFetchAt) {
    return new CrawlRecord(url, fetchedAt, Outcome.FETCHED, 200, 42, Optional.of("text/html"), 1000,
        Optional.of("sha1:AAAA"), Optional.empty(), Optional.empty(), false, false, Optional.empty(),
        Optional.empty(), nextFetchAt);
  }

  private static CrawlRecord withValidators(CrawlRecord r, int status, String etag, String lastModified) {
    return new CrawlRecord(r.url(), r.fetchedAt(), status == 0 ? Outcome.NETWORK_ERROR : Outcome.FETCHED,
        status, r.durationMillis(), r.contentType(), r.contentLength(), r.digest(), r.redirectTo(),
        r.canonical(), r.noindex(), r.nofollow(), Optional.ofNullable(etag),
        Optional.ofNullable(lastModified), r.nextFetchAt());
  }

  private void assertValidators(String url, Instant cutoff, Optional<String> etag, Optional<String> lastModified) {
    DueCandidate due = store.due(Origin.ofUrl(url), cutoff, 1).get(0);
    assertEquals(etag, due.etag());
    assertEquals(lastModified, due.lastModified());
  }

  private static void assertSameState(OriginState expected, OriginState actual) {
    assertEquals(expected.origin(), actual.origin());
    assertEquals(expected.delayMillis(), actual.delayMillis());
    assertEquals(expected.patience(), actual.patience());
    assertTrue(actual.robotsTxt().isPresent());
    OriginState.RobotsTxt e = expected.robotsTxt().orElseThrow();
    OriginState.RobotsTxt a = actual.robotsTxt().orElseThrow();
    assertEquals(e.status(), a.status());
    assertArrayEquals(e.body(), a.body());
    assertEquals(e.fetchedAt(), a.fetchedAt());
    assertEquals(e.expiresAt(), a.expiresAt());
  }

  private static List<String> urls(List<DueCandidate> due) {
    return due.stream().map(DueCandidate::url).toList();
  }
}
