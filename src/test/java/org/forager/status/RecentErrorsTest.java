package org.forager.status;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.Outcome;
import org.forager.record.CrawlAction;
import org.forager.record.CrawlAction.Kind;
import org.junit.jupiter.api.Test;

/**
 * The status page's failures: a site without robots.txt or a sitemap is no failure to list beside the
 * 500s (its operator would block a healthy site from that table); a robots.txt denied is.
 */
class RecentErrorsTest {

  private static CrawlAction action(Kind kind, String url, Outcome outcome, int status) {
    return new CrawlAction(Instant.EPOCH, kind, url, outcome, status, Optional.empty(), 0, 1, Optional.empty(),
        Optional.empty(), 1, 0, Optional.empty());
  }

  @Test
  void absentRobotsTxtAndSitemapsAreNoFailuresButADeniedRobotsTxtAndABrokenPageAre() {
    RecentErrors errors = new RecentErrors(10);
    errors.offer(action(Kind.ROBOTS, "http://a.example/robots.txt", Outcome.HTTP_ERROR, 404));
    errors.offer(action(Kind.SITEMAP, "http://a.example/sitemap.xml", Outcome.HTTP_ERROR, 404));
    errors.offer(action(Kind.ROBOTS, "http://b.example/robots.txt", Outcome.HTTP_ERROR, 403));
    errors.offer(action(Kind.ROBOTS, "http://c.example/robots.txt", Outcome.HTTP_ERROR, 503));
    errors.offer(action(Kind.PAGE, "http://a.example/gone", Outcome.HTTP_ERROR, 404));
    errors.offer(action(Kind.PAGE, "http://a.example/", Outcome.FETCHED, 200));
    assertEquals(List.of("http://a.example/gone", "http://c.example/robots.txt", "http://b.example/robots.txt"),
        errors.newestFirst().stream().map(RecentErrors.Failure::url).toList());
  }
}
