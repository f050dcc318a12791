package org.forager.status;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.forager.fetch.Outcome;
import org.forager.record.CrawlAction;

/** The last failures of a run, newest first, bounded. Thread-safe. */
final class RecentErrors {

  /**
   * The outcomes that mean something went wrong with the site, the network or the crawler's processing
   * of a URL (INTERNAL_ERROR), not a policy's choice.
   */
  static final Set<Outcome> FAILURES = EnumSet.of(Outcome.HTTP_ERROR, Outcome.RATE_LIMITED,
      Outcome.NETWORK_ERROR, Outcome.DNS_ERROR, Outcome.TIMEOUT, Outcome.BLOCKED_BY_NETWORK_POLICY,
      Outcome.INTERNAL_ERROR);

  /**
   * One failure.
   *
   * @param message what failed (the fetcher's message) or the HTTP status
   */
  record Failure(String ts, String kind, String url, String outcome, int httpStatus, String message) {}

  private final int capacity;
  private final ArrayDeque<Failure> failures = new ArrayDeque<>();

  RecentErrors(int capacity) {
    this.capacity = capacity;
  }

  /** Keeps the action if it is a failure. */
  void offer(CrawlAction action) {
    // A missing robots.txt or sitemap is how most sites answer: no failure to list among the site's.
    if (!FAILURES.contains(action.outcome()) || org.forager.record.RunSummary.absentFile(action)) return;
    String message = action.reason().orElseGet(() -> "HTTP " + action.httpStatus());
    Failure failure = new Failure(action.ts().toString(), action.kind().name().toLowerCase(java.util.Locale.ROOT),
        action.url(), action.outcome().name(), action.httpStatus(), message);
    synchronized (this) {
      failures.addFirst(failure);
      if (failures.size() > capacity) failures.removeLast();
    }
  }

  /** The failures kept, newest first. */
  synchronized List<Failure> newestFirst() {
    return new ArrayList<>(failures);
  }
}
