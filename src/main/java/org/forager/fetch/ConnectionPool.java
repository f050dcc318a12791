package org.forager.fetch;

import java.net.Socket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The idle keep-alive connections of {@link HttpFetcher}: at most one a route, the most recently
 * released kept when two come back for one route; at most {@code maxConnections} open in all, idle and
 * in use, the least recently released idle one closed to make room. A connection idle more than
 * {@link #MAX_IDLE_NANOS} or open more than {@link #MAX_AGE_NANOS} is closed instead of reused, and
 * one idle more than {@link #CHECK_AFTER_IDLE_NANOS} is checked first (the server may have closed it
 * meanwhile). Every lease and release is constant time: idle connections are a hash map in release
 * order (a thousand origins each holding one cost HttpCore's pool a scan of them all, issue 15).
 * Thread-safe (one lock; closing happens outside it).
 */
final class ConnectionPool implements AutoCloseable {

  /**
   * Idle this long, a connection is checked before reuse: 5 s, the shortest idle timeout common
   * servers keep (Apache httpd's and Node's default), below which nearly every connection is still
   * open. The check is a read that waits 1 ms and ends in an exception when the connection is fine;
   * a connection the server closed anyway fails its request unanswered, which is sent once more on a
   * new connection (HttpFetcher). At 1 s, every page of a crawl at the default 1 s delay paid for the
   * check: 4 % of its CPU (issue 15, docs/benchmarks.md, session 33).
   */
  static final long CHECK_AFTER_IDLE_NANOS = TimeUnit.SECONDS.toNanos(5);
  static final long MAX_IDLE_NANOS = TimeUnit.SECONDS.toNanos(30);
  static final long MAX_AGE_NANOS = TimeUnit.MINUTES.toNanos(5);

  /**
   * Requests a route's reused connections may fail unanswered before the route's connections are no
   * longer kept: a server that closes every reused connection as it reads the request got each one twice
   * (once there, once on the new connection), which its politeness and the crawl log did not see (the
   * attacker review). A server's idle timeout seldom does it: connections idle past
   * {@link #CHECK_AFTER_IDLE_NANOS} are checked before reuse.
   */
  static final int UNANSWERED_REUSES = 3;
  /** Routes remembered for their unanswered reuses, the oldest forgotten past this many. */
  private static final int ROUTES_REMEMBERED = 10_000;

  private final int maxConnections;
  private final ReentrantLock lock = new ReentrantLock();
  /** Requests that failed unanswered on a reused connection, by route. Guarded by lock. */
  private final LinkedHashMap<Route, Integer> unansweredReuses = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(java.util.Map.Entry<Route, Integer> eldest) {
      return size() > ROUTES_REMEMBERED;
    }
  };
  /** Idle connections by route, least recently released first. Guarded by lock. */
  private final LinkedHashMap<Route, Connection> idle = new LinkedHashMap<>();
  /** Connections taken or opened and not given back: closed with the pool. Guarded by lock. */
  private final HashSet<Connection> inUse = new HashSet<>();
  private boolean closed;

  ConnectionPool(int maxConnections) {
    this.maxConnections = maxConnections;
  }

  /**
   * An idle connection of the route fit to carry a request, taken out of the pool; null when none.
   * Its TCP socket is handed to {@code watch} before it is checked, so that the caller's deadline can
   * end the check (a hostile server's TLS records can keep a read busy).
   */
  Connection take(Route route, Consumer<Socket> watch) {
    Connection connection;
    lock.lock();
    try {
      connection = idle.remove(route);
      if (connection != null) inUse.add(connection);
    } finally {
      lock.unlock();
    }
    if (connection == null) return null;
    watch.accept(connection.plain());
    long now = System.nanoTime();
    long idleFor = now - connection.idleSinceNanos;
    if (idleFor > MAX_IDLE_NANOS || now - connection.openedNanos > MAX_AGE_NANOS || connection.hasUnreadBytes()
        || (idleFor > CHECK_AFTER_IDLE_NANOS && connection.stale())) {
      discard(connection);
      return null;
    }
    return connection;
  }

  /** Counts a connection just opened, closing the least recently released idle ones past the cap. */
  void opened(Connection connection) {
    List<Connection> toClose = new ArrayList<>(1);
    lock.lock();
    try {
      inUse.add(connection);
      if (closed) toClose.add(connection); // its exchange fails and gives it back, as on a closed fetcher
      Iterator<Connection> oldest = idle.values().iterator();
      while (openNow() > maxConnections && oldest.hasNext()) {
        toClose.add(oldest.next());
        oldest.remove();
      }
    } finally {
      lock.unlock();
    }
    toClose.forEach(Connection::close);
  }

  /**
   * Gives back a connection that {@link #take} or {@link #opened} counted: kept idle when
   * {@code reusable}, else closed. Idle connections past {@link #MAX_IDLE_NANOS} are closed on the way.
   */
  void release(Connection connection, boolean reusable) {
    List<Connection> toClose = new ArrayList<>(1);
    long now = System.nanoTime();
    lock.lock();
    try {
      inUse.remove(connection);
      if (reusable && !closed && !connection.isClosed()
          && (unansweredReuses.isEmpty() || unansweredReuses.getOrDefault(connection.route, 0) < UNANSWERED_REUSES)) {
        connection.idleSinceNanos = now;
        Connection previous = idle.remove(connection.route); // at the end of the release order
        idle.put(connection.route, connection);
        if (previous != null) toClose.add(previous);
      } else {
        toClose.add(connection);
      }
      for (Iterator<Connection> oldest = idle.values().iterator(); oldest.hasNext(); ) {
        Connection c = oldest.next();
        if (now - c.idleSinceNanos <= MAX_IDLE_NANOS) break; // release order: the rest are younger
        toClose.add(c);
        oldest.remove();
      }
    } finally {
      lock.unlock();
    }
    toClose.forEach(Connection::close);
  }

  /** Closes a connection that {@link #take} or {@link #opened} counted. */
  void discard(Connection connection) {
    release(connection, false);
  }

  /**
   * Closes a reused connection whose request failed unanswered (or was answered 408), counting it for its
   * route: after {@link #UNANSWERED_REUSES} such, the route's connections are closed after their
   * exchange instead of kept.
   */
  void discardUnanswered(Connection connection) {
    lock.lock();
    try {
      unansweredReuses.merge(connection.route, 1, Integer::sum);
    } finally {
      lock.unlock();
    }
    discard(connection);
  }

  /** Connections open, idle or in use. */
  int open() {
    lock.lock();
    try {
      return openNow();
    } finally {
      lock.unlock();
    }
  }

  /** Connections open, idle or in use; under the lock. */
  private int openNow() {
    return idle.size() + inUse.size();
  }

  /** Connections idle. */
  int idle() {
    lock.lock();
    try {
      return idle.size();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Closes every connection, idle or in use (the exchanges on those fail at once, and give them back
   * closed): a fetcher closed while fetches are in flight ends them.
   */
  @Override
  public void close() {
    List<Connection> toClose;
    lock.lock();
    try {
      closed = true;
      toClose = new ArrayList<>(idle.values());
      toClose.addAll(inUse);
      idle.clear();
    } finally {
      lock.unlock();
    }
    toClose.forEach(Connection::close);
  }
}
