package org.forager.status;

import java.util.List;
import java.util.Map;
import org.forager.crawl.OriginSnapshot;

/**
 * What {@code /api/status} answers: one moment of a run. Serialized with snake_case names; the fields
 * are documented in docs/status.md.
 *
 * @param state {@code waiting} (no run started yet), {@code running} or {@code finished}
 * @param started when the run started (ISO-8601), empty before
 * @param now when this report was made (ISO-8601)
 * @param outcomes crawl actions by outcome, every outcome listed
 */
record StatusReport(
    String state,
    String started,
    String now,
    double elapsedSeconds,
    Totals totals,
    Map<String, Long> outcomes,
    List<RateHistory.Point> rate,
    List<OriginRow> busiestOrigins,
    List<OriginRow> slowestOrigins,
    List<RecentErrors.Failure> recentErrors) {

  /**
   * The run's totals.
   *
   * @param fetched actions that got an answer the crawl could use (not a failure, not refused)
   * @param pagesRequested page requests made (robots.txt and refusals without a request not counted)
   * @param failures actions whose outcome is a failure (see {@link RecentErrors#FAILURES})
   * @param origins origins in scope
   */
  record Totals(long actions, long fetched, long pagesRequested, long failures, long robotsFetches, long bytes,
      long knownUrls, int activeOrigins, int origins) {}

  /** One origin's row in the tables. */
  record OriginRow(String origin, long delayMs, int patience, int queued, long pages, boolean givenUp) {
    static OriginRow of(OriginSnapshot s) {
      return new OriginRow(s.origin().toString(), s.delayMillis(), s.patience(), s.queued(), s.pagesFetched(),
          s.givenUp());
    }
  }
}
