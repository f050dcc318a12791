package org.forager.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolitenessAuditTest {

  @TempDir Path tmp;

  private static String line(String ts, String kind, String url, String outcome, int status, long durationMs, long delayMs) {
    return "{\"ts\":\"" + ts + "\",\"kind\":\"" + kind + "\",\"url\":\"" + url + "\",\"outcome\":\"" + outcome
        + "\",\"http_status\":" + status + ",\"duration_ms\":" + durationMs + ",\"delay_ms\":" + delayMs + "}";
  }

  private PolitenessAudit.Report audit(String... lines) throws Exception {
    Path log = tmp.resolve("crawl.jsonl");
    Files.write(log, List.of(lines));
    return PolitenessAudit.audit(log);
  }

  @Test
  void aPoliteLogPasses() throws Exception {
    PolitenessAudit.Report report = audit(
        line("2026-11-21T00:00:00.000Z", "robots", "http://a.example/robots.txt", "FETCHED", 200, 10, 100),
        line("2026-11-21T00:00:00.110Z", "page", "http://a.example/", "FETCHED", 200, 20, 100),
        line("2026-11-21T00:00:00.130Z", "page", "http://a.example/x", "BLOCKED_BY_ROBOTS_TXT", 0, 0, 100),
        line("2026-11-21T00:00:00.050Z", "robots", "http://b.example/robots.txt", "HTTP_ERROR", 404, 5, 100),
        line("2026-11-21T00:00:00.230Z", "page", "http://a.example/y", "FETCHED", 200, 20, 100));
    assertTrue(report.polite(), report.violations().toString());
    assertEquals(4, report.requests());
    PolitenessAudit.OriginReport a = report.origins().get(0);
    assertEquals("http://a.example", a.origin());
    assertEquals(3, a.requests());
    assertEquals(1, a.refusals());
    assertEquals(100.0, a.minGapMillis(), 0.001);
  }

  @Test
  void anOperatorsControlLinesAreNoRequestsAndADelaySetShorterIsTheOneInForceAfterIt() throws Exception {
    PolitenessAudit.Report report = audit(
        line("2026-11-21T00:00:00.000Z", "robots", "http://a.example/robots.txt", "FETCHED", 200, 10, 500),
        "{\"ts\":\"2026-11-21T00:00:00.020Z\",\"kind\":\"control\",\"action\":\"pause\",\"by\":\"cli\",\"target\":null}",
        "{\"ts\":\"2026-11-21T00:00:00.030Z\",\"kind\":\"control\",\"action\":\"set-delay\",\"by\":\"cli\","
            + "\"target\":\"http://a.example\",\"delay_ms\":100,\"result\":\"100ms\"}",
        line("2026-11-21T00:00:00.120Z", "page", "http://a.example/", "FETCHED", 200, 10, 100),
        line("2026-11-21T00:00:00.180Z", "page", "http://a.example/x", "FETCHED", 200, 10, 100));
    assertEquals(3, report.requests(), "the control lines are not requests");
    assertEquals(List.of("delay"), report.violations().stream().map(PolitenessAudit.Violation::rule).toList(),
        "110 ms after robots.txt is polite once 100 ms was set; 50 ms after the page is not");
  }

  /**
   * An operator's delay set back to the default ({@code set-delay ORIGIN default}, no delay_ms): the next
   * request may come as soon as the origin's configured min_delay, not the longer delay set before, which
   * the request before it logged (a false violation after a documented order).
   */
  @Test
  void aDelaySetBackToTheDefaultIsTheConfiguredMinDelayAfterIt() throws Exception {
    String[] lines = {
        line("2026-11-21T00:00:00.000Z", "robots", "http://a.example/robots.txt", "FETCHED", 200, 10, 2000),
        "{\"ts\":\"2026-11-21T00:00:00.100Z\",\"kind\":\"control\",\"action\":\"set-delay\",\"by\":\"cli\","
            + "\"target\":\"http://a.example\",\"result\":\"default\"}",
        line("2026-11-21T00:00:00.350Z", "page", "http://a.example/", "FETCHED", 200, 10, 300)};
    Path log = tmp.resolve("crawl.jsonl");
    Files.write(log, List.of(lines));
    PolitenessAudit.Report configured300 = PolitenessAudit.audit(log, PolitenessAudit.PerIp.DEFAULTS,
        new PolitenessAudit.Sites(origin -> java.util.Optional.empty(), origin -> 300));
    assertTrue(configured300.polite(), configured300.violations().toString());
    PolitenessAudit.Report configured500 = PolitenessAudit.audit(log, PolitenessAudit.PerIp.DEFAULTS,
        new PolitenessAudit.Sites(origin -> java.util.Optional.empty(), origin -> 500));
    assertEquals(List.of("delay"), configured500.violations().stream().map(PolitenessAudit.Violation::rule).toList());
  }

  /**
   * A wait the server asked for (retry_after_ms) holds every later request of the origin, the next
   * run's too, however short the delay logged; another origin is not held by it.
   */
  @Test
  void aRequestBeforeTheEndOfARetryAfterIsAViolationLaterOnesAreNot() throws Exception {
    String limited = line("2026-11-21T00:00:00.110Z", "page", "http://a.example/", "RATE_LIMITED", 429, 10, 100);
    limited = limited.substring(0, limited.length() - 1) + ",\"retry_after_ms\":5000}";
    PolitenessAudit.Report report = audit(
        line("2026-11-21T00:00:00.000Z", "robots", "http://a.example/robots.txt", "FETCHED", 200, 10, 100),
        limited,
        line("2026-11-21T00:00:00.300Z", "robots", "http://b.example/robots.txt", "FETCHED", 200, 10, 100),
        line("2026-11-21T00:00:03.000Z", "page", "http://a.example/", "FETCHED", 200, 10, 100),
        line("2026-11-21T00:00:05.120Z", "page", "http://a.example/x", "FETCHED", 200, 10, 100),
        line("2026-11-21T00:00:05.300Z", "page", "http://a.example/y", "FETCHED", 200, 10, 100));
    assertEquals(List.of("Retry-After"), report.violations().stream().map(PolitenessAudit.Violation::rule).toList(),
        report.violations().toString());
    PolitenessAudit.Violation v = report.violations().get(0);
    assertEquals(4, v.line());
    assertEquals("2120.0 ms before the end of the wait the server asked for at crawl.jsonl:2", v.detail());
  }

  @Test
  void aShortGapOverlapAndPageBeforeRobotsAreViolations() throws Exception {
    PolitenessAudit.Report report = audit(
        line("2026-11-21T00:00:00.000Z", "page", "http://a.example/", "FETCHED", 200, 10, 100),
        line("2026-11-21T00:00:00.050Z", "robots", "http://b.example/robots.txt", "FETCHED", 200, 10, 100),
        line("2026-11-21T00:00:00.160Z", "page", "http://b.example/1", "FETCHED", 200, 50, 100),
        line("2026-11-21T00:00:00.200Z", "page", "http://b.example/2", "FETCHED", 200, 10, 100),
        line("2026-11-21T00:00:00.400Z", "page", "http://b.example/3", "FETCHED", 200, 10, 100),
        line("2026-11-21T00:00:00.450Z", "page", "http://b.example/4", "FETCHED", 200, 10, 100));
    assertFalse(report.polite());
    List<String> rules = report.violations().stream().map(PolitenessAudit.Violation::rule).toList();
    assertEquals(List.of("robots.txt first", "one in flight", "delay"), rules);
    assertEquals(2, report.origins().get(1).maxInFlight());
  }

  @Test
  void aLineWithoutATimeOrUrlIsNamedAndTheAuditGoesOn() throws Exception {
    PolitenessAudit.Report report = audit(
        line("2026-11-21T00:00:00.000Z", "robots", "http://a.example/robots.txt", "FETCHED", 200, 10, 100),
        "{\"kind\":\"page\",\"url\":\"http://a.example/\"}",
        "{\"ts\":\"2026-11-21T00:00:00.100Z\",\"kind\":\"page\"}",
        line("2026-11-21T00:00:00.200Z", "page", "http://a.example/x", "FETCHED", 200, 10, 100));
    assertFalse(report.polite());
    assertEquals(List.of("log line 2: no valid ts: ''", "log line 3: no valid url: ''"), report.violations().stream()
        .map(v -> v.rule() + " line " + v.line() + ": " + v.detail()).toList());
    assertEquals(2, report.requests(), "the lines after them are audited");
  }

  @Test
  void noPageAfterAnUnreachableRobotsTxtUntilOneSucceeds() throws Exception {
    PolitenessAudit.Report report = audit(
        line("2026-11-21T00:00:00.000Z", "robots", "http://a.example/robots.txt", "FETCHED", 200, 1, 10),
        line("2026-11-21T00:00:01.000Z", "robots", "http://a.example/robots.txt", "HTTP_ERROR", 503, 1, 10),
        line("2026-11-21T00:00:02.000Z", "page", "http://a.example/", "FETCHED", 200, 1, 10));
    assertEquals(List.of("robots.txt first"), report.violations().stream().map(PolitenessAudit.Violation::rule).toList());
  }

  private static String sentTo(String ip, String line) {
    return line.substring(0, line.length() - 1) + ",\"ip\":\"" + ip + "\"}";
  }

  @Test
  void twoRequestsInFlightToOneAddressFromTwoOriginsAreAViolationEvenLoggedOutOfOrder() throws Exception {
    PolitenessAudit.Report report = audit(
        sentTo("192.0.2.7", line("2026-11-21T00:00:00.000Z", "robots", "http://a.example/robots.txt", "FETCHED", 200, 10, 0)),
        // Logged after the next one (it ended later) though it started first: the window still sees it.
        sentTo("192.0.2.7", line("2026-11-21T00:00:00.020Z", "robots", "http://c.example/robots.txt", "FETCHED", 200, 5, 0)),
        sentTo("192.0.2.7", line("2026-11-21T00:00:00.012Z", "robots", "http://b.example/robots.txt", "FETCHED", 200, 50, 0)),
        sentTo("192.0.2.8", line("2026-11-21T00:00:00.013Z", "robots", "http://d.example/robots.txt", "FETCHED", 200, 50, 0)));
    assertEquals(List.of("in flight per IP"), report.violations().stream().map(PolitenessAudit.Violation::rule).toList());
    assertEquals("192.0.2.7", report.violations().get(0).origin());
    assertEquals(2, report.ips().size());
    PolitenessAudit.IpReport shared = report.ips().get(0);
    assertEquals(3, shared.origins());
    assertEquals(2, shared.maxInFlight());
    assertTrue(PolitenessAudit.audit(tmp.resolve("crawl.jsonl"), new PolitenessAudit.PerIp(2, 0)).polite(),
        "two in flight is what max_in_flight 2 allows");
  }

  @Test
  void thePerIpDelayIsCheckedAcrossOriginsAndLogsWithoutAddressesAreCheckedPerOriginOnly() throws Exception {
    String[] lines = {
        sentTo("192.0.2.7", line("2026-11-21T00:00:00.000Z", "robots", "http://a.example/robots.txt", "FETCHED", 200, 10, 0)),
        sentTo("192.0.2.7", line("2026-11-21T00:00:00.110Z", "robots", "http://b.example/robots.txt", "FETCHED", 200, 10, 0)),
        sentTo("192.0.2.7", line("2026-11-21T00:00:00.170Z", "robots", "http://c.example/robots.txt", "FETCHED", 200, 10, 0)),
        line("2026-11-21T00:00:00.171Z", "robots", "http://d.example/robots.txt", "FETCHED", 200, 10, 0)};
    PolitenessAudit.Report report = audit(lines);
    assertTrue(report.polite(), "no per-IP delay by default");
    Path log = tmp.resolve("crawl.jsonl");
    PolitenessAudit.Report delayed = PolitenessAudit.audit(log, new PolitenessAudit.PerIp(1, 100));
    assertEquals(List.of("delay per IP"), delayed.violations().stream().map(PolitenessAudit.Violation::rule).toList());
    assertTrue(delayed.violations().get(0).detail().contains("http://c.example/robots.txt"), delayed.violations().toString());
  }

  @Test
  void aViolationSplitAcrossARotatedPartAndTheLiveFileIsFound() throws Exception {
    Path logs = Files.createDirectories(tmp.resolve("logs"));
    // Parts out of name order (sequence 10 after 9) and one still uncompressed: read by sequence.
    gzip(logs.resolve("crawl-20261121T000000Z-9.jsonl.gz"),
        line("2026-11-21T00:00:00.000Z", "robots", "http://a.example/robots.txt", "FETCHED", 200, 10, 100));
    gzip(logs.resolve("crawl-20261121T000000Z-10.jsonl.gz"),
        line("2026-11-21T00:00:00.110Z", "page", "http://a.example/", "FETCHED", 200, 500, 100));
    Files.write(logs.resolve("crawl-20261121T000001Z-11.jsonl"),
        List.of(line("2026-11-21T00:00:00.710Z", "page", "http://a.example/1", "FETCHED", 200, 10, 100)));
    Files.write(logs.resolve("crawl-20261121T000001Z-12.jsonl.gz.tmp"), List.of("half a gzip, never read"));
    Files.write(logs.resolve("crawl.jsonl"), List.of(
        // Starts while /1 (the part before) is still in flight.
        line("2026-11-21T00:00:00.715Z", "page", "http://a.example/2", "FETCHED", 200, 10, 100)));

    PolitenessAudit.Report report = PolitenessAudit.audit(logs.resolve("crawl.jsonl"));

    assertEquals(4, report.lines());
    assertEquals(4, report.requests());
    assertEquals(1, report.violations().size(), report.violations().toString());
    PolitenessAudit.Violation v = report.violations().get(0);
    assertEquals("one in flight", v.rule());
    assertEquals("crawl.jsonl", v.file());
    assertEquals(1, v.line());
  }

  @Test
  void onlyRotatedPartsWithoutALiveFileAreAudited() throws Exception {
    Path logs = Files.createDirectories(tmp.resolve("logs"));
    gzip(logs.resolve("crawl-20261121T000000Z-1.jsonl.gz"),
        line("2026-11-21T00:00:00.000Z", "page", "http://a.example/", "FETCHED", 200, 10, 100));
    PolitenessAudit.Report report = PolitenessAudit.audit(logs.resolve("crawl.jsonl"));
    assertEquals(List.of("robots.txt first"), report.violations().stream().map(PolitenessAudit.Violation::rule).toList());
    assertEquals("crawl-20261121T000000Z-1.jsonl.gz", report.violations().get(0).file());
  }

  private static void gzip(Path file, String... lines) throws Exception {
    try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(file))) {
      for (String l : lines) out.write((l + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
  }
}
