package org.forager.fetch;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The backup bound of every fetch of one {@link HttpFetcher}: a daemon platform thread that, every
 * period, walks the fetches in flight and aborts those past their sweep time with the same abort
 * their deadline alarm runs. The fetcher sets the sweep time to twice its timeout from the fetch's
 * start, so the sweeper never races a working alarm; it ends the fetches whose alarm was lost (a
 * timer thread that died, an action never started), which is what lets socket reads wait without a
 * timeout of their own.
 *
 * <p>Costs: registering and finishing a fetch is an add and a remove in a concurrent set (O(1), no
 * lock of ours; the entry and the set's node are all it allocates); a finished fetch is removed at
 * once, so the set holds only the
 * fetches in flight, and a sweep is one pass over them. The thread wakes once a period, whatever
 * the number of fetches.
 *
 * <p>Failures: each fetch is aborted at most once, through {@link AbortThreads}, so an abort that
 * blocks delays no other and one that throws is logged and costs nothing else. A sweep that fails is
 * logged and the next one runs a period later. Thread-safe.
 */
final class FetchSweeper implements AutoCloseable {

  /** The longest wait between sweeps: past its sweep time a fetch waits at most this long. */
  static final long MAX_PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);
  /** The shortest wait between sweeps, however short the timeout. */
  static final long MIN_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  private static final System.Logger LOG = System.getLogger(FetchSweeper.class.getName());

  private final Set<Entry> inFlight = ConcurrentHashMap.newKeySet();
  private final long periodNanos;
  private final AbortThreads aborts;
  private final Thread thread;
  private volatile boolean closed;

  /**
   * The period for fetches of {@code timeoutNanos}: a quarter of the timeout, between
   * {@link #MIN_PERIOD_NANOS} and {@link #MAX_PERIOD_NANOS}. A fetch whose alarm is lost then ends
   * at most a period after its sweep time (by 2.25 timeouts from its start; 61 s at the default
   * 30 s), and a short timeout (a test's, or an impatient crawl's) is not stretched by a whole
   * second.
   */
  static long periodFor(long timeoutNanos) {
    return Math.clamp(timeoutNanos / 4, MIN_PERIOD_NANOS, MAX_PERIOD_NANOS);
  }

  /** Sweeps every {@code periodNanos}; aborts run on virtual threads. */
  FetchSweeper(long periodNanos) {
    this(periodNanos, Thread.ofVirtual().name("forager-fetch-sweep-abort").factory());
  }

  /** @param abortThreads makes the (unstarted) thread each abort runs on */
  FetchSweeper(long periodNanos, ThreadFactory abortThreads) {
    if (periodNanos <= 0) throw new IllegalArgumentException("sweep period must be positive");
    this.periodNanos = periodNanos;
    this.aborts = new AbortThreads(abortThreads);
    // A platform thread: a virtual one would park with a timeout in the carrier pool's scheduler,
    // the cost the sweeper exists to save, and would share the carriers with the fetches it ends.
    this.thread = Thread.ofPlatform().daemon().name("forager-fetch-sweeper").unstarted(this::run);
    thread.start();
  }

  /** One fetch in flight, until {@link #close()}. Equal only to itself. */
  final class Entry implements AutoCloseable {

    private final long sweepAtNanos;
    private final Runnable abort;

    private Entry(long sweepAtNanos, Runnable abort) {
      this.sweepAtNanos = sweepAtNanos;
      this.abort = abort;
    }

    /**
     * The fetch is done: it is forgotten. An abort a sweep has already started may still run, as a
     * deadline alarm may: aborting a finished fetch must be harmless.
     */
    @Override
    public void close() {
      inFlight.remove(this);
    }
  }

  /**
   * Registers a fetch in flight, to be aborted by {@code abort} on the first sweep at or after
   * {@code sweepAtNanos} (a {@link System#nanoTime()} value) unless the entry is closed first.
   */
  Entry register(long sweepAtNanos, Runnable abort) {
    Entry entry = new Entry(sweepAtNanos, abort);
    inFlight.add(entry);
    return entry;
  }

  /** How many fetches are registered and not yet closed or aborted. */
  int inFlight() {
    return inFlight.size();
  }

  private void run() {
    while (!closed) {
      LockSupport.parkNanos(this, periodNanos);
      if (closed) return;
      Thread.interrupted(); // nobody should, but an interrupt left set would make every park return
      try {
        sweep(System.nanoTime());
      } catch (RuntimeException | Error e) {
        LOG.log(System.Logger.Level.WARNING, "a fetch sweep failed", e);
      }
    }
  }

  /** Aborts, once each, the fetches whose sweep time is at or before {@code nowNanos}. */
  void sweep(long nowNanos) {
    for (Entry entry : inFlight) {
      // Removing first: an entry is aborted once, and not if its fetch finished meanwhile.
      if (nowNanos - entry.sweepAtNanos >= 0 && inFlight.remove(entry)) aborts.start(entry.abort);
    }
  }

  /** Stops sweeping; fetches still registered are no longer bounded by it. */
  @Override
  public void close() {
    closed = true;
    LockSupport.unpark(thread);
  }
}
