package org.forager.audit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The per-IP half of the {@link PolitenessAudit}: over the requests the log names an {@code ip} for,
 * at most {@code maxInFlight} in flight to one address at any moment, and at least {@code
 * minDelayMillis} from the end of one to the start of any later one (less the log's rounding).
 *
 * <p>The log is written as actions end, from many origins at once, so its lines are not in order of
 * start: each address keeps a window of its recent requests and every new one is checked against all
 * of them. A request ending more than {@link #HORIZON_MILLIS} (plus the delay) before the latest end
 * seen leaves the window: no request lasts that long, so none logged later can overlap it. Memory:
 * the window of each address, and the origins seen on it. Not thread-safe.
 */
final class IpAudit {

  /** Longer than any request (fetch_timeout bounds one to about twice its value). */
  static final long HORIZON_MILLIS = 10 * 60_000;

  private record Request(long start, long end) {}

  private static final class Window {
    final List<Request> requests = new ArrayList<>();
    final Set<String> origins = new HashSet<>();
    long count;
    long maxEnd = Long.MIN_VALUE;
    double minGap = Double.POSITIVE_INFINITY;
    int maxInFlight;
  }

  private final PolitenessAudit.PerIp limits;
  /** What a key is, in the violations' names: "IP", or "domain" for a domain crawled as one unit. */
  private final String unit;
  private final Map<String, Window> windows = new HashMap<>();

  IpAudit(PolitenessAudit.PerIp limits) {
    this(limits, "IP");
  }

  /** The same checks over another key than the address: a domain crawled as one unit. */
  IpAudit(PolitenessAudit.PerIp limits, String unit) {
    this.limits = limits;
    this.unit = unit;
  }

  /**
   * A request to {@code ip} from {@code start} to {@code end} (epoch nanoseconds), on line {@code line}
   * of the log file {@code file}.
   */
  void request(String ip, String origin, String url, long start, long end, String file, int line,
      List<PolitenessAudit.Violation> violations) {
    Window w = windows.computeIfAbsent(ip, x -> new Window());
    w.count++;
    w.origins.add(origin);
    w.maxEnd = Math.max(w.maxEnd, end);
    long horizon = w.maxEnd - (HORIZON_MILLIS + limits.minDelayMillis()) * 1_000_000L;
    w.requests.removeIf(r -> r.end < horizon);
    Request now = new Request(start, end);
    List<Request> overlapping = new ArrayList<>();
    double closest = Double.POSITIVE_INFINITY;
    for (Request r : w.requests) {
      if (r.start < end && start < r.end) {
        overlapping.add(r);
      } else {
        closest = Math.min(closest, (start >= r.end ? start - r.end : r.start - end) / 1e6);
      }
    }
    overlapping.add(now);
    int inFlight = mostAtOnce(overlapping, start, end);
    w.maxInFlight = Math.max(w.maxInFlight, inFlight);
    w.minGap = Math.min(w.minGap, closest);
    if (inFlight > limits.maxInFlight()) {
      violations.add(new PolitenessAudit.Violation(ip, file, line, "in flight per " + unit, String.format(
          "%d requests in flight to %s at once (at most %d): %s", inFlight, ip, limits.maxInFlight(), url)));
    } else if (closest + PolitenessAudit.ROUNDING_MILLIS < limits.minDelayMillis()) {
      violations.add(new PolitenessAudit.Violation(ip, file, line, "delay per " + unit, String.format(
          "%.1f ms from another request to %s, per-%s delay %d ms: %s", closest, ip, unit, limits.minDelayMillis(), url)));
    }
    w.requests.add(now);
  }

  /** The most of {@code requests} (all overlapping [start, end)) in flight at one moment within it. */
  private static int mostAtOnce(List<Request> requests, long start, long end) {
    int most = 0;
    for (Request at : requests) {
      long moment = Math.max(at.start, start);
      if (moment >= end) continue;
      int count = 0;
      for (Request r : requests) {
        if (r.start <= moment && moment < r.end) count++;
      }
      most = Math.max(most, count);
    }
    return most;
  }

  /** One line per address, in address order. */
  List<PolitenessAudit.IpReport> reports() {
    List<PolitenessAudit.IpReport> reports = new ArrayList<>();
    for (Map.Entry<String, Window> e : new TreeMap<>(windows).entrySet()) {
      Window w = e.getValue();
      reports.add(new PolitenessAudit.IpReport(e.getKey(), w.count, w.origins.size(),
          w.minGap == Double.POSITIVE_INFINITY ? Double.NaN : w.minGap, w.maxInFlight));
    }
    return reports;
  }
}
