package org.forager.crawl;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.forager.store.CrawlStore;
import org.forager.store.OriginState;
import org.forager.url.Origin;

/**
 * The robots.txt of origins that other origins' robots.txt redirect to (http to https, the apex to
 * www): RFC 9309 section 2.3.1.2 makes the file reached the first origin's rules too. The file is
 * fetched by its own origin's turns only (a request from another origin's turn would break its
 * politeness), so an origin redirected here waits until the target's turn has read it: each origin's
 * robots step tells this board what it read, and the board keeps it for the origins someone waits
 * for. Files read in earlier runs come from the store. Thread-safe; at most {@value #MAX_AWAITED}
 * targets remembered (forgotten all at once beyond: a waiting origin then reads the store).
 */
final class BorrowedRobots {

  static final int MAX_AWAITED = 65_536;

  private final CrawlStore store;
  /** Targets some origin waits for, with the file their turn read in this run (empty: not yet). */
  private final ConcurrentHashMap<Origin, Optional<OriginState.RobotsTxt>> awaited = new ConcurrentHashMap<>();

  BorrowedRobots(CrawlStore store) {
    this.store = store;
  }

  /** {@code origin}'s robots.txt while it holds (a definite answer, not expired), from this run or the store. */
  Optional<OriginState.RobotsTxt> rulesOf(Origin origin, Instant now) {
    Optional<OriginState.RobotsTxt> read = awaited.getOrDefault(origin, Optional.empty());
    if (read.isEmpty()) read = store.originState(origin).flatMap(OriginState::robotsTxt);
    return read.filter(txt -> usable(txt, now));
  }

  /** Some origin waits for {@code origin}'s robots.txt: what its turn reads is kept from now on. */
  void await(Origin origin) {
    if (awaited.size() >= MAX_AWAITED) awaited.clear();
    awaited.putIfAbsent(origin, Optional.empty());
  }

  /** {@code origin}'s turn read its robots.txt (or took it from the store): kept when awaited. */
  void read(Origin origin, OriginState.RobotsTxt txt) {
    if (usable(txt, txt.fetchedAt())) awaited.computeIfPresent(origin, (o, before) -> Optional.of(txt));
  }

  /**
   * A definite answer (2xx, or 4xx: no rules) still in force. An unreachable file, a 5xx or a 429 is no
   * answer: RobotsFetcher keeps them expiring at once.
   */
  private static boolean usable(OriginState.RobotsTxt txt, Instant now) {
    return txt.status() != 0 && txt.expiresAt().isAfter(now);
  }
}
