package org.forager.record;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.forager.fetch.Outcome;

/**
 * Counts of crawl actions by outcome during one run. Thread-safe.
 *
 * <p>The counters are {@link AtomicLong}s, not {@code LongAdder}s: a few increments a page never
 * contend enough to need an adder's cells, and an adder's code changes shape the first time two
 * threads meet in it, which throws away the compiled code of every caller that inlined it (the page's
 * whole processing, recompiled twice a crawl: docs/benchmarks.md, session 39).
 */
public final class RunSummary {

  private final Map<Outcome, AtomicLong> counts = new EnumMap<>(Outcome.class);
  private final AtomicLong robotsFetches = new AtomicLong();
  private final AtomicLong robotsDenied = new AtomicLong();
  private final Queue<String> notes = new ConcurrentLinkedQueue<>();
  private final AtomicInteger noteCount = new AtomicInteger();
  private final AtomicLong bytes = new AtomicLong();

  public RunSummary() {
    for (Outcome o : Outcome.values()) counts.put(o, new AtomicLong());
  }

  public void count(CrawlAction action) {
    counts.get(action.outcome()).getAndIncrement();
    if (action.kind() == CrawlAction.Kind.ROBOTS) {
      robotsFetches.getAndIncrement();
      if (action.httpStatus() == 401 || action.httpStatus() == 403) robotsDenied.getAndIncrement();
    }
    bytes.getAndAdd(action.bytes());
  }

  public long count(Outcome outcome) {
    return counts.get(outcome).get();
  }

  public long actions() {
    return counts.values().stream().mapToLong(AtomicLong::get).sum();
  }

  public long robotsFetches() {
    return robotsFetches.get();
  }

  /**
   * robots.txt fetches answered 401 or 403: RFC 9309 reads them as "no rules" (allow all), which a
   * site may not mean, so they are counted apart.
   */
  public long robotsDenied() {
    return robotsDenied.get();
  }

  /** The most notes kept (and shown) per run; further ones are only counted. */
  static final int MAX_NOTES = 20;

  /**
   * Adds a line for the operator at the end of the run, such as a seed that redirects out of scope.
   * Crawled strings in it are escaped when rendered.
   */
  public void note(String line) {
    if (noteCount.incrementAndGet() <= MAX_NOTES) notes.add(line);
  }

  /** The notes of the run so far, in order, at most {@link #MAX_NOTES}. */
  public List<String> notes() {
    return List.copyOf(notes);
  }

  public long bytes() {
    return bytes.get();
  }

  /** One line per outcome that happened, then the totals, for people. */
  public String render(Duration elapsed) {
    StringBuilder sb = new StringBuilder();
    for (Outcome o : Outcome.values()) {
      long n = count(o);
      if (n > 0) sb.append(String.format("%-28s %,d%n", o.name(), n));
    }
    double seconds = Math.max(elapsed.toMillis(), 1) / 1000.0;
    for (String note : notes) sb.append("note: ").append(TerminalText.escape(note)).append('\n');
    if (noteCount.get() > MAX_NOTES) {
      sb.append(String.format("note: and %,d more like these%n", noteCount.get() - MAX_NOTES));
    }
    long refused = count(Outcome.BLOCKED_BY_NETWORK_POLICY);
    if (refused > 0) {
      // What a first crawl of a server on this machine or the local network meets: say the setting.
      sb.append(String.format("note: %,d URL%s not requested: %s host%s resolve%s only to loopback, private or other "
          + "non-public addresses, which the network policy refuses (network.allow_private_addresses: true "
          + "allows them; logs/crawl.jsonl names each)%n", refused, refused == 1 ? "" : "s", refused == 1 ? "its" : "their",
          refused == 1 ? "" : "s", refused == 1 ? "s" : ""));
    }
    String denied = robotsDenied() > 0 ? String.format(", %,d denied: 401/403 read as allow-all", robotsDenied()) : "";
    sb.append(String.format("%-28s %,d (%,d robots.txt%s) in %.1f s, %.1f actions/s, %,d bytes%n",
        "TOTAL", actions(), robotsFetches(), denied, seconds, actions() / seconds, bytes()));
    return sb.toString();
  }
}
