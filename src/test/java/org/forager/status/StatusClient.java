package org.forager.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads a status server's endpoints as a browser or Prometheus would. */
final class StatusClient {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final URI base;

  StatusClient(URI base) {
    this.base = base;
  }

  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).GET().build());
  }

  HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  JsonNode status() throws IOException, InterruptedException {
    HttpResponse<String> response = get("/api/status");
    if (response.statusCode() != 200) throw new AssertionError("/api/status: " + response.statusCode());
    return JSON.readTree(response.body());
  }

  String metrics() throws IOException, InterruptedException {
    HttpResponse<String> response = get("/metrics");
    if (response.statusCode() != 200) throw new AssertionError("/metrics: " + response.statusCode());
    return response.body();
  }

  /**
   * Polls {@code /api/status} until it satisfies {@code condition} (the server samples rates once a
   * second, so some facts need a second or two of real time to appear).
   */
  JsonNode awaitStatus(Predicate<JsonNode> condition, String what) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (true) {
      JsonNode status = status();
      if (condition.test(status)) return status;
      if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting for " + what + ": " + status);
      Thread.sleep(50);
    }
  }

  /** The value of one series in the Prometheus text, e.g. {@code name{tag="x"}}; fails when absent. */
  static double sample(String metrics, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)").matcher(metrics);
    if (!m.find()) throw new AssertionError("no series " + series + " in:\n" + metrics);
    return Double.parseDouble(m.group(1));
  }
}
