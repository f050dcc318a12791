package org.forager.crawl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.forager.config.CrawlConfig.EarlyRequests;

/**
 * Whether an origin's next request goes out as soon as its turn ends, its response read through the
 * {@link PageGate} (docs/crawl-loop.md, "Early requests"): on while the machine's cores idle.
 *
 * <p>Why not always: sending early pays only when the cores would otherwise idle, every origin waiting
 * for its response at once (a slow web's lockstep, docs/benchmarks.md sessions 34-38). When responses
 * come faster than the cores process them, it gains nothing and costs about 5 % (the gate, and the
 * few milliseconds a head waits for others, {@code fetch.SendBatch}). So the machine's idle share is
 * read every {@link #SAMPLE}: a {@link #WINDOW} of readings at {@link #IDLE} or more on average turns
 * early requests on for a lease, after which they go off for a window (a probe): when the cores idle
 * again without them, they come back for twice as long, up to {@link #MAX_LEASE}.
 */
final class EarlySends implements AutoCloseable {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(EarlySends.class);

  static final Duration SAMPLE = Duration.ofMillis(500);
  static final int WINDOW = 4;
  static final double IDLE = 0.12;
  static final Duration FIRST_LEASE = Duration.ofSeconds(4);
  static final Duration MAX_LEASE = Duration.ofSeconds(32);

  private final EarlyRequests mode;
  private volatile boolean on;
  // The sampler's state, confined to its thread (or to a test's).
  private final double[] window = new double[WINDOW];
  private int filled;
  private int nextSlot;
  private long leaseNanos = FIRST_LEASE.toNanos();
  private long leaseEnds;
  private boolean probing;
  private Thread sampler;

  EarlySends(EarlyRequests mode) {
    this.mode = mode;
    this.on = mode == EarlyRequests.ALWAYS;
  }

  /** Whether origins send their next request as their turn ends. */
  boolean on() {
    return on;
  }

  /** Starts reading the machine's idle share, in AUTO mode where it can be read. */
  void start() {
    if (mode != EarlyRequests.AUTO) return;
    ProcStat meter = ProcStat.open();
    if (meter == null) return;
    sampler = Thread.ofPlatform().daemon().name("forager-early-sends").start(() -> sample(meter));
  }

  private void sample(ProcStat meter) {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        Thread.sleep(SAMPLE);
        observe(meter.idleSinceLast(), System.nanoTime());
      }
    } catch (InterruptedException e) {
      // closed
    }
  }

  /** One reading of the idle share, at {@code now}. */
  void observe(double idle, long now) {
    if (mode != EarlyRequests.AUTO) return;
    boolean was = on;
    decide(idle, now);
    if (was != on) {
      if (on) {
        LOG.debug("early requests on for {} ms: the cores idled", leaseNanos / 1_000_000);
      } else {
        LOG.debug("early requests off: do the cores idle without them?");
      }
    }
  }

  private void decide(double idle, long now) {
    if (Double.isNaN(idle)) return;
    if (on) {
      if (now - leaseEnds >= 0) {
        on = false;
        probing = true;
        clearWindow();
      }
      return;
    }
    window[nextSlot] = idle;
    nextSlot = (nextSlot + 1) % WINDOW;
    if (filled < WINDOW) filled++;
    if (filled < WINDOW) return;
    double sum = 0;
    for (double d : window) sum += d;
    if (sum / WINDOW >= IDLE) {
      leaseNanos = probing ? Math.min(leaseNanos * 2, MAX_LEASE.toNanos()) : FIRST_LEASE.toNanos();
      leaseEnds = now + leaseNanos;
      on = true;
      clearWindow();
    } else {
      probing = false; // a probe that found the cores busy: the next lease starts short
    }
  }

  private void clearWindow() {
    filled = 0;
    nextSlot = 0;
  }

  @Override
  public void close() {
    Thread t = sampler;
    if (t == null) return;
    t.interrupt();
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The machine's idle share from Linux's {@code /proc/stat} (idle and iowait over all). */
  static final class ProcStat {
    private static final Path STAT = Path.of("/proc/stat");
    private long idle;
    private long total;

    static ProcStat open() {
      ProcStat p = new ProcStat();
      p.idleSinceLast(); // the first reading only sets the base
      return p.total > 0 ? p : null;
    }

    /** The idle share since the last reading, NaN when it cannot be told. */
    double idleSinceLast() {
      String line;
      try (var lines = Files.lines(STAT)) {
        line = lines.findFirst().orElse("");
      } catch (IOException | RuntimeException e) {
        return Double.NaN;
      }
      String[] f = line.trim().split("\\s+");
      if (f.length < 9 || !f[0].equals("cpu")) return Double.NaN;
      long idleNow = 0;
      long totalNow = 0;
      try {
        for (int i = 1; i <= 8; i++) {
          long v = Long.parseLong(f[i]);
          totalNow += v;
          if (i == 4 || i == 5) idleNow += v;
        }
      } catch (NumberFormatException e) {
        return Double.NaN;
      }
      long dTotal = totalNow - total;
      long dIdle = idleNow - idle;
      boolean first = total == 0;
      idle = idleNow;
      total = totalNow;
      return first || dTotal <= 0 ? Double.NaN : (double) dIdle / dTotal;
    }
  }
}
