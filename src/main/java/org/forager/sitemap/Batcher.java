package org.forager.sitemap;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * Hands what a sitemap lists to the caller in batches of at most {@link #SIZE} as it is read, and
 * counts it against the per-file cap: at most one batch is held, however long the file. Not
 * thread-safe.
 */
final class Batcher<T> {

  /** Entries held before they go to the caller. */
  static final int SIZE = 1_000;

  private final int max;
  private final Consumer<List<T>> sink;
  private List<T> batch = new ArrayList<>();
  private int count;

  Batcher(int max, Consumer<List<T>> sink) {
    this.max = max;
    this.sink = sink;
  }

  /** Whether another entry is still within the cap; when not, it must not even be built. */
  boolean hasRoom() {
    return count < max;
  }

  /** Adds one entry; the caller checked {@link #hasRoom()}. */
  void add(T entry) {
    batch.add(entry);
    count++;
    if (batch.size() == SIZE) flush();
  }

  /** Hands on what is held. */
  void flush() {
    if (batch.isEmpty()) return;
    List<T> full = Collections.unmodifiableList(batch);
    batch = new ArrayList<>();
    sink.accept(full);
  }

  /** Entries added so far. */
  int count() {
    return count;
  }
}
