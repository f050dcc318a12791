package org.forager.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.forager.fetch.Outcome;
import org.forager.record.CrawlAction.Kind;
import org.junit.jupiter.api.Test;

/**
 * The end-of-run summary: a site without robots.txt or a sitemap is no failed page. Its outcome lines
 * count pages; robots.txt and sitemaps get lines of their own, saying what their answers meant.
 */
class RunSummaryTest {

  private static final Instant T = Instant.parse("2026-12-07T00:00:00Z");

  private static CrawlAction action(Kind kind, Outcome outcome, int status) {
    return new CrawlAction(T, kind, "https://a.example/x", outcome, status, Optional.empty(), 10, 1,
        Optional.empty(), Optional.empty(), 1, 0, Optional.empty());
  }

  @Test
  void robotsTxtAndSitemapsAreCountedApartFromThePagesByWhatTheirAnswersMeant() {
    RunSummary summary = new RunSummary();
    summary.count(action(Kind.PAGE, Outcome.FETCHED, 200));
    summary.count(action(Kind.PAGE, Outcome.FETCHED, 200));
    summary.count(action(Kind.PAGE, Outcome.HTTP_ERROR, 404));
    summary.count(action(Kind.ROBOTS, Outcome.FETCHED, 200));
    summary.count(action(Kind.ROBOTS, Outcome.HTTP_ERROR, 404));
    summary.count(action(Kind.ROBOTS, Outcome.HTTP_ERROR, 410));
    summary.count(action(Kind.ROBOTS, Outcome.HTTP_ERROR, 403));
    summary.count(action(Kind.ROBOTS, Outcome.HTTP_ERROR, 503));
    summary.count(action(Kind.ROBOTS, Outcome.HTTP_ERROR, 429));
    summary.count(action(Kind.ROBOTS, Outcome.TRUNCATED, 200));
    summary.count(action(Kind.ROBOTS, Outcome.REDIRECT, 301));
    summary.count(action(Kind.SITEMAP, Outcome.HTTP_ERROR, 404));
    summary.count(action(Kind.SITEMAP, Outcome.HTTP_ERROR, 403));
    summary.count(action(Kind.SITEMAP, Outcome.TRUNCATED, 200));
    summary.count(action(Kind.SITEMAP, Outcome.NETWORK_ERROR, 0));
    // A soft 404 at the sitemap's URL: fetched, not read (the attacker review saw it counted "read").
    summary.count(new CrawlAction(T, Kind.SITEMAP, "https://a.example/sitemap.xml", Outcome.FETCHED, 200,
        Optional.of("text/html"), 10, 1, Optional.empty(), Optional.empty(), 1, 0,
        Optional.of("not a sitemap: Content-Type text/html")));

    assertEquals(1, summary.pageCount(Outcome.HTTP_ERROR));
    assertEquals(8, summary.count(Outcome.HTTP_ERROR), "every kind");
    assertEquals(13, summary.fileActions());
    assertEquals(1, summary.robotsDenied());
    assertEquals(8, summary.robotsFetches());
    assertEquals("""
        FETCHED                      2
        HTTP_ERROR                   1
        robots.txt                   8: 1 read, 2 absent (4xx: no rules), 1 denied (401/403: read as allow-all), \
        1 redirected, 3 unreachable (DNS, 5xx, 429 or no whole answer)
        sitemaps                     5: 1 read, 1 absent (4xx), 1 denied (401/403), 2 failed
        TOTAL                        16 (13 of them robots.txt and sitemaps) in 2.0 s, 8.0 actions/s, 160 bytes
        """, summary.render(Duration.ofSeconds(2)));
  }

  @Test
  void aRunOfPagesOnlyHasNoLinesForTheFiles() {
    RunSummary summary = new RunSummary();
    summary.count(action(Kind.PAGE, Outcome.FETCHED, 200));
    assertEquals("""
        FETCHED                      1
        TOTAL                        1 (0 of them robots.txt and sitemaps) in 1.0 s, 1.0 actions/s, 10 bytes
        """, summary.render(Duration.ofSeconds(1)));
  }
}
