package org.forager.record;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.forager.fetch.Outcome;

/** Counts of crawl actions by outcome during one run. Thread-safe. */
public final class RunSummary {

  private final Map<Outcome, LongAdder> counts = new EnumMap<>(Outcome.class);
  private final LongAdder robotsFetches = new LongAdder();
  private final LongAdder robotsDenied = new LongAdder();
  private final Queue<String> notes = new ConcurrentLinkedQueue<>();
  private final AtomicInteger noteCount = new AtomicInteger();
  private final LongAdder bytes = new LongAdder();

  public RunSummary() {
    for (Outcome o : Outcome.values()) counts.put(o, new LongAdder());
  }

  public void count(CrawlAction action) {
    counts.get(action.outcome()).increment();
    if (action.kind() == CrawlAction.Kind.ROBOTS) {
      robotsFetches.increment();
      if (action.httpStatus() == 401 || action.httpStatus() == 403) robotsDenied.increment();
    }
    bytes.add(action.bytes());
  }

  public long count(Outcome outcome) {
    return counts.get(outcome).sum();
  }

  public long actions() {
    return counts.values().stream().mapToLong(LongAdder::sum).sum();
  }

  public long robotsFetches() {
    return robotsFetches.sum();
  }

  /**
   * robots.txt fetches answered 401 or 403: RFC 9309 reads them as "no rules" (allow all), which a
   * site may not mean, so they are counted apart.
   */
  public long robotsDenied() {
    return robotsDenied.sum();
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
    return bytes.sum();
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
    String denied = robotsDenied() > 0 ? String.format(", %,d denied: 401/403 read as allow-all", robotsDenied()) : "";
    sb.append(String.format("%-28s %,d (%,d robots.txt%s) in %.1f s, %.1f actions/s, %,d bytes%n",
        "TOTAL", actions(), robotsFetches(), denied, seconds, actions() / seconds, bytes()));
    return sb.toString();
  }
}
