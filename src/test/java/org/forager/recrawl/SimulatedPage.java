package org.forager.recrawl;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * A page whose content changes on a known schedule, fetched whenever the policy says, over simulated
 * time. {@code version} maps seconds since the start to the content's version number.
 */
final class SimulatedPage {

  static final Instant START = Instant.parse("2025-01-01T00:00:00Z");

  private final RecrawlPolicy policy;
  private final LongUnaryOperator version;
  private final List<Duration> intervals = new ArrayList<>();
  private RecrawlState state;
  private Instant now = START;
  private long lastVersion;

  SimulatedPage(RecrawlPolicy policy, LongUnaryOperator version) {
    this.policy = policy;
    this.version = version;
    this.state = policy.initialState();
    this.lastVersion = version.applyAsLong(0);
    Decision first = policy.decide(state, Observation.FIRST, now);
    follow(first);
  }

  /** Fetches the page whenever due until {@code until} has passed since the start. */
  SimulatedPage runFor(Duration until) {
    Instant end = START.plus(until);
    while (now.isBefore(end)) fetch();
    return this;
  }

  /** Fetches the page when it is due. */
  void fetch() {
    long v = version.applyAsLong(Duration.between(START, now).getSeconds());
    Observation seen = v == lastVersion ? Observation.UNCHANGED : Observation.CHANGED;
    lastVersion = v;
    follow(policy.decide(state, seen, now));
  }

  private void follow(Decision decision) {
    Decision.Recrawl next = (Decision.Recrawl) decision;
    intervals.add(Duration.between(now, next.at()));
    state = next.state();
    now = next.at();
  }

  /** The intervals chosen so far, first fetch's included. */
  List<Duration> intervals() {
    return intervals;
  }

  /** The mean of the last {@code count} intervals, in days. */
  double meanOfLastDays(int count) {
    return intervals.subList(intervals.size() - count, intervals.size()).stream()
        .mapToDouble(d -> d.toMillis() / 86_400_000.0).average().orElseThrow();
  }

  Duration lastInterval() {
    return intervals.get(intervals.size() - 1);
  }

  RecrawlState state() {
    return state;
  }
}
