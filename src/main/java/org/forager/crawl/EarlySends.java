package org.forager.crawl;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.forager.config.CrawlConfig.EarlyRequests;

/**
 * Whether an origin's next request goes out as soon as its turn ends, its response read through the
 * {@link PageGate} (docs/crawl-loop.md, "Early requests"): on while the cores the crawl may use idle.
 *
 * <p>Why not always: sending early pays only when the cores would otherwise idle, every origin waiting
 * for its response at once (a slow web's lockstep, docs/benchmarks.md sessions 34-38). When responses
 * come faster than the cores process them, it gains nothing and costs about 5 % (the gate, and the
 * few milliseconds a head waits for others, {@code fetch.SendBatch}). So the idle share of the cores
 * the process may use ({@link CpuMeter}: a container's own) is read every {@link #SAMPLE}: a {@link
 * #WINDOW} of readings at {@link #IDLE} or more on average turns early requests on for a lease, after
 * which they go off for a shorter window (a probe, {@link #PROBE_WINDOW}): when the cores idle again
 * without them, they come back for twice as long, up to {@link #MAX_LEASE}.
 *
 * <p>Why a short probe and a long first lease: the two mistakes do not cost the same. Off on a slow web,
 * the crawl falls back into the lockstep at once and loses about 30 % of its rate for as long as the
 * probe lasts (docs/benchmarks.md, session 59); on where responses are fast, it pays about 5 %. The
 * lockstep's idle shows in the first reading, so a probe needs less than the first decision, which
 * must tell a slow web from a busy crawl's stall.
 */
final class EarlySends implements AutoCloseable {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(EarlySends.class);

  static final Duration SAMPLE = Duration.ofMillis(500);
  static final int WINDOW = 4;
  static final int PROBE_WINDOW = 2;
  static final double IDLE = 0.12;
  static final Duration FIRST_LEASE = Duration.ofSeconds(8);
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

  /** Starts reading the cores' idle share, in AUTO mode where it can be read. */
  void start() {
    if (mode != EarlyRequests.AUTO) return;
    CpuMeter meter = CpuMeter.open();
    if (meter == null) return;
    sampler = Thread.ofPlatform().daemon().name("forager-early-sends").start(() -> sample(meter));
  }

  private void sample(CpuMeter meter) {
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
    int needed = probing ? PROBE_WINDOW : WINDOW;
    if (filled < needed) return;
    double sum = 0;
    for (int i = 1; i <= needed; i++) sum += window[Math.floorMod(nextSlot - i, WINDOW)];
    if (sum / needed >= IDLE) {
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

  /**
   * The idle share of the CPUs this process may use, as the JDK reads it ({@code
   * com.sun.management.OperatingSystemMXBean#getCpuLoad}): in a container with a CPU quota, the
   * container's use of its quota; with a set of CPUs of its own, the load of those; elsewhere the
   * whole machine's ({@code /proc/stat} on Linux). A reading of the machine alone would see a large
   * idle host around a container at its quota, and turn early requests on where they only cost.
   */
  static final class CpuMeter {
    private final com.sun.management.OperatingSystemMXBean os;

    private CpuMeter(com.sun.management.OperatingSystemMXBean os) {
      this.os = os;
    }

    /** A meter whose first reading is made (it only sets the base); null where the load cannot be read. */
    static CpuMeter open() {
      try {
        var os = ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class);
        if (os == null || os.getCpuLoad() < 0) return null;
        return new CpuMeter(os);
      } catch (LinkageError | RuntimeException e) { // a runtime without the jdk.management module
        return null;
      }
    }

    /** The idle share since the last reading, NaN when it cannot be told. */
    double idleSinceLast() {
      double load = os.getCpuLoad();
      return load < 0 || Double.isNaN(load) ? Double.NaN : 1 - load;
    }
  }
}
