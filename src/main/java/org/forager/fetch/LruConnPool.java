package org.forager.fetch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.hc.core5.concurrent.BasicFuture;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.io.ModalCloseable;
import org.apache.hc.core5.pool.ManagedConnPool;
import org.apache.hc.core5.pool.PoolEntry;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.util.Args;
import org.apache.hc.core5.util.Deadline;
import org.apache.hc.core5.util.DeadlineTimeoutException;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The connection pool behind {@link HttpFetcher}: HttpCore's strict pool's rules (at most
 * {@code maxPerRoute} connections a route and {@code maxTotal} in all, idle ones included; a route's
 * most recently released idle connection reused first; when the pool is full, the least recently
 * released idle connection of any route closed to make room; requests that find no room wait in
 * order), with every lease and release in constant time. HttpCore's {@code StrictConnPool} keeps
 * one list of every idle connection and finds a leased one in it by a scan: with a thousand origins
 * each holding one, an origin's connection was a thousand entries deep (issue 15: 2 % of a crawl's
 * CPU). Here the idle connections are a linked hash set in release order, so a lease removes its
 * entry in O(1) and the set's head is the one to close. Thread-safe (one lock, as HttpCore's).
 */
final class LruConnPool<T, C extends ModalCloseable> implements ManagedConnPool<T, C> {

  private final ReentrantLock lock = new ReentrantLock();
  /** The routes with a connection, idle or leased. Guarded by lock. */
  private final Map<T, Route<T, C>> routes = new HashMap<>();
  /** Every idle entry, least recently released first. Guarded by lock. */
  private final LinkedHashSet<PoolEntry<T, C>> idle = new LinkedHashSet<>();
  private final Set<PoolEntry<T, C>> leased = new HashSet<>();
  /** Lease requests that found no room, oldest first. Guarded by lock. */
  private final ArrayDeque<Waiting<T, C>> waiting = new ArrayDeque<>();
  private final Map<T, Integer> maxPerRoute = new HashMap<>();
  private final TimeValue timeToLive;
  private int defaultMaxPerRoute;
  private int maxTotal;
  private boolean closed;

  /** A route's idle entries (most recently released first) and how many of its entries are leased. */
  private static final class Route<T, C extends ModalCloseable> {
    final ArrayDeque<PoolEntry<T, C>> idle = new ArrayDeque<>();
    int leased;

    int allocated() {
      return idle.size() + leased;
    }
  }

  private record Waiting<T, C extends ModalCloseable>(T route, Object state, Deadline deadline,
      BasicFuture<PoolEntry<T, C>> future) {}

  /** An entry leased while holding the lock, to be handed to its future once the lock is released. */
  private record Lease<T, C extends ModalCloseable>(BasicFuture<PoolEntry<T, C>> future, PoolEntry<T, C> entry) {}

  /**
   * @param timeToLive how long a connection may be reused after it was opened; null or negative: no limit
   */
  LruConnPool(int defaultMaxPerRoute, int maxTotal, TimeValue timeToLive) {
    this.defaultMaxPerRoute = Args.positive(defaultMaxPerRoute, "Max per route value");
    this.maxTotal = Args.positive(maxTotal, "Max total value");
    this.timeToLive = timeToLive;
  }

  @Override
  public Future<PoolEntry<T, C>> lease(T route, Object state, Timeout requestTimeout,
      FutureCallback<PoolEntry<T, C>> callback) {
    Args.notNull(route, "Route");
    Args.notNull(requestTimeout, "Request timeout");
    BasicFuture<PoolEntry<T, C>> future = new BasicFuture<>(callback);
    PoolEntry<T, C> entry;
    lock.lock();
    try {
      if (closed) throw new IllegalStateException("Connection pool shut down");
      entry = take(route, state);
      if (entry == null) waiting.addLast(new Waiting<>(route, state, Deadline.calculate(requestTimeout), future));
    } finally {
      lock.unlock();
    }
    if (entry != null) handOver(new Lease<>(future, entry));
    return future;
  }

  @Override
  public void release(PoolEntry<T, C> entry, boolean reusable) {
    if (entry == null) return;
    List<Lease<T, C>> served;
    lock.lock();
    try {
      if (!leased.remove(entry)) {
        if (closed) return; // close() discarded it already
        throw new IllegalStateException("Pool entry is not present in the set of leased entries");
      }
      Route<T, C> route = routes.get(entry.getRoute());
      route.leased--;
      if (reusable && entry.hasConnection()) {
        route.idle.addFirst(entry);
        idle.add(entry);
      } else {
        entry.discardConnection(CloseMode.GRACEFUL);
        if (route.allocated() == 0) routes.remove(entry.getRoute());
      }
      served = serveWaiting();
    } finally {
      lock.unlock();
    }
    served.forEach(this::handOver);
  }

  /** Gives a leased entry to its request; one cancelled meanwhile is released at once. */
  private void handOver(Lease<T, C> lease) {
    if (!lease.future().completed(lease.entry())) release(lease.entry(), true);
  }

  /**
   * A connection for the route: its most recently released idle one with the state, else a new entry
   * when there is room (closing an idle one of the route whose state differs, then the least
   * recently released idle one of any route, to make it); null when there is none. Caller holds the lock.
   */
  private PoolEntry<T, C> take(T key, Object state) {
    Route<T, C> route = routes.get(key);
    if (route != null) {
      PoolEntry<T, C> entry = idleWithState(route, state);
      if (entry != null) {
        route.idle.remove(entry);
        idle.remove(entry);
        route.leased++;
        leased.add(entry);
        return entry;
      }
      int max = maxPerRoute.getOrDefault(key, defaultMaxPerRoute);
      while (route.allocated() >= max && !route.idle.isEmpty()) discard(route.idle.peekLast());
      if (route.allocated() >= max) return null;
    }
    if (leased.size() + idle.size() >= maxTotal) {
      if (idle.isEmpty()) return null;
      discard(idle.iterator().next());
    }
    PoolEntry<T, C> entry = new PoolEntry<>(key, timeToLive);
    // Again: discard() forgets a route left without entries.
    routes.computeIfAbsent(key, k -> new Route<>()).leased++;
    leased.add(entry);
    return entry;
  }

  /**
   * The route's most recently released idle entry whose state equals {@code state}, else one without a
   * state (HttpCore's rule: a connection with a state, such as a user's, serves that state only);
   * expired ones are closed first. Caller holds the lock.
   */
  private PoolEntry<T, C> idleWithState(Route<T, C> route, Object state) {
    List<PoolEntry<T, C>> expired = null;
    PoolEntry<T, C> found = null;
    PoolEntry<T, C> stateless = null;
    for (PoolEntry<T, C> entry : route.idle) {
      if (entry.getExpiryDeadline().isExpired()) {
        if (expired == null) expired = new ArrayList<>();
        expired.add(entry);
      } else if (state != null && state.equals(entry.getState())) {
        found = entry;
        break;
      } else if (entry.getState() == null && stateless == null) {
        stateless = entry;
        if (state == null) break;
      }
    }
    if (expired != null) expired.forEach(this::discard);
    return found != null ? found : stateless;
  }

  /** Closes an idle entry's connection and forgets the entry, and its route once it has none. Caller holds the lock. */
  private void discard(PoolEntry<T, C> entry) {
    idle.remove(entry);
    Route<T, C> route = routes.get(entry.getRoute());
    route.idle.remove(entry);
    if (route.allocated() == 0) routes.remove(entry.getRoute());
    entry.discardConnection(CloseMode.GRACEFUL);
  }

  /**
   * Leases to the waiting requests that now find room, oldest first (a request whose route is full
   * does not hold up the others); fails those past their deadline and drops cancelled ones. Caller
   * holds the lock; the futures are completed after it is released.
   */
  private List<Lease<T, C>> serveWaiting() {
    if (waiting.isEmpty()) return List.of();
    List<Lease<T, C>> served = new ArrayList<>();
    for (Iterator<Waiting<T, C>> it = waiting.iterator(); it.hasNext(); ) {
      Waiting<T, C> w = it.next();
      if (w.future().isDone()) {
        it.remove();
      } else if (w.deadline().isExpired()) {
        it.remove();
        w.future().failed(DeadlineTimeoutException.from(w.deadline()));
      } else {
        PoolEntry<T, C> entry = take(w.route(), w.state());
        if (entry != null) {
          it.remove();
          served.add(new Lease<>(w.future(), entry));
        }
      }
    }
    return served;
  }

  @Override
  public void closeIdle(TimeValue idleTime) {
    long cutoff = System.currentTimeMillis() - (TimeValue.isPositive(idleTime) ? idleTime.toMilliseconds() : 0);
    closeIdleWhere(entry -> entry.getUpdated() <= cutoff);
  }

  @Override
  public void closeExpired() {
    closeIdleWhere(entry -> entry.getExpiryDeadline().isExpired());
  }

  private void closeIdleWhere(Predicate<PoolEntry<T, C>> stale) {
    List<Lease<T, C>> served;
    lock.lock();
    try {
      for (PoolEntry<T, C> entry : List.copyOf(idle)) {
        if (stale.test(entry)) discard(entry);
      }
      served = serveWaiting();
    } finally {
      lock.unlock();
    }
    served.forEach(this::handOver);
  }

  @Override
  public void close(CloseMode closeMode) {
    List<Waiting<T, C>> cancelled;
    lock.lock();
    try {
      if (closed) return;
      closed = true;
      for (PoolEntry<T, C> entry : idle) entry.discardConnection(closeMode);
      for (PoolEntry<T, C> entry : leased) entry.discardConnection(closeMode);
      idle.clear();
      leased.clear();
      routes.clear();
      cancelled = List.copyOf(waiting);
      waiting.clear();
    } finally {
      lock.unlock();
    }
    for (Waiting<T, C> w : cancelled) w.future().cancel();
  }

  @Override
  public void close() {
    close(CloseMode.GRACEFUL);
  }

  @Override
  public void setMaxTotal(int max) {
    Args.positive(max, "Max value");
    withLock(() -> maxTotal = max);
  }

  @Override
  public int getMaxTotal() {
    return withLock(() -> maxTotal);
  }

  @Override
  public void setDefaultMaxPerRoute(int max) {
    Args.positive(max, "Max value");
    withLock(() -> defaultMaxPerRoute = max);
  }

  @Override
  public int getDefaultMaxPerRoute() {
    return withLock(() -> defaultMaxPerRoute);
  }

  @Override
  public void setMaxPerRoute(T route, int max) {
    Args.notNull(route, "Route");
    withLock(() -> max > 0 ? maxPerRoute.put(route, max) : maxPerRoute.remove(route));
  }

  @Override
  public int getMaxPerRoute(T route) {
    Args.notNull(route, "Route");
    return withLock(() -> maxPerRoute.getOrDefault(route, defaultMaxPerRoute));
  }

  @Override
  public PoolStats getTotalStats() {
    return withLock(() -> new PoolStats(leased.size(), waiting.size(), idle.size(), maxTotal));
  }

  @Override
  public PoolStats getStats(T key) {
    Args.notNull(key, "Route");
    return withLock(() -> {
      Route<T, C> route = routes.get(key);
      int pending = 0;
      for (Waiting<T, C> w : waiting) {
        if (w.route().equals(key)) pending++;
      }
      return new PoolStats(route == null ? 0 : route.leased, pending, route == null ? 0 : route.idle.size(),
          maxPerRoute.getOrDefault(key, defaultMaxPerRoute));
    });
  }

  @Override
  public Set<T> getRoutes() {
    return withLock(() -> new HashSet<>(routes.keySet()));
  }

  private <R> R withLock(Supplier<R> body) {
    lock.lock();
    try {
      return body.get();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String toString() {
    PoolStats total = getTotalStats();
    return "[leased: " + total.getLeased() + "][available: " + total.getAvailable() + "][pending: "
        + total.getPending() + "]";
  }
}
