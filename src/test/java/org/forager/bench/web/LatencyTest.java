package org.forager.bench.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class LatencyTest {

  @Test
  void aResponseStartsNoEarlierThanTheLatencyAfterItsRequest() throws IOException {
    try (SyntheticWebServer server = Servers.start(1, 5, Duration.ofMillis(150));
        RawHttp http = new RawHttp(0, server.config().port())) {
      for (int i = 0; i < 3; i++) {
        long start = System.nanoTime();
        assertEquals(200, http.fetch("/p/1.html").status());
        assertTrue(System.nanoTime() - start >= 150_000_000L);
      }
      RequestLog log = server.log().snapshot(System.nanoTime());
      for (int i = 0; i < log.size(); i++) {
        assertTrue(log.writeStart(i) - log.arrival(i) >= 150_000_000L, "server-side wait of request " + i);
      }
    }
  }

  @Test
  void fiveHundredDelayedRequestsAtOnceNeedNoThreadEach() throws Exception {
    int connections = 500;
    long latencyNanos = 200_000_000L;
    try (SyntheticWebServer server = Servers.start(2, 50, Duration.ofNanos(latencyNanos));
        ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
      int port = server.config().port();
      CountDownLatch connected = new CountDownLatch(connections);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Long>> took = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        int host = i % 2;
        int page = i % 50;
        took.add(clients.submit(() -> {
          try (RawHttp http = new RawHttp(host, port)) {
            connected.countDown();
            go.await();
            long start = System.nanoTime();
            if (http.fetch(page == 0 ? "/" : "/p/" + page + ".html").status() != 200) throw new AssertionError();
            return System.nanoTime() - start;
          }
        }));
      }
      connected.await();
      long start = System.nanoTime();
      go.countDown();
      for (Future<Long> f : took) assertTrue(f.get() >= latencyNanos, "each request waited the latency");
      double seconds = (System.nanoTime() - start) / 1e9;
      // One after the other they would take 100 s; concurrently, about the latency.
      assertTrue(seconds < 10, "500 requests took " + seconds + " s");

      Audit audit = server.audit();
      assertEquals(connections, audit.requests());
      assertEquals(connections, audit.connections());
      assertTrue(audit.maxInFlight() >= 50, "requests in flight at once: " + audit.maxInFlight());
    }
  }
}
