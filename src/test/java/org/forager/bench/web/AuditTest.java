package org.forager.bench.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class AuditTest {

  private static final WebConfig CONFIG = new WebConfig(3, 10, 8080, Duration.ZERO);

  private static void request(RequestLog log, int host, int connection, int target, int status, long arrival,
      long start, long end) {
    log.complete(log.open(host, connection, target, arrival), status, start, end);
  }

  @Test
  void intervalsInFlightAndConnectionsFromAScriptedLog() {
    RequestLog log = new RequestLog();
    request(log, 0, 1, Target.ROBOTS, 200, 0, 5, 10);
    request(log, 0, 1, 0, 200, 15, 18, 30);            // 5 after the end of the last
    request(log, 0, 2, 3, 200, 20, 25, 40);            // overlaps: 10 before that end
    request(log, 1, 3, 4, 200, 22, 23, 24);
    request(log, 0, 2, 3, 200, 50, 51, 60);            // 10 after the latest end (40)
    request(log, 0, 4, Target.PRIVATE, 404, 60, 61, 62); // arrives as the last ends: no overlap
    request(log, 0, 4, 5, RequestLog.ABORTED, 70, 80, 80);
    request(log, 1, 3, Target.OTHER, 404, 100, 101, 102);
    request(log, 1, 3, Target.SKIPPED_EXTENSION, 404, 110, 111, 112);

    Audit audit = Audit.of(log, CONFIG);
    HostAudit zero = audit.hosts().get(0);
    assertEquals(6, zero.requests());
    assertEquals(3, zero.pages());
    assertEquals(1, zero.robots());
    assertEquals(1, zero.privateRequests());
    assertEquals(1, zero.aborted());
    assertEquals(3, zero.connections());
    assertEquals(2, zero.maxInFlight());
    assertEquals(OptionalLong.of(-10), zero.minIntervalNanos());
    assertEquals(OptionalLong.of(2), zero.minIntervalFromWriteStartNanos());
    assertEquals(0, zero.firstArrivalNanos());
    assertEquals(80, zero.lastEndNanos());

    HostAudit one = audit.hosts().get(1);
    assertEquals(3, one.requests());
    assertEquals(1, one.maxInFlight());
    assertEquals(OptionalLong.of(8), one.minIntervalNanos());
    assertEquals(1, one.otherRequests());
    assertEquals(1, one.skippedExtension());
    assertEquals(1, one.connections());

    HostAudit two = audit.hosts().get(2);
    assertEquals(0, two.requests());
    assertEquals(OptionalLong.empty(), two.minIntervalNanos());

    assertEquals(9, audit.requests());
    assertEquals(4, audit.pages());
    assertEquals(3, audit.distinctPages(), "host 0 pages 0 and 3, host 1 page 4");
    assertEquals(3 / 30.0, audit.coverage(), 1e-9);
    assertEquals(2, audit.hostsRequested());
    assertEquals(4, audit.connections());
    assertEquals(2, audit.maxInFlight());
    assertEquals(1, audit.hostsOverlapping());
    assertEquals(OptionalLong.of(-10), audit.minIntervalNanos());
    assertEquals(112, audit.durationNanos());
  }

  @Test
  void pagesServedAreCountedByTheWholeSecondOfTheirArrival() {
    long second = 1_000_000_000L;
    RequestLog log = new RequestLog();
    request(log, 0, 1, Target.ROBOTS, 200, 5 * second, 5 * second, 5 * second + 1); // not a page
    request(log, 0, 1, 0, 200, 5 * second + 10, 0, 0);        // second 0 from the first arrival
    request(log, 1, 2, 1, 200, 6 * second - 1, 0, 0);         // still second 0
    request(log, 1, 2, 2, 200, 6 * second, 0, 0);             // second 1
    request(log, 2, 3, 3, 404, 7 * second, 0, 0);             // not served: not counted
    request(log, 2, 3, 4, 200, 8 * second + 5, 0, 0);         // second 3, after a second with none
    Audit audit = Audit.of(log, CONFIG);
    assertEquals(List.of(2L, 1L, 0L, 1L), audit.pagesPerSecond());
    assertTrue(audit.toJson().contains("\"pages_per_second\": [2, 1, 0, 1]\n}"), audit.toJson());
    assertEquals(List.of(), Audit.of(new RequestLog(), CONFIG).pagesPerSecond());
  }

  @Test
  void reportsAsJsonAndCsv() throws IOException {
    RequestLog log = new RequestLog();
    request(log, 0, 1, 0, 200, 1_000_000, 2_000_000, 3_000_000);
    request(log, 0, 1, 1, 200, 5_500_000, 6_000_000, 7_000_000);
    Audit audit = Audit.of(log, CONFIG);
    String json = audit.toJson();
    assertTrue(json.contains("\"requests\": 2,"), json);
    assertTrue(json.contains("\"min_interval_ms\": 2.500,"), json);
    assertTrue(json.contains("\"coverage\": 0.066667,"), json);
    StringWriter csv = new StringWriter();
    audit.writeHostsCsv(csv, 0);
    String[] lines = csv.toString().split("\n");
    assertEquals(4, lines.length);
    assertEquals("0,127.1.0.1,2,2,0,0,0,0,0,1,1,2.500,3.500,1.000,7.000", lines[1]);
    assertEquals("2,127.1.0.3,0,0,0,0,0,0,0,0,0,,,,", lines[3]);
  }

  @Test
  void aSnapshotCountsPendingRequestsAsAbortedAndTheLogKeepsArrivalOrder() {
    RequestLog log = new RequestLog();
    log.open(0, 1, 0, 100);
    RequestLog snapshot = log.snapshot(150);
    assertEquals(RequestLog.ABORTED, snapshot.status(0));
    assertEquals(150, snapshot.writeEnd(0));
    assertEquals(-1, log.status(0), "the live log still waits for the response");
    assertThrows(IllegalArgumentException.class, () -> log.open(0, 1, 0, 99));
  }

  @Test
  @Timeout(30)
  void auditsARealServerAgainstAScriptedClient() throws Exception {
    try (SyntheticWebServer server = Servers.start(2, 10, Duration.ofMillis(100))) {
      int port = server.config().port();
      // Host 0: one connection, one request at a time, 60 ms between a response and the next request.
      try (RawHttp http = new RawHttp(0, port)) {
        for (int page = 1; page <= 3; page++) {
          http.fetch("/p/" + page + ".html");
          Thread.sleep(60);
        }
      }
      // Host 1: two connections whose requests overlap (each is held 100 ms by the latency).
      try (RawHttp a = new RawHttp(1, port); RawHttp b = new RawHttp(1, port)) {
        a.send(a.get("/"));
        b.send(b.get("/robots.txt"));
        a.read(false);
        b.read(false);
      }
      Audit audit = server.audit();
      HostAudit zero = audit.hosts().get(0);
      assertEquals(3, zero.requests());
      assertEquals(1, zero.connections());
      assertEquals(1, zero.maxInFlight());
      long interval = zero.minIntervalNanos().orElseThrow();
      assertTrue(interval >= 50_000_000L && interval < 2_000_000_000L, "interval " + interval);
      assertTrue(zero.minIntervalFromWriteStartNanos().orElseThrow() >= interval);

      HostAudit one = audit.hosts().get(1);
      assertEquals(2, one.requests());
      assertEquals(2, one.connections());
      assertEquals(2, one.maxInFlight());
      assertTrue(one.minIntervalNanos().orElseThrow() < 0, "the second arrived before the first ended");
      assertEquals(1, one.robots());
      assertEquals(4, audit.distinctPages());
    }
  }
}
