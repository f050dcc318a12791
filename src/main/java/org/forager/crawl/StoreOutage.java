package org.forager.crawl;

import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.forager.record.EventRecord;
import org.forager.store.StoreUnavailableException;

/**
 * Whether this process's crawl database is out of reach (docs/fleet.md, "Database outages"), and
 * how long to wait before asking it again. While it is, the process starts no request: what it
 * fetched could not be recorded. One line tells the operator when it is lost and one when it is back
 * (the terminal, {@code logs/library.log} and the crawl log as {@code "kind": "event"} lines), however
 * many calls failed in between. Thread-safe.
 */
final class StoreOutage {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(StoreOutage.class);
  /** The first wait before asking again, doubled each time, up to {@link #MAX_RETRY_NANOS}. */
  static final long FIRST_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
  static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(5);

  private final Clock clock;
  private final Consumer<EventRecord> log;
  private volatile boolean down;
  private long since;
  private long retryNanos = FIRST_RETRY_NANOS;

  /** @param log where the crawl log takes the two events (a failure to write them is the log's to report) */
  StoreOutage(Clock clock, Consumer<EventRecord> log) {
    this.clock = clock;
    this.log = log;
  }

  /** Whether the database is out of reach now: no request may start. */
  boolean down() {
    return down;
  }

  /** A call found the database out of reach; the first of an outage says so. */
  synchronized void lost(StoreUnavailableException e) {
    if (down) return;
    down = true;
    since = System.nanoTime();
    retryNanos = FIRST_RETRY_NANOS;
    tell("store-unavailable", e.getMessage() + "; crawling paused until it is back");
  }

  /** How long to wait before asking the database again: doubles while it stays away. */
  synchronized long nextRetryNanos() {
    long wait = retryNanos;
    retryNanos = Math.min(MAX_RETRY_NANOS, retryNanos * 2);
    return wait;
  }

  /** The database answered again (and the leases were renewed): crawling resumes. */
  synchronized void back(int held) {
    if (!down) return;
    down = false;
    tell("store-back", String.format("the crawl database is back after %.1f s; crawling resumes"
        + " (%d origins still held)", (System.nanoTime() - since) / 1e9, held));
  }

  /** One line to the terminal and the library log, and the event to the crawl log. */
  private void tell(String name, String detail) {
    String line = "forager: fleet: " + detail;
    Notice.println(line);
    LOG.warn(line);
    try {
      log.accept(new EventRecord(clock.instant(), name, detail));
    } catch (RuntimeException e) { // the log's own failure surfaces at its next action's write
      LOG.warn("could not write the {} event to the crawl log: {}", name, e.getMessage());
    }
  }
}
