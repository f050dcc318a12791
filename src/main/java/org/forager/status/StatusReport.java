package org.forager.status;

import java.util.List;
import java.util.Map;
import org.forager.crawl.OriginSnapshot;

/**
 * What {@code /api/status} answers: one moment of a run. Serialized with snake_case names; the fields
 * are documented in docs/status.md.
 *
 * @param state {@code waiting} (no run started yet), {@code running}, {@code paused} (by an operator)
 *     or {@code finished}
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
    List<RecentErrors.Failure> recentErrors,
    Control control) {

  /**
   * The operator's orders in force (docs/status.md, "Control").
   *
   * @param enabled whether this server takes orders (its page shows the buttons only then, and only
   *     with the token)
   * @param turnsInFlight turns running now: after a pause, the fetches still to finish
   * @param blocked the blocked hosts, by host
   * @param delaysMs delays an operator set, by origin
   */
  record Control(boolean enabled, boolean paused, int turnsInFlight, List<BlockedHost> blocked,
      List<String> pausedOrigins, Map<String, Long> delaysMs) {

    static final Control NONE = new Control(false, false, 0, List.of(), List.of(), Map.of());

    static Control of(org.forager.crawl.CrawlControl.State state) {
      return new Control(true, state.paused(), state.turnsInFlight(),
          state.blocks().stream().map(b -> new BlockedHost(b.host(), b.since().toString(), b.by())).toList(),
          state.pausedOrigins(), state.delaysMillis());
    }
  }

  /** A blocked host: it and every host under it get no request. */
  record BlockedHost(String host, String since, String by) {}

  /**
   * The run's totals.
   *
   * @param fetched actions that got an answer the crawl could use (not a failure, not refused)
   * @param pagesRequested page requests made (robots.txt and refusals without a request not counted)
   * @param failures actions whose outcome is a failure (see {@link RecentErrors#FAILURES})
   * @param origins origins in scope
   */
  record Totals(long actions, long fetched, long pagesRequested, long failures, long robotsFetches, long bytes,
      long knownUrls, int activeOrigins, int origins, long urlsNotKept) {}

  /** One origin's row in the tables. */
  record OriginRow(String origin, long delayMs, int patience, int queued, long pages, boolean givenUp) {
    static OriginRow of(OriginSnapshot s) {
      return new OriginRow(s.origin().toString(), s.delayMillis(), s.patience(), s.queued(), s.pagesFetched(),
          s.givenUp());
    }
  }
}
