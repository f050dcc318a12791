package org.forager.crawl;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The pages fetched and not yet recorded, and the bound on them that holds back new page fetches.
 * When the crawl is bound by its CPU (fast servers, many origins), fetches come back faster than the
 * pages can be parsed and stored, and without a bound every origin in flight would hold its page's
 * body while it waits for a core: a thousand origins, a thousand bodies, alive across young
 * collections and promoted (issue 15: a crawl at concurrency 32 took 4 % less CPU than at 1,000 on
 * the benchmark's fast web). So a page's fetch starts only while fewer than {@link #limit} pages
 * are in hand. Fetches in flight are not counted: while the servers are what is slow, pages come
 * back no faster than they are processed, nothing waits here, and {@code concurrency} alone says
 * how many origins are in flight. Only the wait is added, never a request: politeness is
 * untouched. Thread-safe.
 */
final class PagesInHand {

  /** Pages in hand a core: enough that a page waiting on the store or the WARC leaves the core work. */
  static final int PER_CORE = 16;

  private final int limit;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition room = lock.newCondition();
  private int inHand;

  PagesInHand(int limit) {
    if (limit <= 0) throw new IllegalArgumentException("limit must be positive: " + limit);
    this.limit = limit;
  }

  /** The bound for this machine: {@link #PER_CORE} pages a core. */
  static PagesInHand forThisMachine() {
    return new PagesInHand(PER_CORE * Runtime.getRuntime().availableProcessors());
  }

  /**
   * Waits until fewer than the limit are in hand; then the caller may fetch a page. Not interrupted:
   * the pages in hand are recorded whatever happens to them, so room always comes.
   */
  void awaitRoom() {
    lock.lock();
    try {
      while (inHand >= limit) room.awaitUninterruptibly();
    } finally {
      lock.unlock();
    }
  }

  /** A page fetched: in hand until {@link #recorded}. */
  void fetched() {
    lock.lock();
    try {
      inHand++;
    } finally {
      lock.unlock();
    }
  }

  /** A page fetched is recorded (or given up): room for the next fetch. */
  void recorded() {
    lock.lock();
    try {
      inHand--;
      room.signal();
    } finally {
      lock.unlock();
    }
  }

  int inHand() {
    lock.lock();
    try {
      return inHand;
    } finally {
      lock.unlock();
    }
  }

  int limit() {
    return limit;
  }
}
