package org.forager.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.forager.url.Origin;

/**
 * Proves politeness from {@code logs/crawl.jsonl} alone. For each origin, over the actions that sent a
 * request (refusals by a gate send none):
 * <ul>
 *   <li><b>one in flight</b>: no request starts before the previous one ended;
 *   <li><b>delay</b>: the gap from the end of one request to the start of the next is at least the
 *       delay the log says was in force after the first ({@code delay_ms}), less {@link #ROUNDING_MILLIS}
 *       because {@code duration_ms} is logged in whole milliseconds;
 *   <li><b>robots.txt first</b>: in each run no page of the origin is requested before a robots.txt
 *       request, and none after a robots.txt fetch that ended unreachable (timeout, network error, 5xx,
 *       429) until a later one succeeds.
 * </ul>
 * And for each IP address the log names ({@code ip}; logs written before it was logged have none,
 * and are checked per origin only), across origins, with the crawl's {@code politeness.per_ip}
 * settings ({@link PerIp}):
 * <ul>
 *   <li><b>in flight per IP</b>: never more than {@code max_in_flight} requests to one address at once;
 *   <li><b>delay per IP</b>: at least {@code min_delay} from the end of one request to an address to
 *       the start of another, less {@link #ROUNDING_MILLIS} (see {@link IpAudit}).
 * </ul>
 * Memory grows with the number of origins and addresses, not of actions: the log is streamed, each
 * origin keeps only its last request, each address a window of its recent ones.
 */
public final class PolitenessAudit {

  /** duration_ms is truncated to whole milliseconds, so an end time may be up to this much late. */
  public static final long ROUNDING_MILLIS = 1;

  /** One broken rule. */
  public record Violation(String origin, int line, String rule, String detail) {}

  /** What one origin did. */
  public record OriginReport(String origin, long requests, long robotsRequests, long refusals,
      double minGapMillis, long maxInFlight) {}

  /** What was sent to one IP address, by how many origins. */
  public record IpReport(String ip, long requests, int origins, double minGapMillis, long maxInFlight) {}

  /**
   * The crawl's {@code politeness.per_ip} settings, which the log does not carry.
   *
   * @param minDelayMillis the least gap between two requests to one address
   */
  public record PerIp(int maxInFlight, long minDelayMillis) {
    /** The configuration's defaults: one in flight, no delay of its own. */
    public static final PerIp DEFAULTS = new PerIp(1, 0);
  }

  /** The whole audit. */
  public record Report(long lines, long requests, List<OriginReport> origins, List<IpReport> ips,
      List<Violation> violations) {
    public boolean polite() {
      return violations.isEmpty();
    }
  }

  private static final class OriginState {
    final String origin;
    long requests;
    long robotsRequests;
    long refusals;
    double minGap = Double.POSITIVE_INFINITY;
    long maxInFlight = 1;
    long lastStartNanos = Long.MIN_VALUE;
    long lastEndNanos = Long.MIN_VALUE;
    long lastDelayMillis;
    boolean robotsOk;

    OriginState(String origin) {
      this.origin = origin;
    }
  }

  private PolitenessAudit() {}

  /** Audits with the default per-IP settings ({@link PerIp#DEFAULTS}). */
  public static Report audit(Path crawlLog) {
    return audit(crawlLog, PerIp.DEFAULTS);
  }

  public static Report audit(Path crawlLog, PerIp perIp) {
    ObjectMapper json = new ObjectMapper();
    IpAudit ips = new IpAudit(perIp);
    Map<String, OriginState> origins = new HashMap<>();
    List<Violation> violations = new ArrayList<>();
    long lines = 0;
    long requests = 0;
    try (BufferedReader reader = Files.newBufferedReader(crawlLog, StandardCharsets.UTF_8)) {
      String line;
      while ((line = reader.readLine()) != null) {
        lines++;
        if (line.isBlank()) continue;
        JsonNode a;
        try {
          a = json.readTree(line);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
          violations.add(new Violation("", (int) lines, "log", "not a JSON object: " + e.getOriginalMessage()));
          continue;
        }
        String url = a.path("url").asText();
        String origin = Origin.ofUrl(url).toString();
        OriginState s = origins.computeIfAbsent(origin, OriginState::new);
        String outcome = a.path("outcome").asText();
        boolean robots = "robots".equals(a.path("kind").asText());
        if (outcome.startsWith("BLOCKED_") || outcome.equals("OUT_OF_SCOPE")) {
          s.refusals++;
          continue; // no request was sent
        }
        requests++;
        Instant ts = Instant.parse(a.path("ts").asText());
        long start = ts.getEpochSecond() * 1_000_000_000L + ts.getNano();
        long end = start + a.path("duration_ms").asLong() * 1_000_000L;
        if (s.lastEndNanos != Long.MIN_VALUE) {
          if (start < s.lastStartNanos) {
            violations.add(new Violation(origin, (int) lines, "order", "starts before the previous request of the origin"));
          }
          double gap = (start - s.lastEndNanos) / 1e6;
          s.minGap = Math.min(s.minGap, gap);
          if (start < s.lastEndNanos) {
            s.maxInFlight = 2;
            violations.add(new Violation(origin, (int) lines, "one in flight",
                String.format("started %.1f ms before the previous request ended", -gap)));
          } else if (gap + ROUNDING_MILLIS < s.lastDelayMillis) {
            violations.add(new Violation(origin, (int) lines, "delay",
                String.format("%.1f ms after the previous request, delay in force %d ms", gap, s.lastDelayMillis)));
          }
        }
        if (robots) {
          s.robotsRequests++;
          s.robotsOk = !(outcome.equals("TIMEOUT") || outcome.equals("NETWORK_ERROR") || outcome.equals("DNS_ERROR")
              || outcome.equals("RATE_LIMITED")
              || (outcome.equals("HTTP_ERROR") && a.path("http_status").asInt() >= 500));
        } else if (!s.robotsOk) {
          violations.add(new Violation(origin, (int) lines, "robots.txt first",
              "page requested without a successful robots.txt fetch before it: " + url));
        }
        String ip = a.path("ip").asText("");
        if (!ip.isEmpty()) ips.request(ip, origin, url, start, end, (int) lines, violations);
        s.requests++;
        s.lastStartNanos = start;
        s.lastEndNanos = end;
        s.lastDelayMillis = a.path("delay_ms").asLong();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + crawlLog + ": " + e.getMessage(), e);
    }
    List<OriginReport> reports = new ArrayList<>();
    for (OriginState s : new TreeMap<>(origins).values()) {
      reports.add(new OriginReport(s.origin, s.requests, s.robotsRequests, s.refusals,
          s.minGap == Double.POSITIVE_INFINITY ? Double.NaN : s.minGap, s.requests == 0 ? 0 : s.maxInFlight));
    }
    return new Report(lines, requests, reports, ips.reports(), violations);
  }
}
