package org.forager.crawl;

import java.util.concurrent.atomic.AtomicLong;

/** The run's max_actions: every crawl action takes one unit first. Thread-safe. */
final class ActionBudget {

  private final AtomicLong left;
  /** Whether an action was refused for want of a unit: the run ended with work left. */
  private volatile boolean cutShort;

  ActionBudget(long maxActions) {
    this.left = new AtomicLong(maxActions);
  }

  /** Takes one unit; false when none is left (the action must not happen). */
  boolean tryTake() {
    if (left.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) return true;
    cutShort = true;
    return false;
  }

  /** An origin had work when the budget was spent. */
  void workLeft() {
    cutShort = true;
  }

  /** Whether an action wanted a unit after the last was taken: the budget, not the work, ended the run. */
  boolean cutShort() {
    return cutShort;
  }

  boolean exhausted() {
    return left.get() <= 0;
  }
}
