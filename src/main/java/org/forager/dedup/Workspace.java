package org.forager.dedup;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The buffers one simhash computation writes (about 70 KB of arrays), lent from a small pool so that
 * a page's simhash allocates none: made fresh for every page they were a sixth of all a crawl
 * allocated (issue 15). A computation takes one, uses it on its own thread and gives it back; it never
 * blocks in between, so about one per core is ever out. Thread-safe.
 */
final class Workspace {

  /** More than the computations that run at once (one per carrier or platform thread computing). */
  private static final AtomicReferenceArray<Workspace> POOL =
      new AtomicReferenceArray<>(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));

  final Shingles shingles = new Shingles();
  final WordHashes words = new WordHashes(shingles);
  final ByteClasses classes = new ByteClasses();

  private Workspace() {}

  /** A workspace with nothing added: from the pool, or new when the pool has none. */
  static Workspace take() {
    for (int i = 0; i < POOL.length(); i++) {
      Workspace pooled = POOL.getAndSet(i, null);
      if (pooled != null) return pooled.reset();
    }
    return new Workspace();
  }

  /** Gives this workspace back; dropped when the pool is full. Not used again by the giver. */
  void give() {
    classes.forget(); // the buffers are kept for the next page, the page is not
    words.forget();
    for (int i = 0; i < POOL.length(); i++) {
      if (POOL.compareAndSet(i, null, this)) return;
    }
  }

  /** Cleared here, not at give(): a computation that threw may have left it part-way. */
  private Workspace reset() {
    shingles.reset();
    return this;
  }
}
