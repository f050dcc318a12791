package org.forager.crawl;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.forager.store.CrawlStore;
import org.forager.store.OriginState;
import org.forager.url.Origin;

/**
 * The origins whose robots.txt redirects to another origin's robots.txt (http to https, the apex to
 * www), and those they wait for: RFC 9309 section 2.3.1.2 makes the file reached the first origin's
 * rules too. The file is fetched by its own origin's turns only (a request from another origin's turn
 * would break its politeness), and read from the store, where that origin keeps it once its turn has
 * fetched it. So a waiting origin leaves the working set (a waiter holding its place would keep the
 * target out when the working set is full of them), the target is taken up for its robots.txt even
 * with nothing due, and its turn wakes the waiters once the file is in the store, or once its turn ends
 * without one (unreachable, given up, blocked): the waiters then have no rules and are put off.
 *
 * <p>Only this run's waits are kept, in memory: at most {@value #MAX_WAITERS} waiting origins (one
 * past it asks again at its next take-up: one more request for its own robots.txt). Thread-safe.
 */
final class BorrowedRobots {

  /** RFC 9309 section 2.4: a cached robots.txt should not be used for more than 24 hours. */
  static final Duration RFC_CACHE_LIMIT = Duration.ofHours(24);
  /** Waiting origins kept at most. */
  static final int MAX_WAITERS = 100_000;
  /** The longest chain of redirects between origins followed when looking for a loop. */
  static final int MAX_CHAIN = 5;

  /** What a wait came to when it began. */
  enum Start {
    /** Registered: the target's turn will wake the waiter. */
    WAITING,
    /** The target waits, directly or down a chain, for the waiter: a loop, read as past the redirect limit. */
    LOOP,
    /** The target's turn ended in this run without rules: nothing to wait for. */
    FAILED,
    /** Too many waiters: not registered. */
    FULL
  }

  private final CrawlStore store;
  private final Duration cacheTtl;
  private final Consumer<Origin> wake;
  private final Consumer<Origin> takeUp;
  /** Guarded by {@code this}: each waiting origin's target, and each target's waiting origins. */
  private final Map<Origin, Origin> targetOf = new HashMap<>();
  private final Map<Origin, Set<Origin>> waitersOf = new HashMap<>();
  /** Targets whose turn ended in this run without rules; guarded by {@code this}, bounded with the waiters. */
  private final Set<Origin> failed = new HashSet<>();
  private long overflowed;

  /**
   * @param cacheTtl robots.cache_ttl: how long a file borrowed past its own expiry is used
   * @param wake tells a waiting origin that its target's turn is over
   * @param takeUp has an origin taken up in this run even with nothing due: a target, for its robots.txt
   */
  BorrowedRobots(CrawlStore store, Duration cacheTtl, Consumer<Origin> wake, Consumer<Origin> takeUp) {
    this.store = store;
    this.cacheTtl = cacheTtl;
    this.wake = wake;
    this.takeUp = takeUp;
  }

  /**
   * {@code target}'s robots.txt as its origin keeps it in the store, while it may be used: a definite
   * answer (2xx, or a 4xx but 429: no rules) not expired, or fetched within the 24 hours RFC 9309
   * section 2.4 lets a crawler use a cached file (a target with nothing due is not asked again every
   * robots.cache_ttl); such a file expires for the borrower at the earlier of those 24 hours and
   * {@code robots.cache_ttl} from now.
   */
  Optional<OriginState.RobotsTxt> rulesOf(Origin target, Instant now) {
    return store.originState(target).flatMap(OriginState::robotsTxt)
        .filter(txt -> definite(txt) && (txt.expiresAt().isAfter(now) || txt.fetchedAt().plus(RFC_CACHE_LIMIT).isAfter(now)))
        .map(txt -> {
          if (txt.expiresAt().isAfter(now)) return txt;
          Instant day = txt.fetchedAt().plus(RFC_CACHE_LIMIT);
          Instant ttl = now.plus(cacheTtl);
          return new OriginState.RobotsTxt(txt.status(), txt.body(), txt.fetchedAt(), day.isBefore(ttl) ? day : ttl);
        });
  }

  /**
   * {@code waiter} waits for {@code target}'s robots.txt: the target is taken up for it (unless a loop
   * or too many waiters say otherwise).
   */
  Start await(Origin waiter, Origin target) {
    synchronized (this) {
      Origin next = target;
      for (int hop = 0; hop < MAX_CHAIN && next != null; hop++) {
        if (next.equals(waiter)) return Start.LOOP;
        next = targetOf.get(next);
      }
      if (failed.contains(target)) return Start.FAILED;
      if (!targetOf.containsKey(waiter) && targetOf.size() >= MAX_WAITERS) return Start.FULL;
      Origin before = targetOf.put(waiter, target);
      if (before != null && !before.equals(target)) forget(waiter, before);
      waitersOf.computeIfAbsent(target, t -> new LinkedHashSet<>()).add(waiter);
    }
    takeUp.accept(target);
    return Start.WAITING;
  }

  /** The origin {@code waiter} waits for in this run, if it does. */
  synchronized Optional<Origin> targetOf(Origin waiter) {
    return Optional.ofNullable(targetOf.get(waiter));
  }

  /** Whether {@code target}'s turn ended in this run without rules for its waiters. */
  synchronized boolean failed(Origin target) {
    return failed.contains(target);
  }

  /** {@code waiter} waits no more (it has rules, or gave up). */
  synchronized void done(Origin waiter) {
    Origin target = targetOf.remove(waiter);
    if (target != null) forget(waiter, target);
  }

  /** Whether some origin waits for {@code origin}'s robots.txt. */
  synchronized boolean awaited(Origin origin) {
    return waitersOf.containsKey(origin);
  }

  /**
   * {@code target}'s turn has its robots.txt in the store ({@code withRules}), or ended without one:
   * its waiters are woken to read it, or to be put off.
   */
  void settled(Origin target, boolean withRules) {
    List<Origin> woken;
    synchronized (this) {
      Set<Origin> waiters = waitersOf.get(target);
      if (waiters == null) return;
      woken = List.copyOf(waiters);
      if (!withRules && failed.size() < MAX_WAITERS) failed.add(target);
    }
    woken.forEach(wake);
  }

  /** How many origins still wait: said at the run's end. */
  synchronized int waiting() {
    return targetOf.size();
  }

  /** An origin found no place to wait ({@link Start#FULL}) and was put off. */
  synchronized void overflowed() {
    overflowed++;
  }

  /** How many origins found no place to wait in this run. */
  synchronized long overflowedCount() {
    return overflowed;
  }

  private void forget(Origin waiter, Origin target) {
    Set<Origin> waiters = waitersOf.get(target);
    if (waiters == null) return;
    waiters.remove(waiter);
    if (waiters.isEmpty()) waitersOf.remove(target);
  }

  /** A 2xx (rules) or a 4xx but 429 (no rules); not unreachable, a 5xx or a 429, which are no answer. */
  private static boolean definite(OriginState.RobotsTxt txt) {
    int status = txt.status();
    return (status >= 200 && status < 300) || (status >= 400 && status < 500 && status != 429);
  }
}
