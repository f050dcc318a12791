package org.forager.bench.web;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.PriorityQueue;

/**
 * A politeness and coverage audit of a synthetic web's request log: per host what {@link HostAudit}
 * says, and totals over all hosts. Coverage is the share of the H x P pages served at least once
 * with a 200. Immutable.
 *
 * @param minIntervalNanos the smallest {@link HostAudit#minIntervalNanos()} over hosts
 * @param maxInFlight the largest {@link HostAudit#maxInFlight()} over hosts
 * @param hostsOverlapping hosts that ever had more than one request in flight
 * @param durationNanos from the first arrival to the last response end (0 without requests)
 * @param pagesPerSecond pages served with a 200 in each whole second from the first arrival (by their
 *     arrival): a crawler's warm-up and steady rate as the server sees them, whatever the crawler
 */
public record Audit(WebConfig config, long requests, long pages, long distinctPages, double coverage,
    long robots, long privateRequests, long skippedExtension, long otherRequests, long aborted,
    int hostsRequested, long connections, int maxInFlight, int hostsOverlapping,
    OptionalLong minIntervalNanos, OptionalLong minIntervalFromWriteStartNanos, long durationNanos,
    List<Long> pagesPerSecond, List<HostAudit> hosts) {

  public Audit {
    pagesPerSecond = List.copyOf(pagesPerSecond);
    hosts = List.copyOf(hosts);
  }

  /** Audits a log (take a {@link RequestLog#snapshot} of a live one); requests are in arrival order. */
  public static Audit of(RequestLog log, WebConfig config) {
    int hostCount = config.hosts();
    int pageCount = config.pages();
    long[][] counts = new long[7][hostCount];
    long[] minInterval = filled(hostCount, Long.MAX_VALUE);
    long[] minIntervalFromStart = filled(hostCount, Long.MAX_VALUE);
    long[] latestEnd = new long[hostCount];
    long[] latestStart = new long[hostCount];
    long[] first = new long[hostCount];
    long[] last = new long[hostCount];
    long[] connections = new long[hostCount];
    int[] maxInFlight = new int[hostCount];
    // Per host, the ends of the requests that may still be in flight; made when a host is first seen.
    List<PriorityQueue<Long>> inFlight = new ArrayList<>(Collections.nCopies(hostCount, null));
    BitSet seenConnections = new BitSet();
    BitSet served = new BitSet();
    int n = log.size();
    long firstArrival = n == 0 ? 0 : log.arrival(0);
    long lastEnd = 0;
    List<Long> perSecond = new ArrayList<>();

    for (int i = 0; i < n; i++) {
      int h = log.host(i);
      int target = log.target(i);
      int status = log.status(i);
      long arrival = log.arrival(i);
      long start = log.writeStart(i);
      long end = log.writeEnd(i);
      if (counts[0][h] > 0) {
        minInterval[h] = Math.min(minInterval[h], arrival - latestEnd[h]);
        minIntervalFromStart[h] = Math.min(minIntervalFromStart[h], arrival - latestStart[h]);
        latestEnd[h] = Math.max(latestEnd[h], end);
        latestStart[h] = Math.max(latestStart[h], start);
        last[h] = Math.max(last[h], end);
      } else {
        latestEnd[h] = end;
        latestStart[h] = start;
        first[h] = arrival;
        last[h] = end;
      }
      counts[0][h]++;
      if (target >= 0 && status == 200) {
        counts[1][h]++;
        served.set(h * pageCount + target);
        int second = (int) ((arrival - firstArrival) / 1_000_000_000L);
        while (perSecond.size() <= second) perSecond.add(0L);
        perSecond.set(second, perSecond.get(second) + 1);
      }
      if (target == Target.ROBOTS) counts[2][h]++;
      if (target == Target.PRIVATE) counts[3][h]++;
      if (target == Target.SKIPPED_EXTENSION) counts[4][h]++;
      if (target == Target.OTHER || (target >= 0 && status != 200 && status != RequestLog.ABORTED)) {
        counts[5][h]++;
      }
      if (status == RequestLog.ABORTED) counts[6][h]++;
      int connection = log.connection(i);
      if (!seenConnections.get(connection)) {
        seenConnections.set(connection);
        connections[h]++;
      }
      PriorityQueue<Long> ends = inFlight.get(h);
      if (ends == null) inFlight.set(h, ends = new PriorityQueue<>());
      while (!ends.isEmpty() && ends.peek() <= arrival) ends.poll();
      ends.add(end);
      maxInFlight[h] = Math.max(maxInFlight[h], ends.size());
      lastEnd = i == 0 ? end : Math.max(lastEnd, end);
    }

    List<HostAudit> hosts = new ArrayList<>(hostCount);
    long[] totals = new long[7];
    int hostsRequested = 0;
    int worstInFlight = 0;
    int overlapping = 0;
    long worstInterval = Long.MAX_VALUE;
    long worstIntervalFromStart = Long.MAX_VALUE;
    long allConnections = 0;
    for (int h = 0; h < hostCount; h++) {
      for (int k = 0; k < 7; k++) totals[k] += counts[k][h];
      if (counts[0][h] > 0) hostsRequested++;
      if (maxInFlight[h] > 1) overlapping++;
      worstInFlight = Math.max(worstInFlight, maxInFlight[h]);
      worstInterval = Math.min(worstInterval, minInterval[h]);
      worstIntervalFromStart = Math.min(worstIntervalFromStart, minIntervalFromStart[h]);
      allConnections += connections[h];
      hosts.add(new HostAudit(h, Hosts.address(h), counts[0][h], counts[1][h], counts[2][h], counts[3][h],
          counts[4][h], counts[5][h], counts[6][h], connections[h], maxInFlight[h],
          optional(minInterval[h]), optional(minIntervalFromStart[h]), first[h], last[h]));
    }
    long distinct = served.cardinality();
    return new Audit(config, totals[0], totals[1], distinct, distinct / ((double) hostCount * pageCount),
        totals[2], totals[3], totals[4], totals[5], totals[6], hostsRequested, allConnections,
        worstInFlight, overlapping, optional(worstInterval), optional(worstIntervalFromStart),
        n == 0 ? 0 : lastEnd - firstArrival, perSecond, hosts);
  }

  /** The audit's totals as one JSON object (times in ms). */
  public String toJson() {
    StringBuilder j = new StringBuilder("{\n");
    field(j, "hosts", config.hosts());
    field(j, "pages_per_host", config.pages());
    field(j, "port", config.port());
    field(j, "latency_ms", config.latency().toMillis());
    field(j, "requests", requests);
    field(j, "pages_served", pages);
    field(j, "distinct_pages_served", distinctPages);
    j.append("  \"coverage\": ").append(String.format(Locale.ROOT, "%.6f", coverage)).append(",\n");
    field(j, "robots_requests", robots);
    field(j, "private_requests", privateRequests);
    field(j, "skipped_extension_requests", skippedExtension);
    field(j, "other_requests", otherRequests);
    field(j, "aborted", aborted);
    field(j, "hosts_requested", hostsRequested);
    field(j, "connections", connections);
    field(j, "max_in_flight", maxInFlight);
    field(j, "hosts_overlapping", hostsOverlapping);
    j.append("  \"min_interval_ms\": ").append(millis(minIntervalNanos)).append(",\n");
    j.append("  \"min_interval_from_write_start_ms\": ").append(millis(minIntervalFromWriteStartNanos))
        .append(",\n");
    j.append("  \"duration_s\": ").append(String.format(Locale.ROOT, "%.3f", durationNanos / 1e9)).append(",\n");
    double rate = durationNanos == 0 ? 0 : requests / (durationNanos / 1e9);
    j.append("  \"requests_per_second\": ").append(String.format(Locale.ROOT, "%.1f", rate)).append(",\n");
    j.append("  \"pages_per_second\": ").append(pagesPerSecond).append("\n}\n");
    return j.toString();
  }

  /**
   * One CSV line per host, times in ms ({@code first_arrival_ms}, {@code last_end_ms} since
   * {@code originNanos}); an empty interval field means fewer than two requests.
   */
  public void writeHostsCsv(Writer out, long originNanos) throws IOException {
    BufferedWriter w = new BufferedWriter(out, 1 << 16);
    w.write("host,address,requests,pages,robots,private,skipped_extension,other,aborted,connections,"
        + "max_in_flight,min_interval_ms,min_interval_from_write_start_ms,first_arrival_ms,last_end_ms\n");
    for (HostAudit h : hosts) {
      w.write(h.host() + "," + h.address() + "," + h.requests() + "," + h.pages() + "," + h.robots() + ","
          + h.privateRequests() + "," + h.skippedExtension() + "," + h.otherRequests() + "," + h.aborted()
          + "," + h.connections() + "," + h.maxInFlight() + "," + csvMillis(h.minIntervalNanos()) + ","
          + csvMillis(h.minIntervalFromWriteStartNanos()) + ","
          + (h.requests() == 0 ? "" : ms(h.firstArrivalNanos() - originNanos)) + ","
          + (h.requests() == 0 ? "" : ms(h.lastEndNanos() - originNanos)) + "\n");
    }
    w.flush();
  }

  /** One line for a terminal: {@code AUDIT requests=... coverage=...}. */
  public String summaryLine() {
    return "AUDIT requests=" + requests + " pages=" + pages + " distinct_pages=" + distinctPages
        + " coverage=" + String.format(Locale.ROOT, "%.4f", coverage) + " private=" + privateRequests
        + " max_in_flight=" + maxInFlight + " min_interval_ms=" + millis(minIntervalNanos);
  }

  private static void field(StringBuilder j, String name, long value) {
    j.append("  \"").append(name).append("\": ").append(value).append(",\n");
  }

  private static String millis(OptionalLong nanos) {
    return nanos.isPresent() ? ms(nanos.getAsLong()) : "null";
  }

  private static String csvMillis(OptionalLong nanos) {
    return nanos.isPresent() ? ms(nanos.getAsLong()) : "";
  }

  private static String ms(long nanos) {
    return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
  }

  private static OptionalLong optional(long value) {
    return value == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(value);
  }

  private static long[] filled(int n, long value) {
    long[] a = new long[n];
    Arrays.fill(a, value);
    return a;
  }
}
