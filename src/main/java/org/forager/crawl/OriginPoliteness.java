package org.forager.crawl;

import java.time.Duration;
import java.util.Optional;
import org.forager.config.CrawlConfig.Politeness;

/**
 * The delay an origin is owed between two requests (end of one to start of the next):
 * max(min_delay, response_time_factor × mean of the last 5 response times, rate-limit penalty),
 * capped by max_delay, and never less than the robots.txt Crawl-delay: max_delay caps what Forager
 * chooses, not what the site asks for (an origin asking more than max_crawl_delay is put off by the
 * crawl loop). A 429 or 503 raises the penalty to at least twice the delay (1 s at least); every
 * normal answer lowers it by a quarter, so it decays back slowly; the delay an earlier run left
 * ({@link #restore}) decays alike. An operator may set the delay ({@link #operatorDelay}); the site's
 * Crawl-delay and the penalty still floor it, the earlier run's delay does not.
 *
 * <p>Confined to the origin's turns (see {@link org.forager.frontier.OriginTask}); not thread-safe.
 */
final class OriginPoliteness {

  private static final int WINDOW = 5;
  private static final long MIN_PENALTY_MILLIS = 1000;

  private final Politeness config;
  private final long[] responseTimes = new long[WINDOW];
  private int samples;
  private int next;
  private long crawlDelayMillis;
  private long penaltyMillis;
  /**
   * The delay an earlier run left (restored), decaying as the penalty does: it holds the first request
   * after a take-up and those soon after, but an operator's delay overrides it (it is no ask of the
   * site's: an operator's 2 s took three requests to hold after a resume, a new user's review).
   */
  private long restoredMillis;
  /** The delay an operator set (forager ctl set-delay), or -1: the computed one. */
  private long operatorMillis = -1;

  OriginPoliteness(Politeness config) {
    this.config = config;
  }

  void responseTime(long millis) {
    responseTimes[next] = Math.max(0, millis);
    next = (next + 1) % WINDOW;
    samples = Math.min(samples + 1, WINDOW);
  }

  /** The site's Crawl-delay, kept up to max_crawl_delay (the crawl loop puts off an origin asking more). */
  void crawlDelay(Optional<Duration> crawlDelay) {
    long ceiling = config.maxCrawlDelay().toMillis();
    crawlDelayMillis = crawlDelay.map(d -> d.compareTo(config.maxCrawlDelay()) > 0 ? ceiling : d.toMillis()).orElse(0L);
  }

  void rateLimited() {
    penaltyMillis = Math.min(config.maxDelay().toMillis(), Math.max(MIN_PENALTY_MILLIS, 2 * delayMillis()));
  }

  void answeredNormally() {
    penaltyMillis = penaltyMillis * 3 / 4;
    restoredMillis = restoredMillis * 3 / 4;
  }

  /** Restores the delay kept from an earlier run, up to max_delay. */
  void restore(long delayMillis) {
    long base = Math.max(baseMillis(), crawlDelayMillis);
    if (delayMillis > base) restoredMillis = Math.min(delayMillis, config.maxDelay().toMillis());
  }

  /**
   * The delay an operator set for the origin, in place of the one computed from min_delay, the
   * response times and max_delay; empty: back to the computed one. The site's own asks (Crawl-delay,
   * a rate-limit penalty) still hold: it is never less than they are.
   */
  void operatorDelay(java.util.OptionalLong millis) {
    operatorMillis = millis.orElse(-1);
  }

  long delayMillis() {
    long chosen = operatorMillis >= 0 ? Math.max(operatorMillis, penaltyMillis)
        : Math.min(config.maxDelay().toMillis(), Math.max(baseMillis(), Math.max(penaltyMillis, restoredMillis)));
    return Math.max(chosen, crawlDelayMillis);
  }

  private long baseMillis() {
    long delay = config.minDelay().toMillis();
    if (samples > 0) {
      long sum = 0;
      for (int i = 0; i < samples; i++) sum += responseTimes[i];
      delay = Math.max(delay, (long) (config.responseTimeFactor() * sum / samples));
    }
    return delay;
  }
}
