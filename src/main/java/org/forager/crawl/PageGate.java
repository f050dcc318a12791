package org.forager.crawl;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.forager.fetch.ResponseGate;

/**
 * How many pages are read and processed at once: a few per core, the origin least advanced in the
 * run going first (docs/crawl-loop.md, "The page gate"). A turn waits here with its request on the
 * wire and its response unread (in the kernel), so a waiting turn holds no body; and a read that
 * waits for the network gives its permit back meanwhile ({@link ResponseGate}), so a slow server
 * holds none.
 *
 * <p>Why: without it every response that arrives queues its thread on the cores, and an origin's next
 * request goes out only when the queue before it is processed. On a slow web every origin then waits
 * for its response at once and the cores idle (docs/benchmarks.md, issue 15, sessions 24, 34 and 36).
 * Through the gate the queue on the cores stays short, so an origin's next request goes out as soon as
 * its page is done; and the least advanced origins first keeps their progress even, so that a crawl
 * does not end with a few origins far behind, one page per round trip each.
 *
 * <p>No waiter starves: one that has waited {@link #MAX_WAIT} goes before less advanced ones, the
 * longest waiting first. Waiting is not interruptible (an interrupt is kept for the caller), as a turn
 * that holds a permit always gives it back.
 */
final class PageGate {

  /** How long a waiter lets less advanced origins go first. */
  static final java.time.Duration MAX_WAIT = java.time.Duration.ofSeconds(2);

  /** Permits per core: enough to keep the cores busy while a few holders wait on the disk or a lock. */
  static final int PERMITS_PER_CORE = 8;

  private static final class Waiter {
    final long progress;
    final long arrival;
    final long since;
    final Thread thread;
    /** Set under the lock when the waiter is given its permit; it then leaves both queues. */
    volatile boolean admitted;

    Waiter(long progress, long arrival, long since, Thread thread) {
      this.progress = progress;
      this.arrival = arrival;
      this.since = since;
      this.thread = thread;
    }
  }

  private final long maxWaitNanos;
  private final LongSupplier nanoTime;
  private final ReentrantLock lock = new ReentrantLock();
  /** Permits not held; above 0 only while nobody waits. */
  private int free;
  private long arrivals;
  private final TreeSet<Waiter> byProgress =
      new TreeSet<>(Comparator.<Waiter>comparingLong(w -> w.progress).thenComparingLong(w -> w.arrival));
  /** The waiters in arrival order; those admitted by progress are dropped when they reach its head. */
  private final ArrayDeque<Waiter> byArrival = new ArrayDeque<>();

  PageGate(int permits) {
    this(permits, MAX_WAIT.toNanos(), System::nanoTime);
  }

  /** With the clock given: tests decide when a waiter has waited long enough. */
  PageGate(int permits, long maxWaitNanos, LongSupplier nanoTime) {
    if (permits <= 0) throw new IllegalArgumentException("permits must be positive");
    this.free = permits;
    this.maxWaitNanos = maxWaitNanos;
    this.nanoTime = nanoTime;
  }

  /** The gate for this machine: {@link #PERMITS_PER_CORE} a core. */
  static PageGate forThisMachine() {
    return new PageGate(PERMITS_PER_CORE * Math.max(1, Runtime.getRuntime().availableProcessors()));
  }

  /** A pass for one page of an origin that has fetched {@code progress} pages this run. */
  Pass pass(long progress) {
    return new Pass(progress);
  }

  /**
   * One page's way through the gate, confined to its turn: entered when its response is to be read,
   * left while the read waits for the network, closed when the page is done (the permit given back
   * if held).
   */
  final class Pass implements ResponseGate, AutoCloseable {
    private final long progress;
    private boolean entered;
    /** Whether the pass has held a permit: its page is begun. */
    private boolean begun;

    private Pass(long progress) {
      this.progress = progress;
    }

    /**
     * Waits for a permit, unless this pass holds one already. A pass that held one and left goes
     * before every page not begun: its response is being read, and it holds the origin's connection
     * and the server's attention.
     */
    @Override
    public void enter() {
      if (entered) return;
      acquire(begun ? Long.MIN_VALUE : progress);
      entered = true;
      begun = true;
    }

    /** Gives the permit back, if held; the pass may enter again. */
    @Override
    public void leave() {
      if (!entered) return;
      entered = false;
      release();
    }

    @Override
    public void close() {
      leave();
    }
  }

  /** How many wait for a permit (tests wait for a queue to form). */
  int waiting() {
    lock.lock();
    try {
      return byProgress.size();
    } finally {
      lock.unlock();
    }
  }

  private void acquire(long progress) {
    Waiter waiter;
    lock.lock();
    try {
      if (free > 0) {
        free--;
        return;
      }
      waiter = new Waiter(progress, arrivals++, nanoTime.getAsLong(), Thread.currentThread());
      try {
        byProgress.add(waiter);
        byArrival.add(waiter);
      } catch (Throwable t) { // out of memory: a waiter in one queue only would be given a permit nobody takes
        byProgress.remove(waiter);
        byArrival.removeLastOccurrence(waiter);
        throw t;
      }
    } finally {
      lock.unlock();
    }
    boolean interrupted = false;
    while (!waiter.admitted) {
      LockSupport.park(this);
      if (Thread.interrupted()) interrupted = true; // else every park would return at once
    }
    if (interrupted) Thread.currentThread().interrupt();
  }

  private void release() {
    Waiter next;
    lock.lock();
    try {
      next = admitNext();
      if (next == null) {
        free++;
        return;
      }
    } finally {
      lock.unlock();
    }
    LockSupport.unpark(next.thread);
  }

  /** Under the lock: the waiter given the permit, out of both queues; null when nobody waits. */
  private Waiter admitNext() {
    while (!byArrival.isEmpty() && byArrival.peekFirst().admitted) byArrival.pollFirst();
    Waiter oldest = byArrival.peekFirst();
    if (oldest == null) return null;
    Waiter next;
    if (nanoTime.getAsLong() - oldest.since >= maxWaitNanos) {
      byArrival.pollFirst();
      byProgress.remove(oldest);
      next = oldest;
    } else {
      next = byProgress.pollFirst();
    }
    next.admitted = true;
    return next;
  }
}
