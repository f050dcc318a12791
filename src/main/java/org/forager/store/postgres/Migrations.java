package org.forager.store.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.forager.store.StoreException;

/**
 * Brings a database's schema to the version this code knows, from versioned SQL files on the class
 * path applied in order; {@code schema_version} lists those applied. All of it runs in one
 * transaction under an advisory lock, so processes opening the store at once apply each file once,
 * and a failed file leaves the schema as it was (PostgreSQL's DDL is transactional). Stateless.
 */
final class Migrations {

  /** The files in order; file i (from 0) brings the schema to version i + 1. Never edit one: add one. */
  static final List<String> FILES = List.of("V1__crawl_store.sql", "V2__origin_done_until.sql",
      "V3__duplicates.sql", "V4__crawl_setting.sql", "V5__seed_origins.sql", "V6__priority.sql",
      "V7__run_progress.sql",
      "V8__address_lease.sql",
      "V9__lease_epoch.sql",
      "V10__blocked_host.sql",
      "V11__sitemaps_read_at.sql",
      "V12__origin_wait_until.sql",
      "V13__url_count_units.sql");

  /** Any constant: serializes schema changes of every store opening this database. */
  private static final long LOCK_KEY = 0x666f7261676572L; // "forager"

  private Migrations() {}

  /**
   * Applies the files the database lacks.
   *
   * @return the schema version now
   * @throws StoreException when the database's schema is newer than this code (written by a newer
   *     Forager), or a file fails
   */
  static int migrate(Database database) {
    return migrate(database, FILES.size());
  }

  /**
   * Checks, writing nothing, that the database holds a crawl whose schema this code reads as it is: the
   * read-only commands must not upgrade a schema under a fleet of older Foragers (an upgrade locks them
   * out), nor read tables an older schema lacks.
   *
   * @return the schema version
   * @throws StoreException naming the database when it holds no crawl, or its schema is older or
   *     newer than this code's
   */
  static int readable(Database database) {
    int current = database.inTransaction(Migrations::appliedVersion);
    if (current <= 0) {
      throw new StoreException("the crawl database " + database.name + " holds no crawl (no Forager schema in it)");
    }
    if (current > FILES.size()) throw newerThanThisCode(database, current);
    if (current < FILES.size()) {
      throw new StoreException("the crawl database " + database.name + " has schema version " + current
          + ", from an older Forager (this one reads version " + FILES.size() + "): read it with the Forager that"
          + " crawls it; the next crawl by this Forager upgrades it (and then only Foragers as new read it)");
    }
    return current;
  }

  private static StoreException newerThanThisCode(Database database, int version) {
    return new StoreException("the crawl database " + database.name + " has schema version " + version
        + ", unknown to this Forager (it knows versions up to " + FILES.size() + "): upgrade Forager");
  }

  /** Applies the files the database lacks up to version {@code target}: a past schema, for tests. */
  static int migrate(Database database, int target) {
    return database.inTransaction(connection -> {
      try (Statement statement = connection.createStatement()) {
        statement.execute("SELECT pg_advisory_xact_lock(" + LOCK_KEY + ")");
      }
      int current = currentVersion(connection);
      if (current > FILES.size()) throw newerThanThisCode(database, current);
      for (int version = current + 1; version <= target; version++) {
        String file = FILES.get(version - 1);
        try (Statement statement = connection.createStatement()) {
          statement.execute(read(file));
        }
        try (PreparedStatement insert =
            connection.prepareStatement("INSERT INTO schema_version (version, script) VALUES (?, ?)")) {
          insert.setInt(1, version);
          insert.setString(2, file);
          insert.executeUpdate();
        }
      }
      return Math.max(current, target);
    });
  }

  /** The highest version applied, 0 for an empty database (whose schema_version it creates). */
  private static int currentVersion(Connection connection) throws SQLException {
    int applied = appliedVersion(connection);
    if (applied >= 0) return applied;
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE schema_version (version integer PRIMARY KEY,"
          + " script text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
    }
    return 0;
  }

  /** The highest version applied, -1 when the database has no schema_version (nothing written). */
  private static int appliedVersion(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      // Looked up before any CREATE: a role without the CREATE privilege can open an existing store.
      try (ResultSet exists = statement.executeQuery("SELECT to_regclass('schema_version') IS NOT NULL")) {
        exists.next();
        if (!exists.getBoolean(1)) return -1;
      }
      try (ResultSet rows = statement.executeQuery("SELECT coalesce(max(version), 0) FROM schema_version")) {
        rows.next();
        return rows.getInt(1);
      }
    }
  }

  private static String read(String file) {
    try (InputStream in = Migrations.class.getResourceAsStream(file)) {
      if (in == null) throw new IllegalStateException("schema file missing from the class path: " + file);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the schema file " + file, e);
    }
  }
}
