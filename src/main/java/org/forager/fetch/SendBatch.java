package org.forager.fetch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Request heads written together: the first one queued waits {@link #WINDOW_NANOS} for others, then one
 * thread writes them all. Used for the requests an origin sends as its turn ends (the crawl's early
 * requests, {@link ResponseGate}): they come one per page processed, evenly spread, and each written
 * alone wakes a server that has nothing else to do, at the cost of a wake-up each (on a server that
 * shares the crawler's cores, 10-20 % of the crawl's CPU; docs/benchmarks.md, issue 15). A few
 * milliseconds more before a request leaves is nothing to a response that takes a round trip.
 *
 * <p>A write that fails closes its connection, so that the fetch waiting for the response fails at
 * once (and is sent again on a new connection when it was a kept-alive one, like any failed send).
 * The writer is a platform thread: a virtual thread would wait for the cores behind the very pages
 * whose processing the early requests must not wait for.
 */
final class SendBatch implements AutoCloseable {

  static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
  /** The longest head written here: a write this small into an idle connection never waits. */
  static final int MAX_HEAD_BYTES = 4096;
  /** How long {@link #close} waits for a write in progress. */
  static final long CLOSE_WAIT_MILLIS = 10_000;

  private record Queued(Connection connection, byte[] head) {}

  private final long windowNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition queued = lock.newCondition();
  private List<Queued> queue = new ArrayList<>();
  private boolean closed;
  private Thread writer;

  SendBatch(long windowNanos) {
    this.windowNanos = windowNanos;
  }

  /**
   * Whether the head may be written here: a plain connection and a small head, whose write cannot
   * wait for the server. A TLS write may wait for a handshake the server starts (a renegotiation), and
   * one connection's write that waits would hold up the whole batch: those go out on their own thread.
   */
  static boolean takes(Connection connection, byte[] head) {
    return !connection.route.tls() && head.length <= MAX_HEAD_BYTES;
  }

  /** Queues the head to be written on the connection within the window ({@link #takes} it). */
  void send(Connection connection, byte[] head) throws IOException {
    lock.lock();
    try {
      if (closed) throw new IOException("the fetcher is closed");
      if (writer == null) writer = Thread.ofPlatform().daemon().name("forager-sends").start(this::run);
      connection.headQueued = true;
      queue.add(new Queued(connection, head));
      if (queue.size() == 1) queued.signal();
    } finally {
      lock.unlock();
    }
  }

  private void run() {
    try {
      writeBatches();
    } catch (InterruptedException e) {
      // closed
    } finally {
      // Closed, or an Error (out of memory): the next send starts a new writer rather than queueing
      // for one that is gone.
      failQueued(true);
    }
  }

  private void writeBatches() throws InterruptedException {
    while (true) {
      lock.lock();
      try {
        while (queue.isEmpty() && !closed) queued.await();
        if (closed) break;
      } finally {
        lock.unlock();
      }
      TimeUnit.NANOSECONDS.sleep(windowNanos);
      List<Queued> batch;
      lock.lock();
      try {
        batch = queue;
        queue = new ArrayList<>(batch.size());
      } finally {
        lock.unlock();
      }
      Error error = null;
      for (Queued q : batch) {
        try {
          q.connection().send(q.head());
          q.connection().headQueued = false;
        } catch (Throwable e) {
          q.connection().close();
          if (e instanceof Error err && error == null) error = err;
        }
      }
      // The batch's other heads went out; the Error ends this writer (the next send starts another).
      if (error != null) throw error;
    }
  }

  /**
   * Heads still queued at the end: their connections closed, so that nobody waits for an answer. With
   * {@code writerEnded}, the writer is forgotten in the same step (a head queued after it is the next
   * writer's, not failed here).
   */
  private void failQueued(boolean writerEnded) {
    List<Queued> left;
    lock.lock();
    try {
      if (writerEnded) writer = null;
      left = queue;
      queue = new ArrayList<>();
    } finally {
      lock.unlock();
    }
    for (Queued q : left) q.connection().close();
  }

  /**
   * Stops the writer; heads still queued close their connections. Waits for a write in progress at
   * most {@link #CLOSE_WAIT_MILLIS} (a blocked socket write does not see an interrupt; the fetcher's
   * connections are closed by then, which ends it).
   */
  @Override
  public void close() {
    Thread t;
    lock.lock();
    try {
      closed = true;
      queued.signal();
      t = writer;
    } finally {
      lock.unlock();
    }
    if (t != null) {
      t.interrupt();
      try {
        t.join(CLOSE_WAIT_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    failQueued(false);
  }
}
