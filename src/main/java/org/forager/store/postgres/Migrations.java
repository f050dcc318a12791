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
      "V11__sitemaps_read_at.sql");

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

  /** Applies the files the database lacks up to version {@code target}: a past schema, for tests. */
  static int migrate(Database database, int target) {
    return database.inTransaction(connection -> {
      try (Statement statement = connection.createStatement()) {
        statement.execute("SELECT pg_advisory_xact_lock(" + LOCK_KEY + ")");
      }
      int current = currentVersion(connection);
      if (current > FILES.size()) {
        throw new StoreException("the crawl database " + database.name + " has schema version "
            + current + ", unknown to this Forager (it knows versions up to " + FILES.size()
            + "): upgrade Forager");
      }
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
    try (Statement statement = connection.createStatement()) {
      // Looked up before any CREATE: a role without the CREATE privilege can open an existing store.
      try (ResultSet exists = statement.executeQuery("SELECT to_regclass('schema_version') IS NOT NULL")) {
        exists.next();
        if (!exists.getBoolean(1)) {
          statement.execute("CREATE TABLE schema_version (version integer PRIMARY KEY,"
              + " script text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
          return 0;
        }
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
