package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.io.ModalCloseable;
import org.apache.hc.core5.pool.PoolEntry;
import org.apache.hc.core5.util.DeadlineTimeoutException;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

/** The pool's rules, HttpCore's strict pool's: per route and total bounds, LRU closing, waiting requests. */
class LruConnPoolTest {

  /** A connection that only knows whether it was closed. */
  private static final class Conn implements ModalCloseable {
    boolean closed;

    @Override
    public void close(CloseMode mode) {
      closed = true;
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  private final LruConnPool<String, Conn> pool = new LruConnPool<>(1, 3, null);

  private PoolEntry<String, Conn> lease(String route) throws Exception {
    PoolEntry<String, Conn> entry = pool.lease(route, null, Timeout.DISABLED, null).get(0, TimeUnit.SECONDS);
    if (!entry.hasConnection()) entry.assignConnection(new Conn());
    return entry;
  }

  @Test
  void aReleasedConnectionIsLeasedAgainToItsRoute() throws Exception {
    PoolEntry<String, Conn> a = lease("a");
    Conn conn = a.getConnection();
    pool.release(a, true);
    PoolEntry<String, Conn> again = lease("a");
    assertSame(a, again);
    assertSame(conn, again.getConnection());
    assertFalse(conn.closed);
    assertEquals(1, pool.getTotalStats().getLeased());
    assertEquals(0, pool.getTotalStats().getAvailable());
  }

  @Test
  void aSecondLeaseOfARouteWaitsForTheFirstsRelease() throws Exception {
    PoolEntry<String, Conn> a = lease("a");
    Future<PoolEntry<String, Conn>> second = pool.lease("a", null, Timeout.DISABLED, null);
    assertFalse(second.isDone());
    assertEquals(1, pool.getStats("a").getPending());
    lease("b"); // another route is not held up
    pool.release(a, true);
    assertSame(a, second.get(0, TimeUnit.SECONDS));
    assertEquals(0, pool.getTotalStats().getPending());
  }

  @Test
  void aFullPoolClosesTheLeastRecentlyReleasedIdleConnection() throws Exception {
    PoolEntry<String, Conn> a = lease("a");
    PoolEntry<String, Conn> b = lease("b");
    PoolEntry<String, Conn> c = lease("c");
    pool.release(b, true);
    pool.release(a, true);
    pool.release(c, true);
    assertSame(b, lease("b"), "leased and released again: now the most recent");
    pool.release(b, true);
    PoolEntry<String, Conn> d = lease("d");
    assertTrue(a.getConnection() == null, "a's was the least recently released: closed");
    assertEquals(3, pool.getTotalStats().getLeased() + pool.getTotalStats().getAvailable());
    assertNotSame(a, d);
    assertSame(c, lease("c"));
    assertSame(b, lease("b"));
    assertEquals(Set.of("b", "c", "d"), pool.getRoutes(), "a, without connections, is forgotten");
  }

  @Test
  void aRequestFindingEveryConnectionLeasedWaitsForOneToBeReleased() throws Exception {
    PoolEntry<String, Conn> a = lease("a");
    Conn aConn = a.getConnection();
    lease("b");
    lease("c");
    Future<PoolEntry<String, Conn>> d = pool.lease("d", null, Timeout.DISABLED, null);
    assertFalse(d.isDone());
    pool.release(a, true);
    PoolEntry<String, Conn> dEntry = d.get(0, TimeUnit.SECONDS);
    assertEquals("d", dEntry.getRoute());
    assertTrue(aConn.closed, "the idle one closed to make room");
    assertEquals(3, pool.getTotalStats().getLeased());
  }

  @Test
  void aCancelledRequestIsSkippedAndOnePastItsDeadlineFails() throws Exception {
    PoolEntry<String, Conn> a = lease("a");
    Future<PoolEntry<String, Conn>> cancelled = pool.lease("a", null, Timeout.DISABLED, null);
    Future<PoolEntry<String, Conn>> late = pool.lease("a", null, Timeout.ofMilliseconds(1), null);
    Future<PoolEntry<String, Conn>> patient = pool.lease("a", null, Timeout.DISABLED, null);
    cancelled.cancel(true);
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
    while (System.nanoTime() < until) Thread.onSpinWait(); // past the 1 ms deadline, on the clock it reads
    pool.release(a, true);
    ExecutionException e = assertThrows(ExecutionException.class, () -> late.get(0, TimeUnit.SECONDS));
    assertInstanceOf(DeadlineTimeoutException.class, e.getCause());
    assertSame(a, patient.get(0, TimeUnit.SECONDS));
  }

  @Test
  void aConnectionReleasedAsNotReusableIsClosedAndItsPlaceFreed() throws Exception {
    PoolEntry<String, Conn> a = lease("a");
    Conn conn = a.getConnection();
    pool.release(a, false);
    assertTrue(conn.closed);
    assertEquals(0, pool.getTotalStats().getAvailable());
    assertEquals(Set.of(), pool.getRoutes());
    PoolEntry<String, Conn> next = lease("a");
    assertNotSame(conn, next.getConnection());
  }

  @Test
  void idleAndExpiredConnectionsAreClosedOnRequest() throws Exception {
    LruConnPool<String, Conn> expiring = new LruConnPool<>(1, 3, TimeValue.ofMilliseconds(1));
    PoolEntry<String, Conn> old = expiring.lease("a", null, Timeout.DISABLED, null).get(0, TimeUnit.SECONDS);
    old.assignConnection(new Conn());
    Conn conn = old.getConnection();
    expiring.release(old, true);
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
    while (System.nanoTime() < until) Thread.onSpinWait();
    expiring.closeExpired();
    assertTrue(conn.closed);
    assertEquals(0, expiring.getTotalStats().getAvailable());

    PoolEntry<String, Conn> a = lease("a");
    Conn aConn = a.getConnection();
    pool.release(a, true);
    pool.closeIdle(TimeValue.ofHours(1));
    assertFalse(aConn.closed, "idle for less than an hour");
    pool.closeIdle(TimeValue.ZERO_MILLISECONDS);
    assertTrue(aConn.closed);
    assertEquals(0, pool.getTotalStats().getAvailable());
  }

  @Test
  void closingClosesEveryConnectionAndCancelsTheWaitingRequests() throws Exception {
    PoolEntry<String, Conn> a = lease("a");
    PoolEntry<String, Conn> b = lease("b");
    pool.release(b, true);
    Future<PoolEntry<String, Conn>> waiting = pool.lease("a", null, Timeout.DISABLED, null);
    Conn aConn = a.getConnection();
    Conn bConn = b.getConnection();
    pool.close();
    assertTrue(aConn.closed && bConn.closed);
    assertTrue(waiting.isCancelled());
    pool.release(a, true); // a lease that ends after the close: nothing to do
    assertThrows(IllegalStateException.class, () -> pool.lease("a", null, Timeout.DISABLED, null));
  }

  @Test
  void manyRoutesEachWithOneConnectionAreLeasedAndReleasedInAnyOrder() throws Exception {
    LruConnPool<String, Conn> large = new LruConnPool<>(1, 1000, null);
    List<PoolEntry<String, Conn>> entries = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      PoolEntry<String, Conn> e = large.lease("r" + i, null, Timeout.DISABLED, null).get(0, TimeUnit.SECONDS);
      e.assignConnection(new Conn());
      entries.add(e);
    }
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 1000; i += 1) large.release(entries.get((i * 7 + round) % 1000), true);
      for (int i = 999; i >= 0; i--) {
        assertSame(entries.get(i), large.lease("r" + i, null, Timeout.DISABLED, null).get(0, TimeUnit.SECONDS));
      }
    }
    assertEquals(1000, large.getTotalStats().getLeased());
    assertEquals(0, large.getTotalStats().getAvailable());
    for (PoolEntry<String, Conn> e : entries) assertFalse(e.getConnection() == null || e.getConnection().closed);
  }
}
