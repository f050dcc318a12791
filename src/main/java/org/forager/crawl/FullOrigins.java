package org.forager.crawl;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.forager.record.RunSummary;
import org.forager.store.UrlCap;

/**
 * The origins holding {@code limits.max_urls_per_origin} URLs in the store, as the store drops their new
 * URLs: the first few named on the terminal as they fill (a web of traps would flood it), the dropped
 * URLs counted for the run's summary. Told from inside the store's writes: quick, and a terminal line
 * only for the first few. Thread-safe.
 */
final class FullOrigins implements UrlCap.Dropped {

  private static final int NAMED = 10;

  private final long maxUrls;
  private final AtomicLong dropped = new AtomicLong();
  /** Guarded by {@code this}. */
  private final Set<String> named = new HashSet<>();
  private boolean moreNamed;

  FullOrigins(long maxUrls) {
    this.maxUrls = maxUrls;
  }

  /** The cap to give the store. */
  UrlCap cap() {
    return new UrlCap(maxUrls, this);
  }

  @Override
  public void dropped(String origin, int count) {
    dropped.addAndGet(count);
    synchronized (this) {
      if (named.contains(origin) || moreNamed) return;
      if (named.size() == NAMED) {
        moreNamed = true;
        Notice.println("forager: more origins reached limits.max_urls_per_origin; not named further");
        return;
      }
      named.add(origin);
    }
    Notice.printf("forager: %s holds %,d URLs (limits.max_urls_per_origin): its new links are not kept",
        origin, maxUrls);
  }

  /** New URLs dropped so far in the run. */
  long dropped() {
    return dropped.get();
  }

  /** Adds the run's note to {@code summary} when it dropped any URL. */
  void noteIn(RunSummary summary) {
    long n = dropped.get();
    if (n == 0) return;
    summary.note(String.format("%,d new URL%s not kept: %s origin held limits.max_urls_per_origin (%,d) URLs"
        + " (the first named on the terminal)", n, n == 1 ? "" : "s", n == 1 ? "its" : "their", maxUrls));
  }
}
