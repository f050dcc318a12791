package org.forager.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.forager.config.CrawlConfig;
import org.forager.crawl.Crawler;
import org.forager.record.RunSummary;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code /api/status}, {@code /metrics} and the page, served during a real crawl of a test site. */
@Timeout(60)
class StatusServerTest {

  @TempDir Path tmp;

  @Test
  void statusAndMetricsFollowARealCrawl() throws Exception {
    Gate first = new Gate(Gate.linking("/b1", "/b2", "/b3", "/second", "/broken"));
    Gate second = new Gate(Gate.linking("/c1"));
    try (TestSite site = TestSite.start()
            .robots("User-agent: *\nAllow: /\n")
            .linking("/", "/a1", "/a2", "/a3", "/first")
            .linking("/a1").linking("/a2").linking("/a3").linking("/b1").linking("/b2").linking("/b3")
            .linking("/c1")
            .route("/first", first).route("/second", second)
            .route("/broken", ex -> TestSite.respond(ex, 500, "text/plain", "boom"));
        StatusServer status = StatusServer.start("127.0.0.1", 0)) {
      CrawlConfig config = TestCrawl.config(tmp.resolve("data"), List.of(site.url("/")),
          "limits: { fetch_timeout: 30s, max_retries: 0 }\n");
      StatusClient client = new StatusClient(status.uri());
      assertEquals("waiting", client.status().get("state").asText());

      CompletableFuture<RunSummary> run;
      try (Crawler crawler = Crawler.open(config, status::timed).listener(status.listener()).quiet(true)) {
        run = CompletableFuture.supplyAsync(() -> {
          try {
            return crawler.run();
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
        });

        first.awaitArrival();
        JsonNode before = client.status();
        String metricsBefore = client.metrics();
        // The chart's first sample (once a second) only sets where the count starts: taken before the
        // pages below, a later one charts them, however fast they go.
        client.awaitStatus(s -> s.get("rate").size() >= 1, "the chart's first point");
        first.open();
        second.awaitArrival();
        int points = client.status().get("rate").size();
        JsonNode during = client.awaitStatus(s -> s.get("rate").size() >= Math.max(2, points + 1),
            "a rate sample after the pages");
        String metricsDuring = client.metrics();
        second.open();

        assertEquals("running", before.get("state").asText());
        assertEquals("running", during.get("state").asText());
        // robots.txt, /, a1..a3 at least, before /first answered.
        long actionsBefore = before.get("totals").get("actions").asLong();
        long actionsDuring = during.get("totals").get("actions").asLong();
        assertTrue(actionsBefore >= 5, before.toString());
        assertTrue(actionsDuring > actionsBefore, "numbers change: " + before + " then " + during);
        assertTrue(during.get("totals").get("known_urls").asLong() > before.get("totals").get("known_urls").asLong());
        assertEquals(1, during.get("totals").get("active_origins").asInt(), during.toString());
        assertEquals(1, during.get("totals").get("origins").asInt());
        assertTrue(during.get("elapsed_seconds").asDouble() >= before.get("elapsed_seconds").asDouble());
        assertTrue(during.get("outcomes").get("FETCHED").asLong() >= 8, during.toString());
        assertEquals(1, during.get("outcomes").get("HTTP_ERROR").asLong());

        JsonNode origin = during.get("busiest_origins").get(0);
        assertEquals(site.origin(), origin.get("origin").asText());
        assertTrue(origin.get("pages").asLong() >= 8, origin.toString());
        assertTrue(origin.get("delay_ms").asLong() >= 20, "min_delay is 20ms: " + origin);
        assertEquals(4, origin.get("patience").asInt(), "one persistent failure (the 500): " + origin);
        assertTrue(origin.has("queued"), origin.toString());
        assertEquals(site.origin(), during.get("slowest_origins").get(0).get("origin").asText());

        JsonNode error = during.get("recent_errors").get(0);
        assertEquals(site.url("/broken"), error.get("url").asText());
        assertEquals("HTTP_ERROR", error.get("outcome").asText());
        assertEquals("HTTP 500", error.get("message").asText());

        double pagesBefore = StatusClient.sample(metricsBefore,
            "forager_crawl_actions_total{kind=\"page\",outcome=\"FETCHED\"}");
        double pagesDuring = StatusClient.sample(metricsDuring,
            "forager_crawl_actions_total{kind=\"page\",outcome=\"FETCHED\"}");
        assertTrue(pagesBefore >= 4 && pagesDuring > pagesBefore, pagesBefore + " then " + pagesDuring);
        assertEquals(1, StatusClient.sample(metricsDuring,
            "forager_crawl_actions_total{kind=\"page\",outcome=\"HTTP_ERROR\"}"));
        assertEquals(1, StatusClient.sample(metricsDuring,
            "forager_crawl_actions_total{kind=\"robots\",outcome=\"FETCHED\"}"));
        assertTrue(StatusClient.sample(metricsDuring, "forager_fetch_bytes_total")
            > StatusClient.sample(metricsBefore, "forager_fetch_bytes_total"));
        assertTrue(StatusClient.sample(metricsDuring, "forager_fetch_duration_seconds_count{kind=\"page\"}")
            >= pagesDuring);
        assertTrue(metricsDuring.contains("forager_fetch_duration_seconds_bucket{kind=\"page\",le=\""),
            "a latency histogram");
        assertEquals(1, StatusClient.sample(metricsDuring, "forager_origins_active"));
        // The site is an IP literal: never looked up, so the DNS cache's counters are there, at 0.
        for (String dns : List.of("lookups", "cache_hits", "negative_hits", "timeouts", "answers", "answer_time_seconds")) {
          assertEquals(0, StatusClient.sample(metricsDuring, "forager_dns_" + dns + "_total"), dns);
        }
        assertEquals(during.get("totals").get("known_urls").asDouble(),
            StatusClient.sample(metricsDuring, "forager_urls_known"), 3.0);
        assertTrue(StatusClient.sample(metricsDuring, "forager_store_operation_seconds_count{operation=\"record\"}")
            > StatusClient.sample(metricsBefore, "forager_store_operation_seconds_count{operation=\"record\"}"));
        assertTrue(metricsDuring.contains("forager_store_operation_seconds_bucket{operation=\"due\",le=\"0.001\"}"));
        assertTrue(metricsDuring.contains("jvm_memory_used_bytes{area=\"heap\""), "JVM memory metrics");
        assertTrue(metricsDuring.contains("jvm_gc_"), "JVM GC metrics");
        assertTrue(metricsDuring.contains("jvm_threads_live_threads "), "JVM thread metrics");
        assertTrue(metricsDuring.contains("jvm_classes_loaded_classes "), "class loader metrics");
        assertTrue(metricsDuring.contains("process_uptime_seconds "), "uptime");
      }

      RunSummary summary = run.get();
      JsonNode after = client.status();
      assertEquals("finished", after.get("state").asText());
      assertEquals(0, after.get("totals").get("urls_not_kept").asLong(), "no origin full: " + after);
      assertEquals(summary.actions(), after.get("totals").get("actions").asLong());
      double elapsed = after.get("elapsed_seconds").asDouble();
      assertEquals(elapsed, client.status().get("elapsed_seconds").asDouble(), "elapsed stops with the run");
      List<Double> rates = new ArrayList<>();
      after.get("rate").forEach(p -> rates.add(p.get("pages_per_second").asDouble()));
      assertTrue(rates.stream().anyMatch(r -> r > 0), "pages per second were charted: " + rates);
    }
  }

  @Test
  void servesTheSelfContainedPageAndOnlyReads() throws Exception {
    try (StatusServer status = StatusServer.start("127.0.0.1", 0)) {
      StatusClient client = new StatusClient(status.uri());
      assertEquals("127.0.0.1", status.uri().getHost());

      var page = client.get("/");
      assertEquals(200, page.statusCode());
      assertEquals("text/html; charset=utf-8", page.headers().firstValue("Content-Type").orElseThrow());
      assertTrue(page.body().contains("<canvas id=\"rate\""), "the chart");
      assertTrue(page.body().contains("fetch(\"api/status\""), "polls the JSON");
      // No CDN, no fonts, no images from elsewhere: the machine may have no internet.
      for (String external : List.of("src=\"http", "href=\"http", "src=\"//", "href=\"//", "url(", "@import")) {
        assertFalse(page.body().contains(external), "external resource: " + external);
      }
      // Only its own inline script and style may run, by hash; nothing from elsewhere.
      String policy = page.headers().firstValue("Content-Security-Policy").orElseThrow();
      assertTrue(policy.matches("default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]{44}'; "
          + "style-src 'sha256-[A-Za-z0-9+/=]{44}'; connect-src 'self'; .*"), policy);
      assertEquals("nosniff", page.headers().firstValue("X-Content-Type-Options").orElseThrow());
      var head = client.send(HttpRequest.newBuilder(status.uri().resolve("/api/status"))
          .method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
      assertEquals(200, head.statusCode());
      assertEquals("", head.body());
      assertEquals(404, client.get("/nothing-here").statusCode());
      var post = client.send(HttpRequest.newBuilder(status.uri().resolve("/api/status"))
          .POST(HttpRequest.BodyPublishers.ofString("{}")).build());
      assertEquals(405, post.statusCode());
      assertTrue(client.metrics().contains("forager_crawl_actions_total{kind=\"page\",outcome=\"FETCHED\"} 0"),
          "every outcome's series exists from the start");
    }
  }
}
