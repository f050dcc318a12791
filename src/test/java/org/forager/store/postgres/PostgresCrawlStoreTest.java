package org.forager.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.forager.store.CrawlStore;
import org.forager.store.CrawlStoreConformanceTest;
import org.forager.store.StoreException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The conformance suite on a real PostgreSQL server, plus what is particular to it. */
@Timeout(120)
class PostgresCrawlStoreTest extends CrawlStoreConformanceTest {

  @TempDir
  static Path serverDir;

  private static TestPostgres postgres;
  private String url;

  @BeforeAll
  static void startServer() {
    postgres = TestPostgres.start(serverDir.resolve("pgdata"));
  }

  @AfterAll
  static void stopServer() throws IOException {
    postgres.close();
  }

  @Override
  protected CrawlStore openStore() {
    if (url == null) url = postgres.freshSchema(); // the first open of each test: a schema of its own
    return PostgresCrawlStore.open(url, 4);
  }

  @Test
  void reopeningAppliesNoSchemaFileTwice() {
    reopen();
    PostgresCrawlStore.open(url, 1).close();
    assertEquals(List.of("1 V1__crawl_store.sql", "2 V2__origin_done_until.sql", "3 V3__duplicates.sql",
        "4 V4__crawl_setting.sql", "5 V5__seed_origins.sql", "6 V6__priority.sql", "7 V7__run_progress.sql", "8 V8__address_lease.sql", "9 V9__lease_epoch.sql", "10 V10__blocked_host.sql", "11 V11__sitemaps_read_at.sql", "12 V12__origin_wait_until.sql", "13 V13__url_count_units.sql"),
        postgres.query("SELECT version || ' ' || script FROM " + schema() + ".schema_version ORDER BY version"));
  }

  @Test
  void aStoreAtSchemaVersion3MigratesToVersion4KeepingItsData() {
    store.close();
    String old = postgres.freshSchema();
    try (Database database = Database.connect(old, Optional.empty(), 1)) {
      assertEquals(3, Migrations.migrate(database, 3));
    }
    String oldSchema = old.substring(old.indexOf("currentSchema=") + "currentSchema=".length());
    postgres.execute("INSERT INTO " + oldSchema + ".crawl_scope (origin) VALUES ('https://a.example')");
    assertEquals(List.of("false"),
        postgres.query("SELECT (to_regclass('" + oldSchema + ".crawl_setting') IS NOT NULL)::text"));

    store = PostgresCrawlStore.open(old, 2);
    assertEquals(List.of("4 V4__crawl_setting.sql", "5 V5__seed_origins.sql", "6 V6__priority.sql", "7 V7__run_progress.sql", "8 V8__address_lease.sql", "9 V9__lease_epoch.sql", "10 V10__blocked_host.sql", "11 V11__sitemaps_read_at.sql", "12 V12__origin_wait_until.sql", "13 V13__url_count_units.sql"),
        postgres.query("SELECT version || ' ' || script FROM " + oldSchema + ".schema_version WHERE version > 3"));
    assertEquals(Set.of(A), store.scope());
    assertEquals(Optional.empty(), store.setting("scope.mode"));
    store.saveSetting("scope.mode", "domains");
    assertEquals(Optional.of("domains"), store.setting("scope.mode"));
  }

  /** Counts written before the weighted cap (version 12) stand for the origin's weight: the cap still holds. */
  @Test
  void aStoreAtSchemaVersion12KeepsItsUrlCountsAgainstTheCap() {
    store.close();
    String old = postgres.freshSchema();
    try (Database database = Database.connect(old, Optional.empty(), 1)) {
      assertEquals(12, Migrations.migrate(database, 12));
    }
    String oldSchema = old.substring(old.indexOf("currentSchema=") + "currentSchema=".length());
    postgres.execute("INSERT INTO " + oldSchema + ".crawl_url_count (origin, urls) VALUES ('https://a.example', 3)");

    store = PostgresCrawlStore.open(old, 2);
    assertEquals(List.of("13 V13__url_count_units.sql"),
        postgres.query("SELECT version || ' ' || script FROM " + oldSchema + ".schema_version WHERE version > 12"));
    store.capUrls(org.forager.store.UrlCap.of(5, (origin, count) -> {}));
    String long300 = "https://a.example/" + "x".repeat(300 - 18); // counts 2: fits the 2 left
    assertEquals(1, store.addCandidates(List.of(link(long300, 1))));
    assertEquals(List.of("4 5"), postgres.query("SELECT urls || ' ' || units FROM " + oldSchema
        + ".crawl_url_count WHERE origin = 'https://a.example'"));
    assertEquals(0, store.addCandidates(List.of(link("https://a.example/more", 1))));
  }

  @Test
  void aStoreAtSchemaVersion4MigratesToVersion5ReadingItsOldScopeAsSeedOrigins() {
    store.close();
    String old = postgres.freshSchema();
    try (Database database = Database.connect(old, Optional.empty(), 1)) {
      assertEquals(4, Migrations.migrate(database, 4));
    }
    String oldSchema = old.substring(old.indexOf("currentSchema=") + "currentSchema=".length());
    postgres.execute("INSERT INTO " + oldSchema + ".crawl_scope (origin) VALUES ('https://a.example')");
    postgres.execute("INSERT INTO " + oldSchema + ".origin_lease (origin) VALUES ('https://a.example')");
    postgres.execute("INSERT INTO " + oldSchema + ".crawl_setting (name, value) VALUES ('scope.mode', 'open')");

    store = PostgresCrawlStore.open(old, 2);
    assertEquals(List.of("5 V5__seed_origins.sql", "6 V6__priority.sql", "7 V7__run_progress.sql", "8 V8__address_lease.sql", "9 V9__lease_epoch.sql", "10 V10__blocked_host.sql", "11 V11__sitemaps_read_at.sql", "12 V12__origin_wait_until.sql", "13 V13__url_count_units.sql"),
        postgres.query("SELECT version || ' ' || script FROM " + oldSchema + ".schema_version WHERE version > 4"));
    assertEquals(Set.of(A), store.scope());
    assertEquals(Set.of(A), store.seedOrigins());
    assertEquals(Optional.of("open"), store.setting("scope.mode"));
    store.addDiscoveredOrigins(List.of(B));
    assertEquals(Set.of(A, B), store.scope());
    assertEquals(Set.of(A), store.seedOrigins());
  }

  @Test
  void aSavedSettingIsSharedByTwoStoresOnOneDatabaseAndStampsItsChange() {
    try (PostgresCrawlStore other = PostgresCrawlStore.open(url, 1)) {
      store.saveSetting("scope.mode", "origins");
      assertEquals(Optional.of("origins"), other.setting("scope.mode"));
      postgres.execute("UPDATE " + schema() + ".crawl_setting SET updated_at = '2000-01-01Z'");
      other.saveSetting("scope.mode", "open");
      assertEquals(Optional.of("open"), store.setting("scope.mode"));
      assertEquals(List.of("true"), postgres.query("SELECT (updated_at > '2001-01-01Z')::text FROM " + schema()
          + ".crawl_setting WHERE name = 'scope.mode'"));
    }
  }

  @Test
  void aRoleThatMayNotCreateTablesOpensAnExistingStore() {
    String role = schema() + "_crawler";
    postgres.execute("CREATE ROLE " + role + " LOGIN");
    postgres.execute("GRANT USAGE ON SCHEMA " + schema() + " TO " + role);
    postgres.execute("GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA " + schema() + " TO " + role);
    try (PostgresCrawlStore crawler = PostgresCrawlStore.open(url.replace("user=postgres", "user=" + role), 1)) {
      assertEquals(1, crawler.addCandidates(List.of(seed("https://a.example/"))));
      crawler.record(crawl("https://a.example/", T0, T0), List.of());
      assertEquals(1, crawler.history("https://a.example/").size());
    }
  }

  @Test
  void aSchemaVersionFromTheFutureFailsTheOpenNamingTheUrl() {
    postgres.execute("INSERT INTO " + schema() + ".schema_version (version, script) VALUES (99, 'V99__future.sql')");
    StoreException e = assertThrows(StoreException.class, () -> PostgresCrawlStore.open(url));
    assertTrue(e.getMessage().contains("schema version 99"), e.getMessage());
    assertTrue(e.getMessage().contains(url), e.getMessage());
  }

  @Test
  void aReaderReadsTheStoreAndTheServerRefusesItsWrites() {
    store.addScope(List.of(A));
    store.addCandidates(List.of(seed("https://a.example/1")));
    try (PostgresCrawlStore reader = PostgresCrawlStore.openForReading(url, Optional.empty())) {
      assertEquals(1, reader.urlCount());
      assertEquals(Set.of(A), reader.scope());
      StoreException e = assertThrows(StoreException.class,
          () -> reader.addCandidates(List.of(seed("https://a.example/2"))));
      assertTrue(e.getMessage().contains("read-only transaction"), e.getMessage());
    }
    assertEquals(1, store.urlCount());
  }

  /** A newer Forager's status must not upgrade the schema under a fleet of older ones (locking them out). */
  @Test
  void aReaderLeavesAnOlderSchemaAsItIsAndSaysWhy() {
    store.close();
    String old = postgres.freshSchema();
    try (Database database = Database.connect(old, Optional.empty(), 1)) {
      assertEquals(10, Migrations.migrate(database, 10));
    }
    StoreException e = assertThrows(StoreException.class, () -> PostgresCrawlStore.openForReading(old, Optional.empty()));
    assertTrue(e.getMessage().startsWith("the crawl database " + old + " has schema version 10, from an older Forager"
        + " (this one reads version 13)"), e.getMessage());
    String oldSchema = old.substring(old.indexOf("currentSchema=") + "currentSchema=".length());
    assertEquals(List.of("10"), postgres.query("SELECT max(version)::text FROM " + oldSchema + ".schema_version"));
    store = openStore();
  }

  @Test
  void aReaderOfAnEmptyDatabaseSaysItHoldsNoCrawlAndCreatesNothing() {
    String empty = postgres.freshSchema();
    StoreException e = assertThrows(StoreException.class, () -> PostgresCrawlStore.openForReading(empty, Optional.empty()));
    assertEquals("the crawl database " + empty + " holds no crawl (no Forager schema in it)", e.getMessage());
    String emptySchema = empty.substring(empty.indexOf("currentSchema=") + "currentSchema=".length());
    assertEquals(List.of("0"), postgres.query("SELECT count(*)::text FROM pg_tables WHERE schemaname = '"
        + emptySchema + "'"));
  }

  @Test
  void aReaderOfASchemaFromTheFutureSaysUpgrade() {
    postgres.execute("INSERT INTO " + schema() + ".schema_version (version, script) VALUES (99, 'V99__future.sql')");
    StoreException e = assertThrows(StoreException.class, () -> PostgresCrawlStore.openForReading(url, Optional.empty()));
    assertTrue(e.getMessage().endsWith("has schema version 99, unknown to this Forager (it knows versions up to 13):"
        + " upgrade Forager"), e.getMessage());
  }

  @Test
  void anUnreachableServerFailsTheOpenNamingTheUrlWithoutItsPassword() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    String unreachable = "jdbc:postgresql://127.0.0.1:" + port + "/crawl?user=forager&password=s3cret";
    StoreException e = assertThrows(StoreException.class, () -> PostgresCrawlStore.open(unreachable));
    assertTrue(e.getMessage().contains("jdbc:postgresql://127.0.0.1:" + port + "/crawl?user=forager&password=***"),
        e.getMessage());
    assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
  }

  @Test
  void aWrongPasswordIsNotInTheMessage() {
    // The test server trusts loopback logins, so a wrong database name stands in for a refused login.
    String wrong = postgres.jdbcUrl().replace("/postgres?", "/no_such_db?") + "&password=hunter2";
    StoreException e = assertThrows(StoreException.class, () -> PostgresCrawlStore.open(wrong));
    assertTrue(e.getMessage().contains("no_such_db"), e.getMessage());
    assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
  }

  @Test
  void closingTwiceIsHarmlessAndUseAfterCloseFailsCleanly() {
    store.close();
    store.close();
    assertThrows(IllegalStateException.class, () -> store.url("https://a.example/"));
    store = openStore();
  }

  @Test
  void theUrlCountIsSharedByTwoStoresOnOneDatabase() {
    try (PostgresCrawlStore other = PostgresCrawlStore.open(url, 2)) {
      store.addCandidates(List.of(seed("https://a.example/1"), seed("http://b.example/1")));
      assertEquals(1, other.addCandidates(List.of(seed("https://a.example/1"), seed("https://a.example/2"))));
      assertEquals(3, store.urlCount());
      assertEquals(3, other.urlCount());
    }
  }

  private String schema() {
    return url.substring(url.indexOf("currentSchema=") + "currentSchema=".length());
  }
}
