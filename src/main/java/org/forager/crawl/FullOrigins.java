package org.forager.crawl;

import java.util.HashSet;
import java.util.Set;
import org.forager.config.CrawlConfig;
import org.forager.record.RunSummary;
import org.forager.store.UrlCap;
import org.forager.url.Origin;

/**
 * The origins holding {@code limits.max_urls_per_origin} URLs in the store (or their {@code sites}
 * rule's {@code max_urls}; a long URL counting as several, {@link UrlCap#weight}), as the store drops their new URLs: the first few named on the terminal as
 * they fill (a web of traps would flood it), the dropped URLs counted for the progress line and the
 * run's summary. Told by the store after its write, outside its lock. Thread-safe.
 */
final class FullOrigins implements UrlCap.Dropped {

  private static final int NAMED = 10;

  private final CrawlConfig config;
  private final RunSummary summary;
  /** Guarded by {@code this}. */
  private final Set<String> named = new HashSet<>();
  private boolean moreNamed;

  FullOrigins(CrawlConfig config, RunSummary summary) {
    this.config = config;
    this.summary = summary;
  }

  /** The cap to give the store. */
  UrlCap cap() {
    return new UrlCap(this::maxUrls, this);
  }

  private long maxUrls(String origin) {
    if (config.sites().rules().isEmpty()) return config.limits().maxUrlsPerOrigin();
    try {
      return config.maxUrlsFor(Origin.ofUrl(origin).host());
    } catch (IllegalArgumentException e) {
      return config.limits().maxUrlsPerOrigin(); // a store holds serialized origins only: not reached
    }
  }

  @Override
  public void dropped(String origin, int count) {
    summary.urlsNotKept(count);
    synchronized (this) {
      if (named.contains(origin) || moreNamed) return;
      if (named.size() == NAMED) {
        moreNamed = true;
        Notice.println("forager: more origins reached limits.max_urls_per_origin; not named further");
        return;
      }
      named.add(origin);
    }
    long max = maxUrls(origin);
    String line = String.format("forager: %s reached its cap of %,d URLs (%s): its new links are not kept", origin, max,
        max == config.limits().maxUrlsPerOrigin() ? "limits.max_urls_per_origin" : "its sites rule's max_urls");
    Notice.println(line);
  }

  /** Adds the run's note to its summary when the store dropped any URL. */
  void note() {
    long n = summary.urlsNotKept();
    if (n == 0) return;
    summary.note(String.format("%,d new URL%s not kept: %s origin held limits.max_urls_per_origin (%,d) URLs"
        + " or its sites rule's max_urls (the first named on the terminal)", n, n == 1 ? "" : "s",
        n == 1 ? "its" : "their", config.limits().maxUrlsPerOrigin()));
  }
}
