package org.forager.recrawl;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.forager.config.CrawlConfig;

/**
 * Decides when a URL is fetched again, from what its last crawl action observed and what is known
 * about it. Immutable and thread-safe; pure: no I/O, no clock (the caller passes the time of the
 * action). The rules, in docs/freshness.md:
 *
 * <ul>
 *   <li>Content ({@link Observation#FIRST}, {@link Observation#CHANGED}, {@link
 *       Observation#UNCHANGED}, a 304 being unchanged): the interval follows the estimated mean time
 *       between changes ({@link ChangeRate}), moving at most ×2 or ÷2 per fetch; a change shortens it
 *       (÷1.5 at least), no change never does; within {@code
 *       recrawl.min_interval}..{@code recrawl.max_interval}. A first fetch waits {@code
 *       recrawl.interval}.
 *   <li>{@link Observation#REDIRECT} and {@link Observation#BLOCKED}: {@code recrawl.interval}.
 *   <li>{@link Observation#FAILED}: the k-th consecutive failure waits {@code recrawl.interval} ×
 *       2<sup>min(k, 3)</sup>: with the default 1 week, 2, 4, 8, 8, … weeks (seed 001's backoff).
 *   <li>{@link Observation#GONE} (404, 410): checked again after {@code recrawl.max_interval}; the
 *       {@value #GONE_LIMIT}th in a row retires the URL.
 * </ul>
 *
 * <p>Failures, redirects and gates leave the change history alone, so a page that was down for a
 * while comes back at the interval it had.
 */
public final class RecrawlPolicy {

  /** Each comparison multiplies the weight of the earlier ones by this: the history is ~5 fetches long. */
  public static final double HISTORY_WEIGHT = 0.8;
  /** The interval moves by at most this factor per fetch, so that one surprise does not swing it. */
  public static final double MAX_STEP = 2;
  /** A fetch that saw a change shortens the interval by at least this factor. */
  public static final double CHANGE_SHRINK = 1.5;
  /** Failure backoff doubles this many times at most (seed 001: 2, 4, 8 weeks). */
  public static final int MAX_FAILURE_DOUBLINGS = 3;
  /** This many 404/410 answers in a row retire a URL. */
  public static final int GONE_LIMIT = 3;

  private final Duration interval;
  private final Duration minInterval;
  private final Duration maxInterval;

  public RecrawlPolicy(CrawlConfig.Recrawl config) {
    if (config.minInterval().compareTo(config.maxInterval()) > 0) {
      throw new IllegalArgumentException("min_interval > max_interval: " + config);
    }
    this.interval = config.interval();
    this.minInterval = config.minInterval();
    this.maxInterval = config.maxInterval();
  }

  /** The state of a URL never fetched. */
  public RecrawlState initialState() {
    return RecrawlState.initial(interval);
  }

  /**
   * The next fetch of a URL after a crawl action.
   *
   * @param state the URL's state before the action ({@link #initialState()} if it has none)
   * @param observation what the action observed ({@link Observation#of} maps a crawl action)
   * @param now when the action happened
   */
  public Decision decide(RecrawlState state, Observation observation, Instant now) {
    return switch (observation) {
      case FIRST -> content(state, Optional.empty(), now);
      case CHANGED -> content(state, Optional.of(true), now);
      case UNCHANGED -> content(state, Optional.of(false), now);
      case REDIRECT, BLOCKED -> new Decision.Recrawl(plus(now, interval), state.withFailures(0, 0));
      case FAILED -> {
        int failures = saturatingIncrement(state.failures());
        Duration wait = times(interval, Math.pow(2, Math.min(failures, MAX_FAILURE_DOUBLINGS)));
        yield new Decision.Recrawl(plus(now, wait), state.withFailures(failures, 0));
      }
      case GONE -> {
        RecrawlState next = state.withFailures(0, saturatingIncrement(state.gone()));
        yield next.gone() >= GONE_LIMIT
            ? new Decision.Retire(next)
            : new Decision.Recrawl(plus(now, maxInterval), next);
      }
    };
  }

  /**
   * When a URL is due after a sitemap said it was last modified at {@code lastmod}: earlier than
   * scheduled when that is after its last content fetch (the copy we have is stale), but never sooner
   * than {@code recrawl.min_interval} after that fetch, so a sitemap that stamps every URL with the
   * current time costs a site no more than the fastest-changing page would. A lastmod in the future is
   * taken as {@code now}.
   *
   * @param state the URL's state
   * @param scheduledAt when the URL is due now
   * @param lastmod the sitemap's {@code <lastmod>} for the URL
   * @param now the current time
   * @return the new due time, never later than {@code scheduledAt}
   */
  public Instant afterSitemapLastmod(RecrawlState state, Instant scheduledAt, Instant lastmod, Instant now) {
    if (state.lastContentAt().isEmpty()) return scheduledAt;
    Instant fetched = state.lastContentAt().get();
    Instant modified = lastmod.isAfter(now) ? now : lastmod;
    if (!modified.isAfter(fetched)) return scheduledAt;
    Instant due = max(plus(fetched, minInterval), modified);
    return due.isBefore(scheduledAt) ? due : scheduledAt;
  }

  /** A content fetch: compare (when {@code changed} is known), re-estimate, schedule. */
  private Decision content(RecrawlState state, Optional<Boolean> changed, Instant now) {
    if (changed.isEmpty() || state.lastContentAt().isEmpty()) {
      // Nothing to compare with: the first fetch, or the digest was lost. Keep the interval known so far.
      RecrawlState next = new RecrawlState(state.interval(), state.comparisons(), state.changes(),
          state.observed(), Optional.of(now), state.lastChangeAt(), 0, 0);
      return new Decision.Recrawl(plus(now, bounded(state.interval())), next);
    }
    boolean change = changed.get();
    Duration elapsed = Duration.between(state.lastContentAt().get(), now);
    if (elapsed.isNegative()) elapsed = Duration.ZERO; // clocks of two crawler machines may disagree
    double comparisons = state.comparisons() * HISTORY_WEIGHT + 1;
    double changes = state.changes() * HISTORY_WEIGHT + (change ? 1 : 0);
    double observed = seconds(state.observed()) * HISTORY_WEIGHT + seconds(elapsed);
    double target = ChangeRate.meanTimeBetweenChanges(comparisons, changes, observed);
    double previous = seconds(state.interval());
    double stepped = Math.max(previous / MAX_STEP, Math.min(previous * MAX_STEP, target));
    // The estimate is censored: a page seen changed at every fetch only shows that it changes at least
    // that often, and r̂ saturates near ln(2n + 1). So a change always shortens the interval by
    // CHANGE_SHRINK at least (a quiet page that turns busy is caught up with in ~15 fetches, not ~50),
    // and an unchanged fetch never shortens it.
    stepped = change ? Math.min(stepped, previous / CHANGE_SHRINK) : Math.max(stepped, previous);
    Duration nextInterval = bounded(ofSeconds(stepped));
    RecrawlState next = new RecrawlState(nextInterval, comparisons, changes, ofSeconds(observed),
        Optional.of(now), change ? Optional.of(now) : state.lastChangeAt(), 0, 0);
    return new Decision.Recrawl(plus(now, nextInterval), next);
  }

  private Duration bounded(Duration d) {
    if (d.compareTo(minInterval) < 0) return minInterval;
    return d.compareTo(maxInterval) > 0 ? maxInterval : d;
  }

  private static int saturatingIncrement(int count) {
    return count == Integer.MAX_VALUE ? count : count + 1;
  }

  private static double seconds(Duration d) {
    return d.getSeconds() + d.getNano() / 1e9;
  }

  /** Whole milliseconds: finer means nothing for a recrawl. Saturates far beyond any interval. */
  private static Duration ofSeconds(double seconds) {
    double millis = Math.min(seconds * 1000, (double) Long.MAX_VALUE / 2);
    return Duration.ofMillis(Math.round(millis));
  }

  private static Duration times(Duration d, double factor) {
    return ofSeconds(seconds(d) * factor);
  }

  /** {@code at + d}, saturating at {@link Instant#MAX} rather than throwing. */
  private static Instant plus(Instant at, Duration d) {
    return Duration.between(at, Instant.MAX).compareTo(d) <= 0 ? Instant.MAX : at.plus(d);
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
