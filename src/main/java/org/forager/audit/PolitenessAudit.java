package org.forager.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.forager.record.CrawlLogFiles;
import org.forager.url.Origin;

/**
 * Proves politeness from the crawl log alone ({@code logs/crawl.jsonl} and its finished parts, read
 * as one stream in the order they were written). For each origin, over the actions that sent a request
 * (refusals by a gate send none):
 * <ul>
 *   <li><b>one in flight</b>: no request starts before the previous one ended;
 *   <li><b>delay</b>: the gap from the end of one request to the start of the next is at least the
 *       delay the log says was in force after the first ({@code delay_ms}), less {@link #ROUNDING_MILLIS}
 *       because {@code duration_ms} is logged in whole milliseconds;
 *   <li><b>Retry-After</b>: no request starts before the end of a wait the server asked for with a
 *       rate limit ({@code retry_after_ms}, from the end of the request it came with), less {@link
 *       #ROUNDING_MILLIS}, in the same run or a later one;
 *   <li><b>robots.txt first</b>: in each run no page of the origin is requested before a robots.txt
 *       request, and none after a robots.txt fetch that ended unreachable (timeout, network error, 5xx,
 *       429, a file cut short, the crawler's own failure on it) until a later one succeeds.
 * </ul>
 * And for each IP address the log names ({@code ip}; logs written before it was logged have none,
 * and are checked per origin only), across origins, with the crawl's {@code politeness.per_ip}
 * settings ({@link PerIp}):
 * <ul>
 *   <li><b>in flight per IP</b>: never more than {@code max_in_flight} requests to one address at once;
 *   <li><b>delay per IP</b>: at least {@code min_delay} from the end of one request to an address to
 *       the start of another, less {@link #ROUNDING_MILLIS} (see {@link IpAudit}).
 * </ul>
 * And for each domain the crawl's {@code sites} rules make one unit ({@code unit: domain},
 * {@link DomainUnit}), across its hosts: <b>in flight per domain</b> (one at a time) and <b>delay per
 * domain</b> (the rule's {@code min_delay}).
 * Lines of other kinds sent no request; of those, an operator's {@code set-delay} order ({@code
 * "kind": "control"}) lets the origin's later requests come as soon as the delay it set, when that is
 * shorter than the one logged.
 * Memory grows with the number of origins and addresses, not of actions: the log is streamed, each
 * origin keeps only its last request, each address a window of its recent ones.
 */
public final class PolitenessAudit {

  /**
   * The longest a robots.txt fetched in a part that log.keep deleted may have been used after that part's
   * last line: RFC 9309 section 2.4's 24 hours (robots.cache_ttl is 30 minutes by default). An origin's
   * first page later than this after the deleted parts is judged as any other.
   */
  static final java.time.Duration MAX_ROBOTS_AGE = java.time.Duration.ofHours(24);

  /** A longer retry_after_ms (the crawl logs at most 30 days) is read as this: no overflow from an edited line. */
  private static final long MAX_RETRY_AFTER_MILLIS = 1_000L * 86_400_000L;
  /** duration_ms is truncated to whole milliseconds, so an end time may be up to this much late. */
  public static final long ROUNDING_MILLIS = 1;
  /** The kinds of line that are crawl actions; others (an operator's {@code control} orders) sent no request. */
  private static final java.util.Set<String> REQUEST_KINDS = java.util.Set.of("page", "robots", "sitemap", "");

  /**
   * One broken rule.
   *
   * @param file the name of the log file the line is in (the live file or a finished part)
   * @param line the line's number in that file, from 1
   */
  public record Violation(String origin, String file, int line, String rule, String detail) {}

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

  /**
   * The whole audit; {@code lines} counts the lines of all the log's files.
   *
   * @param expired what {@code log.keep} deleted of the log, when it deleted parts: the audit then reads
   *     a log that does not start at the crawl's beginning
   * @param unjudged origins whose first request in what is left was a page, which robots.txt first
   *     could not judge (their robots.txt fetch may be in a deleted part)
   */
  public record Report(long lines, long requests, List<OriginReport> origins, List<IpReport> ips,
      List<IpReport> domains, List<Violation> violations, Optional<CrawlLogFiles.Expired> expired, long unjudged) {
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
    /** The end of the longest wait the origin's server asked for so far (Retry-After), or MIN_VALUE. */
    long waitUntilNanos = Long.MIN_VALUE;
    /** The request that asked for it: file and line. */
    String waitAskedAt;
    /** The delay an operator set last (-1: none), and when: requests after it may come that soon. */
    long operatorDelayMillis = -1;
    long operatorAtNanos;
    boolean robotsOk;

    OriginState(String origin) {
      this.origin = origin;
    }
  }

  private PolitenessAudit() {}

  /**
   * A domain crawled as one politeness unit (a {@code sites} rule's {@code unit: domain}): one request
   * in flight across its hosts, and {@code minDelayMillis} between any two.
   */
  public record DomainUnit(String domain, long minDelayMillis) {}

  /** Audits with the default per-IP settings ({@link PerIp#DEFAULTS}). */
  public static Report audit(Path crawlLog) {
    return audit(crawlLog, PerIp.DEFAULTS);
  }

  /**
   * Audits the crawl log whose live file is {@code crawlLog}: its finished parts (gzipped or not) in the
   * order they were written, then the live file, as one stream, so that a rule broken across two
   * files is found as well. A part finished while the audit runs is read if it was listed at the start.
   *
   * @throws UncheckedIOException naming the file that cannot be read
   */
  public static Report audit(Path crawlLog, PerIp perIp) {
    return audit(crawlLog, perIp, origin -> Optional.empty());
  }

  /**
   * Like {@link #audit(Path, PerIp)}, also checking the domains the crawl's {@code sites} rules made one
   * unit: {@code unitOf} answers an origin's ({@code https://www.example.org}), asked once per origin.
   */
  public static Report audit(Path crawlLog, PerIp perIp, Function<String, Optional<DomainUnit>> unitOf) {
    return audit(crawlLog, perIp, new Sites(unitOf, origin -> 0));
  }

  /**
   * What the audit reads from the crawl's configuration, per origin ({@code https://www.example.org}):
   * its domain unit ({@code sites} rules' {@code unit: domain}), and the {@code min_delay} an origin
   * returns to when an operator lifts the delay they set ({@code forager ctl set-delay ORIGIN default}),
   * which the log does not say (0 when unknown: the next request is not judged against the old delay).
   */
  public record Sites(Function<String, Optional<DomainUnit>> unitOf, ToLongFunction<String> minDelayMillis) {}

  /** Like {@link #audit(Path, PerIp)}, with what the crawl's configuration says of its sites. */
  public static Report audit(Path crawlLog, PerIp perIp, Sites sites) {
    List<Path> parts;
    try {
      parts = CrawlLogFiles.parts(crawlLog);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + crawlLog.toAbsolutePath().getParent() + ": " + e.getMessage(), e);
    }
    Auditor auditor = new Auditor(perIp, sites);
    try {
      auditor.expired = CrawlLogFiles.expired(crawlLog);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read what log.keep deleted: " + e.getMessage(), e);
    }
    for (Path part : parts) {
      String file = part.getFileName().toString();
      int lineNo = 0;
      try (BufferedReader reader = CrawlLogFiles.open(part)) {
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          auditor.line(file, ++lineNo, line);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + part + ": " + e.getMessage(), e);
      }
    }
    return auditor.report();
  }

  /**
   * The delay a request starting at {@code start} owed the origin's previous one: the one logged with
   * that request, or a shorter one an operator set before {@code start} (a turn under way when the
   * order came may still log the old one).
   */
  private static long delayInForce(OriginState s, long start) {
    if (s.operatorDelayMillis < 0 || start < s.operatorAtNanos) return s.lastDelayMillis;
    return Math.min(s.lastDelayMillis, s.operatorDelayMillis);
  }

  private static long nanos(Instant ts) {
    return ts.getEpochSecond() * 1_000_000_000L + ts.getNano();
  }

  /** The audit's state, carried from one line to the next across the log's files. */
  private static final class Auditor {
    final ObjectMapper json = new ObjectMapper();
    final IpAudit ips;
    final Map<String, OriginState> origins = new HashMap<>();
    final List<Violation> violations = new ArrayList<>();
    long lines;
    long requests;
    /** What log.keep deleted: an origin's first request in what is left may follow its robots.txt there. */
    Optional<CrawlLogFiles.Expired> expired = Optional.empty();
    long unjudged;

    final Function<String, Optional<DomainUnit>> unitOf;
    final ToLongFunction<String> minDelayMillis;
    /** Each origin's domain unit, when it has one: asked once per origin. */
    final Map<String, Optional<DomainUnit>> units = new HashMap<>();
    /** One audit per domain unit, keyed by the domain. */
    final Map<String, IpAudit> domains = new TreeMap<>();

    Auditor(PerIp perIp, Sites sites) {
      this.ips = new IpAudit(perIp);
      this.unitOf = sites.unitOf();
      this.minDelayMillis = sites.minDelayMillis();
    }

    void line(String file, int lineNo, String line) {
      lines++;
      if (line.isBlank()) return;
      JsonNode a;
      try {
        a = json.readTree(line);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        violations.add(new Violation("", file, lineNo, "log", "not a JSON object: " + e.getOriginalMessage()));
        return;
      }
      try {
        entry(file, lineNo, a);
      } catch (java.time.DateTimeException e) {
        // A line the crawl did not write (an edit, a damaged file): named, and the audit goes on.
        violations.add(new Violation("", file, lineNo, "log", "no valid ts: '" + a.path("ts").asText() + "'"));
      } catch (IllegalArgumentException e) {
        violations.add(new Violation("", file, lineNo, "log", "no valid url: '" + a.path("url").asText() + "'"));
      }
    }

    private void entry(String file, int lineNo, JsonNode a) {
      String kind = a.path("kind").asText();
      if (!REQUEST_KINDS.contains(kind)) {
        // Not a crawl action (an operator's order, a kind added later): no request was sent. Only a
        // delay the operator set matters: the origin's next request may come that soon. Set back to
        // the default (no delay_ms): as soon as the origin's configured min_delay.
        if (kind.equals("control") && a.path("action").asText().equals("set-delay")) {
          String target = a.path("target").asText();
          OriginState s = origins.computeIfAbsent(target, OriginState::new);
          s.operatorDelayMillis = a.has("delay_ms") ? a.path("delay_ms").asLong() : minDelayMillis.applyAsLong(target);
          s.operatorAtNanos = nanos(Instant.parse(a.path("ts").asText()));
        }
        return;
      }
      String url = a.path("url").asText();
      String origin = Origin.ofUrl(url).toString();
      OriginState s = origins.computeIfAbsent(origin, OriginState::new);
      String outcome = a.path("outcome").asText();
      boolean robots = "robots".equals(kind);
      if (outcome.startsWith("BLOCKED_") || outcome.equals("OUT_OF_SCOPE")) {
        s.refusals++;
        return; // no request was sent
      }
      long start = nanos(Instant.parse(a.path("ts").asText()));
      requests++;
      long end = start + a.path("duration_ms").asLong() * 1_000_000L;
      if (s.lastEndNanos != Long.MIN_VALUE) {
        if (start < s.lastStartNanos) {
          violations.add(new Violation(origin, file, lineNo, "order",
              "starts before the previous request of the origin"));
        }
        double gap = (start - s.lastEndNanos) / 1e6;
        s.minGap = Math.min(s.minGap, gap);
        if (start < s.lastEndNanos) {
          s.maxInFlight = 2;
          violations.add(new Violation(origin, file, lineNo, "one in flight",
              String.format("started %.1f ms before the previous request ended", -gap)));
        } else if (gap + ROUNDING_MILLIS < delayInForce(s, start)) {
          violations.add(new Violation(origin, file, lineNo, "delay",
              String.format("%.1f ms after the previous request, delay in force %d ms", gap, delayInForce(s, start))));
        }
      }
      if (start + ROUNDING_MILLIS * 1_000_000L < s.waitUntilNanos) {
        violations.add(new Violation(origin, file, lineNo, "Retry-After",
            String.format("%.1f ms before the end of the wait the server asked for at %s", (s.waitUntilNanos - start) / 1e6,
                s.waitAskedAt)));
      }
      if (robots) {
        s.robotsRequests++;
        s.robotsOk = !(outcome.equals("TIMEOUT") || outcome.equals("NETWORK_ERROR") || outcome.equals("DNS_ERROR")
            || outcome.equals("INTERNAL_ERROR")
            || outcome.equals("RATE_LIMITED") || outcome.equals("TRUNCATED")
            || (outcome.equals("HTTP_ERROR") && a.path("http_status").asInt() >= 500));
      } else if (!s.robotsOk && s.requests == 0 && expired.isPresent()
          && start <= nanos(expired.get().lastLine().plus(MAX_ROBOTS_AGE))) {
        // The log's start is gone: this origin's robots.txt fetch may be in a deleted part, if this page
        // came while one fetched before that part's end could still be in use. Counted, and from here on
        // judged as if it had succeeded (a later unreachable one in the log still counts).
        unjudged++;
        s.robotsOk = true;
      } else if (!s.robotsOk) {
        violations.add(new Violation(origin, file, lineNo, "robots.txt first",
            "page requested without a successful robots.txt fetch before it: " + url));
      }
      String ip = a.path("ip").asText("");
      if (!ip.isEmpty()) ips.request(ip, origin, url, start, end, file, lineNo, violations);
      Optional<DomainUnit> unit = units.computeIfAbsent(origin, unitOf);
      if (unit.isPresent()) {
        domains.computeIfAbsent(unit.get().domain(), d -> new IpAudit(new PerIp(1, unit.get().minDelayMillis()), "domain"))
            .request(unit.get().domain(), origin, url, start, end, file, lineNo, violations);
      }
      s.requests++;
      s.lastStartNanos = start;
      s.lastEndNanos = end;
      s.lastDelayMillis = a.path("delay_ms").asLong();
      long retryAfter = Math.min(a.path("retry_after_ms").asLong(-1), MAX_RETRY_AFTER_MILLIS);
      long waitEnd = end + retryAfter * 1_000_000L;
      if (retryAfter >= 0 && waitEnd > s.waitUntilNanos) {
        s.waitUntilNanos = waitEnd;
        s.waitAskedAt = file + ":" + lineNo;
      }
    }

    Report report() {
      List<OriginReport> reports = new ArrayList<>();
      for (OriginState s : new TreeMap<>(origins).values()) {
        reports.add(new OriginReport(s.origin, s.requests, s.robotsRequests, s.refusals,
            s.minGap == Double.POSITIVE_INFINITY ? Double.NaN : s.minGap, s.requests == 0 ? 0 : s.maxInFlight));
      }
      List<IpReport> domainReports = new ArrayList<>();
      domains.values().forEach(d -> domainReports.addAll(d.reports()));
      return new Report(lines, requests, reports, ips.reports(), domainReports, violations, expired, unjudged);
    }
  }
}
