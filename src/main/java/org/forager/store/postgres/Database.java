package org.forager.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import java.util.regex.Pattern;
import org.forager.store.StoreException;

/**
 * The connection pool of one store and the one way to use it: a transaction that commits, or rolls
 * back and is retried when PostgreSQL aborted it for a deadlock or a serialization failure.
 * Connections are not in auto-commit mode, so every call is one transaction. Safe for concurrent
 * use.
 */
final class Database implements AutoCloseable {

  /** Deadlock detected, serialization failure: the transaction did nothing and can run again. */
  private static final Set<String> RETRYABLE = Set.of("40P01", "40001");
  private static final int ATTEMPTS = 5;
  private static final Pattern PASSWORD = Pattern.compile("(?i)(password=)[^&]*");

  private final HikariDataSource pool;
  /** The JDBC URL without its password, for messages. */
  final String name;
  private volatile boolean closed;

  private Database(HikariDataSource pool, String name) {
    this.pool = pool;
    this.name = name;
  }

  /**
   * Connects to the database: one connection is made at once, so an unreachable server or refused
   * login fails here.
   *
   * @throws StoreException naming the URL (without password) and the reason
   */
  static Database connect(String jdbcUrl, int maxConnections) {
    String name = redact(jdbcUrl);
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new StoreException("not a PostgreSQL JDBC URL (jdbc:postgresql://host/database): " + name);
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setPoolName("forager-store");
    config.setMaximumPoolSize(maxConnections);
    config.setAutoCommit(false);
    config.setConnectionTimeout(10_000);
    config.setInitializationFailTimeout(1); // one attempt at start: fail fast on a wrong URL
    try {
      return new Database(new HikariDataSource(config), name);
    } catch (HikariPool.PoolInitializationException e) {
      throw new StoreException("cannot connect to the crawl database " + name + ": " + reason(e), e);
    }
  }

  /** The URL with the value of any {@code password} parameter hidden. */
  static String redact(String jdbcUrl) {
    return PASSWORD.matcher(jdbcUrl).replaceAll("$1***");
  }

  /** A unit of work on one connection; it may run more than once, so it must not have other effects. */
  interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  /**
   * Runs {@code work} in one transaction and commits it.
   *
   * @throws StoreException naming the database when the transaction fails
   * @throws IllegalStateException after {@link #close()}
   */
  <T> T inTransaction(Work<T> work) {
    for (int attempt = 1; ; attempt++) {
      if (closed) throw new IllegalStateException("the crawl database " + name + " is closed");
      try (Connection connection = pool.getConnection()) {
        try {
          T result = work.run(connection);
          connection.commit();
          return result;
        } catch (SQLException | RuntimeException e) {
          try {
            connection.rollback();
          } catch (SQLException rollback) {
            e.addSuppressed(rollback); // the connection is likely broken; the first error says why
          }
          throw e;
        }
      } catch (SQLException e) {
        if (attempt < ATTEMPTS && RETRYABLE.contains(e.getSQLState())) continue;
        if (closed) throw new IllegalStateException("the crawl database " + name + " is closed", e);
        throw new StoreException("crawl database " + name + ": " + reason(e), e);
      }
    }
  }

  /** Closes every connection; closing twice is harmless. */
  @Override
  public void close() {
    closed = true;
    pool.close();
  }

  private static String reason(Throwable e) {
    // Hikari wraps the driver's exception; the driver's message is the useful one.
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException && cause.getMessage() != null) return cause.getMessage();
    }
    return String.valueOf(e.getMessage());
  }
}
