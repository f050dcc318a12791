package org.forager.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;
import java.util.Set;
import org.forager.config.StoreUrl;
import org.forager.store.StoreException;
import org.forager.store.StoreUnavailableException;

/**
 * The connection pool of one store and the one way to use it: a transaction that commits, or rolls
 * back and is retried when PostgreSQL aborted it for a deadlock or a serialization failure.
 * Connections are not in auto-commit mode, so every call is one transaction. A server that cannot be
 * reached (down, restarting, refusing connections) is a {@link StoreUnavailableException}, never
 * retried here: the caller decides how to wait, and the pool makes new connections once the server
 * is back (a broken connection is evicted on its first error). Safe for concurrent use.
 */
final class Database implements AutoCloseable {

  /**
   * Deadlock detected, serialization failure, a lock not granted within a group's lock_timeout
   * ({@link GroupCommitter}): the transaction did nothing and can run again.
   */
  private static final Set<String> RETRYABLE = Set.of("40P01", "40001", "55P03");
  private static final int ATTEMPTS = 5;
  /**
   * The server is not there (class 08: connection exception; 57P01-03: shut down by an administrator,
   * crashed, starting up or shutting down; 53300: too many connections).
   */
  private static final Set<String> UNAVAILABLE = Set.of("57P01", "57P02", "57P03", "53300");

  private final HikariDataSource pool;
  /** The JDBC URL without its secrets ({@link StoreUrl#redact}), for messages. */
  final String name;
  private final Optional<String> password;
  private volatile boolean closed;

  private Database(HikariDataSource pool, String name, Optional<String> password) {
    this.pool = pool;
    this.name = name;
    this.password = password;
  }

  /**
   * Connects to the database: one connection is made at once, so an unreachable server or refused
   * login fails here.
   *
   * @param password the login password when the URL has none (see {@link Passwords})
   * @throws StoreException naming the URL (without its secrets) and the reason
   */
  static Database connect(String jdbcUrl, Optional<String> password, int maxConnections) {
    return connect(jdbcUrl, password, maxConnections, false);
  }

  /**
   * As {@link #connect(String, Optional, int)}; {@code readOnly} makes every transaction read-only, so
   * that the server itself refuses a write (the status and export commands' connections).
   */
  static Database connect(String jdbcUrl, Optional<String> password, int maxConnections, boolean readOnly) {
    String name = StoreUrl.redact(jdbcUrl);
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new StoreException("not a PostgreSQL JDBC URL (jdbc:postgresql://host/database): " + name);
    }
    if (StoreUrl.hasUserinfo(jdbcUrl)) {
      // pgjdbc would take "user:password" for a host name and put it in its error messages.
      throw new StoreException("cannot connect to the crawl database " + name + ": the PostgreSQL driver "
          + "reads no user:password@ in a JDBC URL; give ?user=NAME and the password apart");
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    password.ifPresent(config::setPassword);
    config.setPoolName("forager-store");
    config.setMaximumPoolSize(maxConnections);
    config.setAutoCommit(false);
    config.setReadOnly(readOnly);
    config.setConnectionTimeout(10_000);
    config.setInitializationFailTimeout(1); // one attempt at start: fail fast on a wrong URL
    try {
      return new Database(new HikariDataSource(config), name, password);
    } catch (HikariPool.PoolInitializationException e) {
      throw new StoreException("cannot connect to the crawl database " + name + ": " + reason(e, password), e);
    }
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
        if (unavailable(e)) {
          // The first line says it; the server's context lines ("Where: ...") would only repeat it.
          String reason = reason(e, password).lines().findFirst().orElse("");
          throw new StoreUnavailableException("crawl database " + name + " unavailable: " + reason, e);
        }
        throw new StoreException("crawl database " + name + ": " + reason(e, password), e);
      }
    }
  }

  /** Closes every connection; closing twice is harmless. */
  @Override
  public void close() {
    closed = true;
    pool.close();
  }

  /**
   * Whether a failure says the server cannot be reached rather than that the work was wrong. The
   * pool's own timeout waiting for a connection counts (its cause is the last failed attempt, or all
   * connections were busy for the whole timeout: a server that cannot keep up either).
   */
  static boolean unavailable(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLTransientConnectionException) return true;
      if (t instanceof SQLException s && s.getSQLState() != null
          && (s.getSQLState().startsWith("08") || UNAVAILABLE.contains(s.getSQLState()))) {
        return true;
      }
      if (t instanceof java.net.ConnectException || t instanceof java.io.EOFException
          || t instanceof java.net.SocketException) {
        return true;
      }
    }
    return false;
  }

  /** The driver's message, without any secret it might repeat. */
  private static String reason(Throwable e, Optional<String> password) {
    String reason = String.valueOf(e.getMessage());
    // Hikari wraps the driver's exception; the driver's message is the useful one.
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException && cause.getMessage() != null) {
        reason = cause.getMessage();
        break;
      }
    }
    String shown = StoreUrl.redact(reason);
    return password.isPresent() ? shown.replace(password.get(), StoreUrl.HIDDEN) : shown;
  }
}
