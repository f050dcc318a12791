package org.forager.crawl;

import java.time.Duration;
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
 * for. Files read in earlier runs come from the store, and a file up to a day old is used rather than
 * waited for (RFC 9309 section 2.4). Thread-safe; at most {@value #MAX_AWAITED}
 * targets remembered (forgotten all at once beyond: a waiting origin then reads the store).
 */
final class BorrowedRobots {

  static final int MAX_AWAITED = 65_536;

  /** RFC 9309 section 2.4: a cached robots.txt should not be used for more than 24 hours. */
  static final Duration RFC_CACHE_LIMIT = Duration.ofHours(24);

  private final CrawlStore store;
  private final Duration cacheTtl;
  /** Targets some origin waits for, with the file their turn read in this run (empty: not yet). */
  private final ConcurrentHashMap<Origin, Optional<OriginState.RobotsTxt>> awaited = new ConcurrentHashMap<>();

  /** @param cacheTtl robots.cache_ttl: how long a file borrowed past its own expiry is used */
  BorrowedRobots(CrawlStore store, Duration cacheTtl) {
    this.store = store;
    this.cacheTtl = cacheTtl;
  }

  /**
   * {@code origin}'s robots.txt, from this run or the store, while it may be used: a definite answer
   * (2xx, or a 4xx but 429: no rules) not expired, or fetched within the 24 hours RFC 9309 section 2.4
   * lets a crawler use a cached file (a target whose turn is over for this run does not read it again);
   * such a file expires for the borrower at the earlier of those 24 hours and {@code robots.cache_ttl}
   * from now, and the borrower asks again then.
   */
  Optional<OriginState.RobotsTxt> rulesOf(Origin origin, Instant now) {
    Optional<OriginState.RobotsTxt> read = awaited.getOrDefault(origin, Optional.empty());
    if (read.isEmpty() || !read.get().expiresAt().isAfter(now)) {
      Optional<OriginState.RobotsTxt> stored = store.originState(origin).flatMap(OriginState::robotsTxt);
      if (stored.isPresent() && (read.isEmpty() || stored.get().fetchedAt().isAfter(read.get().fetchedAt()))) read = stored;
    }
    return read.filter(txt -> definite(txt) && txt.fetchedAt().plus(RFC_CACHE_LIMIT).isAfter(now)).map(txt -> {
      if (txt.expiresAt().isAfter(now)) return txt;
      Instant until = txt.fetchedAt().plus(RFC_CACHE_LIMIT);
      Instant ttl = now.plus(cacheTtl);
      return new OriginState.RobotsTxt(txt.status(), txt.body(), txt.fetchedAt(), until.isBefore(ttl) ? until : ttl);
    });
  }

  /** Some origin waits for {@code origin}'s robots.txt: what its turn reads is kept from now on. */
  void await(Origin origin) {
    if (awaited.size() >= MAX_AWAITED) awaited.clear();
    awaited.putIfAbsent(origin, Optional.empty());
  }

  /** {@code origin}'s turn read its robots.txt (or took it from the store): kept when awaited. */
  void read(Origin origin, OriginState.RobotsTxt txt) {
    if (definite(txt)) awaited.computeIfPresent(origin, (o, before) -> Optional.of(txt));
  }

  /** A 2xx (rules) or a 4xx but 429 (no rules); not unreachable, a 5xx or a 429, which are no answer. */
  private static boolean definite(OriginState.RobotsTxt txt) {
    int status = txt.status();
    return (status >= 200 && status < 300) || (status >= 400 && status < 500 && status != 429);
  }
}
