package org.forager.fetch;

import java.io.InterruptedIOException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The heap the response bodies of the crawl's turns may hold together. Each origin's turn holds a
 * {@link Lease} for as long as it keeps its response (read, waiting for the page gate, processed); a
 * body's first {@value #FREE_BYTES} bytes (raw and decoded, each) are free, and beyond them the reader
 * reserves what it grows by, waiting while the others hold the rest. So the usual page never waits nor
 * counts, while hostile servers that each announce or send {@code limits.max_page_bytes} (or trickle
 * a body, or a compression bomb up to its ratio) can no longer fill the heap together: 256 origins at
 * 2 MiB were 512 MiB against a 256 MiB heap. A reader that cannot get its bytes by its fetch's deadline
 * stops there, as at the deadline. One body larger than the whole memory gets it while nobody else
 * holds any.
 *
 * <p>The links a page's extraction keeps count too ({@link #holdOnThisTurn}): a hostile page of 100 KB
 * under a 2,000-char {@code <base href>} resolves to megabytes of URLs, held with their store keys
 * until the turn has written them; three such pages at once ran a 264 MiB heap out. Thread-safe.
 */
public final class BodyMemory {

  /** Bytes of a body, raw and decoded each, that need no reservation: a page of the usual size. */
  public static final int FREE_BYTES = 64 * 1024;

  /**
   * How long a page's extraction waits for memory for more of its links before it keeps no more: long
   * enough for other turns to write theirs, short enough that a turn never waits as long as a fetch.
   */
  public static final java.time.Duration LINK_WAIT = java.time.Duration.ofSeconds(5);

  private static final BodyMemory PROCESS =
      new BodyMemory(Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 4), LINK_WAIT);
  private static final ThreadLocal<Lease> CURRENT = new ThreadLocal<>();
  /** What a fetch outside a turn reads under (tools, tests): never waits, holds nothing. */
  private static final Lease UNBOUNDED = new Lease(null);

  private final long capacity;
  private final long linkWaitNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition released = lock.newCondition();
  private long used;

  BodyMemory(long capacity) {
    this(capacity, LINK_WAIT);
  }

  BodyMemory(long capacity, java.time.Duration linkWait) {
    if (capacity < 1) throw new IllegalArgumentException("capacity must be positive: " + capacity);
    this.capacity = capacity;
    this.linkWaitNanos = linkWait.toNanos();
  }

  /** The process's: a quarter of the heap, at least 16 MiB. */
  public static BodyMemory process() {
    return PROCESS;
  }

  /** The lease of the turn running on this thread, or one that never waits. */
  static Lease current() {
    Lease lease = CURRENT.get();
    return lease == null ? UNBOUNDED : lease;
  }

  /** A lease for the turn about to run on this thread, its fetches' reads counted on it until closed. */
  public Lease lease() {
    Lease lease = new Lease(this);
    CURRENT.set(lease);
    return lease;
  }

  /**
   * Takes {@code bytes} more for the turn running on this thread, for what it keeps beside its bodies
   * (a page's links): waiting up to {@link #LINK_WAIT} while they do not fit and other turns hold some.
   * Outside a turn (tools, tests) it never waits.
   *
   * @return false when they could not be had in that time, or the thread was interrupted (its flag set
   *     again): the caller keeps no more
   */
  public static boolean holdOnThisTurn(long bytes) {
    Lease lease = current();
    if (lease.memory == null) return true;
    try {
      return lease.reserve(bytes, System.nanoTime() + lease.memory.linkWaitNanos);
    } catch (InterruptedIOException e) {
      return false; // reserve set the thread's flag again
    }
  }

  /** Bytes held by all leases now. */
  long used() {
    lock.lock();
    try {
      return used;
    } finally {
      lock.unlock();
    }
  }

  /** Leases waiting for bytes now (tests: a wait observed, not slept on). */
  int waiting() {
    lock.lock();
    try {
      return lock.getWaitQueueLength(released);
    } finally {
      lock.unlock();
    }
  }

  /** The bytes one turn holds; closing gives them back. Used by the turn's own thread only. */
  public static final class Lease implements AutoCloseable {

    private final BodyMemory memory;
    private long held;

    private Lease(BodyMemory memory) {
      this.memory = memory;
    }

    /**
     * Takes {@code bytes} more, waiting while they do not fit and other leases hold some.
     *
     * @param deadlineNanos a {@link System#nanoTime()} value: past it, false
     * @throws InterruptedIOException when the thread is interrupted while it waits
     */
    boolean reserve(long bytes, long deadlineNanos) throws InterruptedIOException {
      if (memory == null || bytes <= 0) return true;
      memory.lock.lock();
      try {
        while (memory.used + bytes > memory.capacity && memory.used - held > 0) {
          long left = deadlineNanos - System.nanoTime();
          if (left <= 0) return false;
          try {
            memory.released.awaitNanos(left);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for memory for a response body");
          }
        }
        memory.used += bytes;
        held += bytes;
        return true;
      } finally {
        memory.lock.unlock();
      }
    }

    /**
     * Takes what a body's buffer growing from {@code from} to {@code to} bytes needs beyond its
     * {@value BodyMemory#FREE_BYTES} free ones, as {@link #reserve} does.
     */
    boolean grow(long from, long to, long deadlineNanos) throws InterruptedIOException {
      return reserve(Math.max(0, to - FREE_BYTES) - Math.max(0, from - FREE_BYTES), deadlineNanos);
    }

    /** Bytes this lease holds. */
    long held() {
      return held;
    }

    /** Gives every byte back, and ends the lease as this thread's. */
    @Override
    public void close() {
      if (memory == null) return;
      if (CURRENT.get() == this) CURRENT.remove();
      if (held == 0) return;
      memory.lock.lock();
      try {
        memory.used -= held;
        held = 0;
        memory.released.signalAll();
      } finally {
        memory.lock.unlock();
      }
    }
  }
}
