package org.forager.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.forager.store.Candidate;
import org.forager.store.Concurrently;
import org.forager.store.CrawlRecord;
import org.forager.store.LeaseLostException;
import org.forager.store.OriginLeases.Release;
import org.forager.store.OriginState;
import org.forager.url.Origin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Origin leases on a real PostgreSQL server: two crawler processes, each with its own store (its
 * own connection pool) on one database, as a fleet has them.
 */
@Timeout(120)
class PostgresCrawlStoreLeaseTest {

  private static final Duration HOUR = Duration.ofHours(1);
  private static final Release UNFINISHED = new Release.Unfinished();
  private static final Origin A = Origin.ofUrl("https://a.example");
  private static final Origin B = Origin.ofUrl("https://b.example");
  private static final Origin C = Origin.ofUrl("https://c.example");

  @TempDir
  static Path serverDir;

  private static TestPostgres postgres;
  private String schema;
  private String url;
  private PostgresCrawlStore one;
  private PostgresCrawlStore two;

  @BeforeAll
  static void startServer() {
    postgres = TestPostgres.start(serverDir.resolve("pgdata"));
  }

  @AfterAll
  static void stopServer() throws IOException {
    postgres.close();
  }

  @BeforeEach
  void openTwoStores() {
    url = postgres.freshSchema();
    schema = url.substring(url.indexOf("currentSchema=") + "currentSchema=".length());
    one = PostgresCrawlStore.open(url, 4);
    two = PostgresCrawlStore.open(url, 4);
  }

  @AfterEach
  void closeThem() {
    one.close();
    two.close();
  }

  @Test
  void aClaimTakesFreeScopeOriginsUpToItsMaximumAndNoOtherOwnerGetsThem() {
    one.addScope(List.of(C, A, B));
    assertEquals(List.of(A, B), one.claim("one", 2, HOUR, Instant.MAX));
    assertEquals(List.of(C), two.claim("two", 5, HOUR, Instant.MAX));
    assertEquals(List.of(), two.claim("two", 5, HOUR, Instant.MAX));
    assertEquals(List.of(), one.claim("one", 5, HOUR, Instant.MAX)); // not even its own again
    assertEquals(List.of(), one.claim("one", 0, HOUR, Instant.MAX));
  }

  @Test
  void anAddressLeaseIsOneOwnersUntilItExpiresOrIsReleased() {
    assertTrue(one.holdAddress("one", "192.0.2.1", HOUR));
    assertTrue(one.holdAddress("one", "192.0.2.1", HOUR), "renewed by its owner");
    assertFalse(two.holdAddress("two", "192.0.2.1", HOUR), "held by another");
    assertTrue(two.holdAddress("two", "2001:db8::1", HOUR), "another address is free");
    one.releaseAddress("two", "192.0.2.1"); // not two's: nothing happens
    assertFalse(two.holdAddress("two", "192.0.2.1", HOUR));
    one.releaseAddress("one", "192.0.2.1");
    // Free once released; taken back with a lease already over (a second in the past), as one that ran out.
    assertTrue(two.holdAddress("two", "192.0.2.1", Duration.ofSeconds(-1)), "free once released");
    assertTrue(one.holdAddress("one", "192.0.2.1", HOUR), "an expired lease is free for any owner");
  }

  @Test
  void onlyScopeOriginsAreLeased() {
    one.addCandidates(List.of(org.forager.store.Candidate.seed("https://elsewhere.example/")));
    assertEquals(List.of(), one.claim("one", 5, HOUR, Instant.MAX));
    two.addScope(List.of(A));
    assertEquals(List.of(A), one.claim("one", 5, HOUR, Instant.MAX));
  }

  @Test
  void aDiscoveredOriginIsClaimableLikeASeedOrigin() {
    one.addScope(List.of(A));
    two.addDiscoveredOrigins(List.of(C, B));
    assertEquals(List.of(A, B, C), one.claim("one", 5, HOUR, Instant.MAX));
    assertEquals(Set.of(A), two.seedOrigins());
  }

  @Test
  @Timeout(60)
  void ownersClaimingAtOnceNeverHoldTheSameOrigin() throws Exception {
    List<Origin> scope = new ArrayList<>();
    for (int i = 0; i < 200; i++) scope.add(Origin.ofUrl("https://o" + i + ".example"));
    one.addScope(scope);
    List<PostgresCrawlStore> stores = List.of(one, two, one, two);
    List<List<Origin>> claims = Concurrently.call(stores.size(), t -> {
      List<Origin> held = new ArrayList<>();
      for (List<Origin> got; !(got = stores.get(t).claim("owner-" + t, 3, HOUR, Instant.MAX)).isEmpty(); ) {
        held.addAll(got);
      }
      return held;
    });
    Set<Origin> union = new HashSet<>();
    int total = 0;
    for (List<Origin> held : claims) {
      total += held.size();
      union.addAll(held);
    }
    assertEquals(scope.size(), total, "an origin was leased twice");
    assertEquals(new HashSet<>(scope), union);
    assertEquals(List.of(String.valueOf(scope.size())), postgres.query(
        "SELECT count(DISTINCT origin) FROM " + schema + ".origin_lease WHERE owner LIKE 'owner-%'"));
  }

  @Test
  void anExpiredLeaseIsTakenOverAndItsOldOwnerLosesIt() {
    one.addScope(List.of(A, B));
    assertEquals(List.of(A, B), one.claim("dead", 5, HOUR, Instant.MAX));
    assertEquals(List.of(), two.claim("alive", 5, HOUR, Instant.MAX));

    expire("dead", A); // its process stopped renewing an hour ago
    assertEquals(List.of(A), two.claim("alive", 5, HOUR, Instant.MAX));

    assertEquals(List.of(B), one.renew("dead", HOUR));
    assertFalse(one.release("dead", A, UNFINISHED));
    assertEquals(List.of(A), two.renew("alive", HOUR));
  }

  @Test
  void aStaleHoldersLateWritesAreRefusedAndTheNewHoldersStateKept() {
    one.addScope(List.of(A, B));
    one.addCandidates(List.of(Candidate.seed("https://a.example/"), Candidate.seed("https://b.example/")));
    assertEquals(List.of(A, B), one.claim("stale", 5, HOUR, Instant.MAX));
    expire("stale", A); // it stalled past its lease
    assertEquals(List.of(A), two.claim("new", 5, HOUR, Instant.MAX));
    OriginState newState = new OriginState(A, Optional.empty(), 7000, 3);
    two.saveOriginState(newState);

    // What the stale holder learned of A after losing it: refused, nothing written.
    Instant later = Instant.now().plus(HOUR);
    LeaseLostException lost = assertThrows(LeaseLostException.class,
        () -> one.record(crawled("https://a.example/", later), List.of(Candidate.seed("https://a.example/new"))));
    assertEquals(A, lost.origin());
    assertThrows(LeaseLostException.class, () -> one.saveOriginState(new OriginState(A, Optional.empty(), 1, 9)));
    assertFalse(one.release("stale", A, UNFINISHED));
    assertEquals(newState, two.originState(A).orElseThrow());
    assertEquals(0, two.url("https://a.example/").orElseThrow().fetchCount());
    assertTrue(two.url("https://a.example/new").isEmpty());
    assertEquals(List.of("2"), postgres.query("SELECT epoch FROM " + schema + ".origin_lease WHERE origin = '" + A + "'"));

    // It carries on with the origin it still holds; the new holder's writes go through.
    one.record(crawled("https://b.example/", later), List.of());
    one.saveOriginState(new OriginState(B, Optional.empty(), 1000, 5));
    assertEquals(1, two.url("https://b.example/").orElseThrow().fetchCount());
    two.record(crawled("https://a.example/", later), List.of());
    assertEquals(1, one.url("https://a.example/").orElseThrow().fetchCount());
    assertTrue(one.release("stale", B, UNFINISHED));
  }

  @Test
  void anOriginClaimedAgainByItsFormerHolderIsWrittenUnderTheNewEpoch() {
    one.addScope(List.of(A));
    one.addCandidates(List.of(Candidate.seed("https://a.example/")));
    assertEquals(List.of(A), one.claim("one", 5, HOUR, Instant.MAX));
    assertTrue(one.release("one", A, UNFINISHED));
    assertEquals(List.of(A), two.claim("two", 5, HOUR, Instant.MAX));
    assertTrue(two.release("two", A, UNFINISHED));
    assertEquals(List.of(A), one.claim("one", 5, HOUR, Instant.MAX)); // epoch 3
    one.record(crawled("https://a.example/", Instant.now().plus(HOUR)), List.of());
    assertEquals(1, one.url("https://a.example/").orElseThrow().fetchCount());
  }

  @Test
  void aClaimSkipsAnOriginWhileItsHoldersFencedWriteIsOpen() throws Exception {
    one.addScope(List.of(A));
    assertEquals(List.of(A), one.claim("one", 5, HOUR, Instant.MAX));
    expire("one", A);
    // A fenced write holds the lease row's key-share lock until it commits: a claim meanwhile skips A.
    try (var connection = java.sql.DriverManager.getConnection(url)) {
      connection.setAutoCommit(false);
      try (var lock = connection.prepareStatement(
          "SELECT 1 FROM origin_lease WHERE origin = ? AND epoch = 1 FOR KEY SHARE")) {
        lock.setString(1, A.toString());
        assertTrue(lock.executeQuery().next());
      }
      assertEquals(List.of(), two.claim("two", 5, HOUR, Instant.MAX));
      connection.commit();
    }
    assertEquals(List.of(A), two.claim("two", 5, HOUR, Instant.MAX));
  }

  @Test
  void anExpiredLeaseNobodyTookIsRenewedByItsOwner() {
    one.addScope(List.of(A));
    assertEquals(List.of(A), one.claim("slow", 5, HOUR, Instant.MAX));
    expire("slow", A);
    assertEquals(List.of(A), one.renew("slow", HOUR));
    assertEquals(List.of(), two.claim("other", 5, HOUR, Instant.MAX));
  }

  @Test
  void aReleasedOriginIsFreeAtOnceAndClaimedAfterThoseFreeForLonger() {
    one.addScope(List.of(A, B, C));
    assertEquals(List.of(A), one.claim("one", 1, HOUR, Instant.MAX));
    assertTrue(one.release("one", A, UNFINISHED));
    assertFalse(one.release("one", A, UNFINISHED));
    assertEquals(List.of(), one.renew("one", HOUR));
    // Never-leased origins come first, then the released one.
    assertEquals(List.of(B), two.claim("two", 1, HOUR, Instant.MAX));
    assertEquals(List.of(C), two.claim("two", 1, HOUR, Instant.MAX));
    assertEquals(List.of(A), two.claim("two", 1, HOUR, Instant.MAX));
    assertTrue(two.release("two", C, UNFINISHED));
    assertTrue(two.release("two", A, UNFINISHED));
    // C was released first, so it has been free for longer.
    assertEquals(List.of(C), one.claim("one", 1, HOUR, Instant.MAX));
  }

  /** One crawls A's only URL (due again in 7 days) and releases A as done; returns the run's cutoff. */
  private Instant crawlAndReleaseWithNothingDue() {
    one.addScope(List.of(A));
    one.addCandidates(List.of(Candidate.seed("https://a.example/")));
    Instant cutoff = Instant.now();
    assertEquals(List.of(A), one.claim("one", 5, HOUR, cutoff));
    one.record(crawled("https://a.example/", cutoff.plus(Duration.ofDays(7))), List.of());
    assertTrue(one.release("one", A, new Release.NothingDue(cutoff)));
    return cutoff;
  }

  @Test
  void anOriginReleasedWithNothingDueWaitsForItsNextDueTimeUntilANewUrlOfItIsAdded() {
    Instant cutoff = crawlAndReleaseWithNothingDue();
    assertEquals(List.of(), one.claim("one", 5, HOUR, cutoff), "not even by its releaser");
    assertEquals(List.of(), two.claim("two", 5, HOUR, Instant.now()), "nothing due before its next due time");
    assertEquals(List.of("infinity"), postgres.query("SELECT CASE WHEN done_until > now() + interval '6 days'"
        + " THEN 'infinity' END FROM " + schema + ".origin_lease"));

    // A link to it found by another process: new work, free again at once.
    two.addCandidates(List.of(new Candidate("https://a.example/new", 1, java.util.Optional.empty())));
    assertEquals(List.of(A), two.claim("two", 5, HOUR, cutoff));
  }

  @Test
  void anOriginReleasedWithNothingDueIsFreeAgainOnceAUrlOfItIsBroughtForward() {
    Instant cutoff = crawlAndReleaseWithNothingDue();
    assertEquals(List.of(), two.claim("two", 5, HOUR, Instant.now()));

    // A sitemap read by another process says the page changed: due now, so the origin is work again.
    assertTrue(two.bringForward("https://a.example/", cutoff));
    assertEquals(List.of(A), two.claim("two", 5, HOUR, cutoff));
  }

  @Test
  void anOriginReleasedAsDoneWhileAUrlOfItCameDueIsFreeAtOnce() {
    one.addScope(List.of(A));
    one.addCandidates(List.of(Candidate.seed("https://a.example/"))); // due, as if added after the last due()
    Instant cutoff = Instant.now();
    assertEquals(List.of(A), one.claim("one", 5, HOUR, cutoff));
    assertTrue(one.release("one", A, new Release.NothingDue(cutoff)));
    assertEquals(List.of(A), two.claim("two", 5, HOUR, cutoff));
  }

  @Test
  void anOriginDoneUntilATimeIsLeftToClaimsWithALaterCutoff() {
    one.addScope(List.of(A));
    one.addCandidates(List.of(Candidate.seed("https://a.example/")));
    Instant cutoff = Instant.now();
    assertEquals(List.of(A), one.claim("one", 5, HOUR, cutoff));
    // Out of patience: done for a run whose cutoff is this one, not for a later run.
    assertTrue(one.release("one", A, new Release.DoneUntil(cutoff.plusNanos(1000))));
    assertEquals(List.of(), one.claim("one", 5, HOUR, cutoff));
    assertEquals(List.of(A), two.claim("two", 5, HOUR, cutoff.plusMillis(1)));
  }

  /**
   * A resting origin (one found blocked) is no one's and claimed by none until its rest ends, by time or
   * by endRests, and then by a claim with the same cutoff: its work is still the run's.
   */
  @Test
  void aRestingOriginIsFreeForTheRunOnceItsRestEnds() {
    one.addScope(List.of(A, B, C));
    Instant cutoff = Instant.now();
    assertEquals(List.of(A, B, C), one.claim("one", 5, HOUR, cutoff));
    assertTrue(one.release("one", A, new Release.Resting(Instant.now().plus(HOUR))));
    assertTrue(one.release("one", B, new Release.Resting(Instant.now().plus(HOUR))));
    assertTrue(one.release("one", C, new Release.Resting(Instant.now().minusSeconds(1))));
    assertFalse(two.othersHoldLeases("two"), "resting is not held");
    assertEquals(List.of(C), two.claim("two", 5, HOUR, cutoff), "a rest over: free for the same cutoff");
    assertEquals(1, two.endRests(origin -> origin.equals(B)));
    assertEquals(List.of(B), two.claim("two", 5, HOUR, cutoff));
    assertEquals(0, two.endRests(origin -> origin.equals(C)), "held, not resting");
  }

  @Test
  void othersHoldLeasesWhileAnotherOwnersLeaseRuns() {
    one.addScope(List.of(A, B));
    assertFalse(two.othersHoldLeases("two"));
    assertEquals(List.of(A), one.claim("one", 1, HOUR, Instant.MAX));
    assertTrue(two.othersHoldLeases("two"));
    assertFalse(one.othersHoldLeases("one"), "its own leases do not count");
    expire("one", A);
    assertFalse(two.othersHoldLeases("two"), "an expired lease does not count: its owner may be dead");
    assertEquals(List.of(A), one.renew("one", HOUR));
    assertTrue(one.release("one", A, UNFINISHED));
    assertFalse(two.othersHoldLeases("two"));
  }

  private static CrawlRecord crawled(String url, Instant next) {
    Instant now = Instant.now();
    return new CrawlRecord(url, now, org.forager.fetch.Outcome.FETCHED, 200, 1, java.util.Optional.empty(), 0,
        java.util.Optional.empty(), java.util.Optional.empty(), java.util.Optional.empty(), false, false,
        java.util.Optional.empty(), java.util.Optional.empty(), next);
  }

  @Test
  void leaseArgumentsAreChecked() {
    assertThrows(IllegalArgumentException.class, () -> one.claim(" ", 1, HOUR, Instant.MAX));
    assertThrows(IllegalArgumentException.class, () -> one.claim("one", 1, Duration.ZERO, Instant.MAX));
    assertThrows(IllegalArgumentException.class, () -> one.renew("one", Duration.ofSeconds(-1)));
  }

  /** Moves an owner's lease on an origin one hour into the past, as if its process had died. */
  private void expire(String owner, Origin origin) {
    postgres.execute("UPDATE " + schema + ".origin_lease SET expires_at = now() - interval '1 hour'"
        + " WHERE owner = '" + owner + "' AND origin = '" + origin + "'");
  }
}
