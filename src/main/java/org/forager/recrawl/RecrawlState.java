package org.forager.recrawl;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What the recrawl policy remembers about one URL between fetches; the store keeps it per URL. Immutable.
 *
 * <p>The change history is exponentially weighted: at each comparison the earlier weights are
 * multiplied by {@link RecrawlPolicy#HISTORY_WEIGHT}, so the estimate follows a page whose habits
 * change, and the state stays the same size however often the URL is fetched.
 *
 * @param interval the interval chosen by the change-rate estimate for content fetches; starts at
 *     {@code recrawl.interval}
 * @param comparisons the weighted number of fetches whose content was compared with the previous one
 * @param changes the weighted number of those comparisons that found a change
 * @param observed the weighted sum of the times between the compared fetches
 * @param lastContentAt when content was last fetched (the start of the next comparison), if ever
 * @param lastChangeAt the fetch that last found a change, if any
 * @param failures consecutive {@link Observation#FAILED} actions
 * @param gone consecutive {@link Observation#GONE} actions
 */
public record RecrawlState(
    Duration interval,
    double comparisons,
    double changes,
    Duration observed,
    Optional<Instant> lastContentAt,
    Optional<Instant> lastChangeAt,
    int failures,
    int gone) {

  public RecrawlState {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(observed, "observed");
    Objects.requireNonNull(lastContentAt, "lastContentAt");
    Objects.requireNonNull(lastChangeAt, "lastChangeAt");
    if (interval.isNegative() || observed.isNegative()) throw new IllegalArgumentException("negative duration");
    if (!(comparisons >= 0 && changes >= 0 && changes <= comparisons)) {
      throw new IllegalArgumentException("need 0 ≤ changes ≤ comparisons: " + changes + ", " + comparisons);
    }
    if (failures < 0 || gone < 0) throw new IllegalArgumentException("negative count");
  }

  /** The state of a URL never fetched, whose first interval will be {@code interval}. */
  public static RecrawlState initial(Duration interval) {
    return new RecrawlState(interval, 0, 0, Duration.ZERO, Optional.empty(), Optional.empty(), 0, 0);
  }

  RecrawlState withFailures(int failures, int gone) {
    return new RecrawlState(interval, comparisons, changes, observed, lastContentAt, lastChangeAt, failures, gone);
  }
}
