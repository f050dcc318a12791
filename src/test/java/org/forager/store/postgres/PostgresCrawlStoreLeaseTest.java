package org.forager.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
  private static final Origin A = Origin.ofUrl("https://a.example");
  private static final Origin B = Origin.ofUrl("https://b.example");
  private static final Origin C = Origin.ofUrl("https://c.example");

  @TempDir
  static Path serverDir;

  private static TestPostgres postgres;
  private String schema;
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
    String url = postgres.freshSchema();
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
    assertEquals(List.of(A, B), one.claimOrigins("one", 2, HOUR));
    assertEquals(List.of(C), two.claimOrigins("two", 5, HOUR));
    assertEquals(List.of(), two.claimOrigins("two", 5, HOUR));
    assertEquals(List.of(), one.claimOrigins("one", 5, HOUR)); // not even its own again
    assertEquals(List.of(), one.claimOrigins("one", 0, HOUR));
  }

  @Test
  void onlyScopeOriginsAreLeased() {
    one.addCandidates(List.of(org.forager.store.Candidate.seed("https://elsewhere.example/")));
    assertEquals(List.of(), one.claimOrigins("one", 5, HOUR));
    two.addScope(List.of(A));
    assertEquals(List.of(A), one.claimOrigins("one", 5, HOUR));
  }

  @Test
  @Timeout(60)
  void ownersClaimingAtOnceNeverHoldTheSameOrigin() throws Exception {
    List<Origin> scope = new ArrayList<>();
    for (int i = 0; i < 200; i++) scope.add(Origin.ofUrl("https://o" + i + ".example"));
    one.addScope(scope);
    List<PostgresCrawlStore> stores = List.of(one, two, one, two);
    CyclicBarrier start = new CyclicBarrier(stores.size());
    ExecutorService pool = Executors.newFixedThreadPool(stores.size());
    List<Future<List<Origin>>> claims = new ArrayList<>();
    try {
      for (int t = 0; t < stores.size(); t++) {
        PostgresCrawlStore store = stores.get(t);
        String owner = "owner-" + t;
        claims.add(pool.submit(() -> {
          start.await();
          List<Origin> held = new ArrayList<>();
          for (List<Origin> got; !(got = store.claimOrigins(owner, 3, HOUR)).isEmpty(); ) held.addAll(got);
          return held;
        }));
      }
      Set<Origin> union = new HashSet<>();
      int total = 0;
      for (Future<List<Origin>> claim : claims) {
        List<Origin> held = claim.get();
        total += held.size();
        union.addAll(held);
      }
      assertEquals(scope.size(), total, "an origin was leased twice");
      assertEquals(new HashSet<>(scope), union);
    } finally {
      pool.shutdown();
    }
    assertEquals(List.of(String.valueOf(scope.size())), postgres.query(
        "SELECT count(DISTINCT origin) FROM " + schema + ".origin_lease WHERE owner LIKE 'owner-%'"));
  }

  @Test
  void anExpiredLeaseIsTakenOverAndItsOldOwnerLosesIt() {
    one.addScope(List.of(A, B));
    assertEquals(List.of(A, B), one.claimOrigins("dead", 5, HOUR));
    assertEquals(List.of(), two.claimOrigins("alive", 5, HOUR));

    expire("dead", A); // its process stopped renewing an hour ago
    assertEquals(List.of(A), two.claimOrigins("alive", 5, HOUR));

    assertEquals(List.of(B), one.renewLeases("dead", HOUR));
    assertFalse(one.releaseOrigin("dead", A));
    assertEquals(List.of(A), two.renewLeases("alive", HOUR));
  }

  @Test
  void anExpiredLeaseNobodyTookIsRenewedByItsOwner() {
    one.addScope(List.of(A));
    assertEquals(List.of(A), one.claimOrigins("slow", 5, HOUR));
    expire("slow", A);
    assertEquals(List.of(A), one.renewLeases("slow", HOUR));
    assertEquals(List.of(), two.claimOrigins("other", 5, HOUR));
  }

  @Test
  void aReleasedOriginIsFreeAtOnceAndClaimedAfterThoseFreeForLonger() {
    one.addScope(List.of(A, B, C));
    assertEquals(List.of(A), one.claimOrigins("one", 1, HOUR));
    assertTrue(one.releaseOrigin("one", A));
    assertFalse(one.releaseOrigin("one", A));
    assertEquals(List.of(), one.renewLeases("one", HOUR));
    // Never-leased origins come first, then the released one.
    assertEquals(List.of(B), two.claimOrigins("two", 1, HOUR));
    assertEquals(List.of(C), two.claimOrigins("two", 1, HOUR));
    assertEquals(List.of(A), two.claimOrigins("two", 1, HOUR));
    assertTrue(two.releaseOrigin("two", C));
    assertTrue(two.releaseOrigin("two", A));
    // C was released first, so it has been free for longer.
    assertEquals(List.of(C), one.claimOrigins("one", 1, HOUR));
  }

  @Test
  void leaseArgumentsAreChecked() {
    assertThrows(IllegalArgumentException.class, () -> one.claimOrigins(" ", 1, HOUR));
    assertThrows(IllegalArgumentException.class, () -> one.claimOrigins("one", 1, Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> one.renewLeases("one", Duration.ofSeconds(-1)));
  }

  /** Moves an owner's lease on an origin one hour into the past, as if its process had died. */
  private void expire(String owner, Origin origin) {
    postgres.execute("UPDATE " + schema + ".origin_lease SET expires_at = now() - interval '1 hour'"
        + " WHERE owner = '" + owner + "' AND origin = '" + origin + "'");
  }
}
