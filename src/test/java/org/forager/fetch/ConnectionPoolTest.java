package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link ConnectionPool}'s rules, on real loopback connections. */
@Timeout(30)
class ConnectionPoolTest {

  private ServerSocket server;
  private final List<Socket> accepted = new ArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
  }

  @AfterEach
  void stop() throws IOException {
    for (Socket s : accepted) s.close();
    server.close();
  }

  private static Route route(String host) {
    return new Route(false, host, 80, host, Optional.empty());
  }

  /** A connection of the route to the test's server, counted by the pool as opened. */
  private Connection open(ConnectionPool pool, Route route) throws IOException {
    Socket socket = new Socket();
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
    accepted.add(server.accept());
    Connection connection = new Connection(route, socket, socket);
    pool.opened(connection);
    return connection;
  }

  @Test
  void aReleasedConnectionIsTakenAgainByItsRouteOnly() throws IOException {
    try (ConnectionPool pool = new ConnectionPool(8)) {
      Connection a = open(pool, route("a.test"));
      pool.release(a, true);
      assertNull(pool.take(route("b.test"), s -> {}));
      assertSame(a, pool.take(route("a.test"), s -> {}));
      assertNull(pool.take(route("a.test"), s -> {}), "taken out: one exchange at a time");
      pool.release(a, true);
      assertEquals(1, pool.open());
    }
  }

  @Test
  void atTheCapTheLeastRecentlyReleasedIdleConnectionIsClosed() throws IOException {
    try (ConnectionPool pool = new ConnectionPool(2)) {
      Connection a = open(pool, route("a.test"));
      Connection b = open(pool, route("b.test"));
      pool.release(b, true);
      pool.release(a, true); // b is now the least recently released
      Connection c = open(pool, route("c.test"));
      assertTrue(b.isClosed(), "b closed to make room");
      assertFalse(a.isClosed());
      assertEquals(2, pool.open());
      pool.release(c, true);
      assertSame(a, pool.take(route("a.test"), s -> {}));
      assertNull(pool.take(route("b.test"), s -> {}));
    }
  }

  @Test
  void twoConnectionsOfOneRouteKeepTheLastReleased() throws IOException {
    try (ConnectionPool pool = new ConnectionPool(8)) {
      Connection first = open(pool, route("a.test"));
      Connection second = open(pool, route("a.test"));
      pool.release(first, true);
      pool.release(second, true);
      assertTrue(first.isClosed());
      assertEquals(1, pool.open());
      assertSame(second, pool.take(route("a.test"), s -> {}));
    }
  }

  @Test
  void aConnectionNotReusableIsClosed() throws IOException {
    try (ConnectionPool pool = new ConnectionPool(8)) {
      Connection a = open(pool, route("a.test"));
      pool.release(a, false);
      assertTrue(a.isClosed());
      assertEquals(0, pool.open());
      assertNull(pool.take(route("a.test"), s -> {}));
    }
  }

  @Test
  void aConnectionTheServerClosedWhileIdleIsNotTakenOnceIdleLongEnoughToBeChecked() throws IOException {
    try (ConnectionPool pool = new ConnectionPool(8)) {
      Connection a = idleAfterTheServerClosedIt(pool, ConnectionPool.CHECK_AFTER_IDLE_NANOS + 1); // long enough to be checked
      assertNull(pool.take(route("a.test"), s -> {}));
      assertTrue(a.isClosed());
      assertEquals(0, pool.open());
    }
  }

  /**
   * Idle less than the check's threshold, a connection is reused unchecked, even one the server has
   * closed: checking costs every page a timed read, while a closed one costs its request a resend on a
   * new connection (StaleConnectionCrawlTest crawls through that).
   */
  @Test
  void aConnectionIdleBrieflyIsTakenWithoutTheCheck() throws IOException {
    try (ConnectionPool pool = new ConnectionPool(8)) {
      Connection a = idleAfterTheServerClosedIt(pool, ConnectionPool.CHECK_AFTER_IDLE_NANOS / 2);
      assertSame(a, pool.take(route("a.test"), s -> {}));
      assertFalse(a.isClosed());
    }
  }

  /** A connection to a.test released to the pool, closed at the server's end, idle {@code idleNanos}. */
  private Connection idleAfterTheServerClosedIt(ConnectionPool pool, long idleNanos) throws IOException {
    Connection a = open(pool, route("a.test"));
    pool.release(a, true);
    accepted.get(0).close(); // the server's end
    a.idleSinceNanos -= idleNanos;
    return a;
  }

  @Test
  void aConnectionStillOpenIsTakenAfterTheCheck() throws IOException {
    try (ConnectionPool pool = new ConnectionPool(8)) {
      Connection a = open(pool, route("a.test"));
      pool.release(a, true);
      a.idleSinceNanos -= ConnectionPool.CHECK_AFTER_IDLE_NANOS + 1;
      assertSame(a, pool.take(route("a.test"), s -> {}));
      assertFalse(a.isClosed());
    }
  }

  @Test
  void connectionsIdleTooLongAreClosedWhenAnotherIsReleased() throws IOException {
    try (ConnectionPool pool = new ConnectionPool(8)) {
      Connection old = open(pool, route("a.test"));
      Connection recent = open(pool, route("b.test"));
      pool.release(old, true);
      old.idleSinceNanos -= ConnectionPool.MAX_IDLE_NANOS + 1;
      pool.release(recent, true);
      assertTrue(old.isClosed());
      assertFalse(recent.isClosed());
      assertEquals(1, pool.open());
      assertEquals(1, pool.idle());
    }
  }

  @Test
  void closingClosesTheIdleAndLaterReleasedConnections() throws IOException {
    ConnectionPool pool = new ConnectionPool(8);
    Connection idle = open(pool, route("a.test"));
    Connection inUse = open(pool, route("b.test"));
    pool.release(idle, true);
    pool.close();
    assertTrue(idle.isClosed());
    pool.release(inUse, true);
    assertTrue(inUse.isClosed());
    assertEquals(0, pool.open());
  }
}
