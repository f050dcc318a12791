package org.forager.crawl;

import java.util.concurrent.atomic.AtomicLong;

/** The run's max_actions: every crawl action takes one unit first. Thread-safe. */
final class ActionBudget {

  private final AtomicLong left;

  ActionBudget(long maxActions) {
    this.left = new AtomicLong(maxActions);
  }

  /** Takes one unit; false when none is left (the action must not happen). */
  boolean tryTake() {
    return left.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
  }

  boolean exhausted() {
    return left.get() <= 0;
  }
}
