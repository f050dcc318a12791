package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.forager.config.CrawlConfig.EarlyRequests;
import org.junit.jupiter.api.Test;

/** {@link EarlySends}: when early requests are on, from the cores' idle share read every half second. */
class EarlySendsTest {

  private static final long HALF_SECOND = EarlySends.SAMPLE.toNanos();
  private long now = 1_000_000_000L;

  /** {@code n} readings of {@code idle}, half a second apart; whether early requests were on after each. */
  private boolean[] observe(EarlySends sends, double idle, int n) {
    boolean[] on = new boolean[n];
    for (int i = 0; i < n; i++) {
      now += HALF_SECOND;
      sends.observe(idle, now);
      on[i] = sends.on();
    }
    return on;
  }

  /** How many readings of a busy crawl (early requests keep the cores busy) until they go off, at most {@code most} + 1. */
  private long onFor(EarlySends sends, long most) {
    long n = 0;
    while (sends.on() && n <= most) {
      observe(sends, 0.01, 1);
      n++;
    }
    return n;
  }

  private static int count(boolean[] on) {
    int n = 0;
    for (boolean b : on) if (b) n++;
    return n;
  }

  @Test
  void alwaysAndNeverDoNotReadTheCores() {
    EarlySends always = new EarlySends(EarlyRequests.ALWAYS);
    EarlySends never = new EarlySends(EarlyRequests.NEVER);
    assertTrue(always.on());
    assertFalse(never.on());
    observe(always, 0.0, 100);
    observe(never, 0.9, 100);
    assertTrue(always.on());
    assertFalse(never.on());
  }

  @Test
  void busyCoresAndSingleIdleSpikesLeaveThemOff() {
    EarlySends sends = new EarlySends(EarlyRequests.AUTO);
    assertFalse(sends.on(), "off until the cores are seen idle");
    for (int i = 0; i < 50; i++) {
      observe(sends, 0.02, 3);
      // A second of a busy crawl with a stall in it (a flush, a collection): not a slow web.
      observe(sends, 0.30, 1);
      assertFalse(sends.on());
    }
  }

  @Test
  void idleCoresTurnThemOnForALeaseThatDoublesWhileProbesFindTheCoresIdleAgain() {
    EarlySends sends = new EarlySends(EarlyRequests.AUTO);
    boolean[] first = observe(sends, 0.20, EarlySends.WINDOW);
    assertFalse(first[EarlySends.WINDOW - 2]);
    assertTrue(first[EarlySends.WINDOW - 1], "on once a window of readings is idle");
    long lease = EarlySends.FIRST_LEASE.toNanos() / HALF_SECOND;
    // While on, the idle share (low, as early requests keep the cores busy) changes nothing.
    assertTrue(count(observe(sends, 0.01, (int) lease - 1)) == lease - 1, "on for the whole lease");
    assertFalse(observe(sends, 0.01, 1)[0], "off at the lease's end: a probe");
    // The probe finds the cores idle again, in fewer readings than the first decision: on for twice as long.
    boolean[] probe = observe(sends, 0.20, EarlySends.PROBE_WINDOW);
    assertFalse(probe[EarlySends.PROBE_WINDOW - 2]);
    assertTrue(probe[EarlySends.PROBE_WINDOW - 1], "on again after a probe's readings");
    assertTrue(count(observe(sends, 0.01, (int) (2 * lease) - 1)) == 2 * lease - 1, "on for twice the lease");
    assertFalse(observe(sends, 0.01, 1)[0]);
  }

  @Test
  void aProbeThatFindsTheCoresBusyLeavesThemOffAndTheNextLeaseStartsShort() {
    EarlySends sends = new EarlySends(EarlyRequests.AUTO);
    long lease = EarlySends.FIRST_LEASE.toNanos() / HALF_SECOND;
    for (int round = 0; round < 4; round++) {
      observe(sends, 0.20, round == 0 ? EarlySends.WINDOW : EarlySends.PROBE_WINDOW);
      assertTrue(sends.on());
      observe(sends, 0.01, (int) lease * (1 << round)); // the lease, doubled each confirmed probe
      assertFalse(sends.on(), "round " + round);
    }
    // This probe finds the cores busy without early requests: they stay off.
    assertFalse(count(observe(sends, 0.03, 40)) > 0);
    for (int i = 0; i < EarlySends.WINDOW && !sends.on(); i++) observe(sends, 0.20, 1);
    assertTrue(sends.on());
    assertEquals(lease, onFor(sends, lease), "the first lease's length again");
  }

  @Test
  void theLeaseStopsDoublingAtItsCeiling() {
    EarlySends sends = new EarlySends(EarlyRequests.AUTO);
    long ceiling = EarlySends.MAX_LEASE.toNanos() / HALF_SECOND;
    long onFor = 0;
    for (int round = 0; round < 10; round++) {
      observe(sends, 0.20, round == 0 ? EarlySends.WINDOW : EarlySends.PROBE_WINDOW);
      assertTrue(sends.on());
      onFor = onFor(sends, ceiling);
      assertTrue(onFor <= ceiling, "round " + round + ": on for " + onFor + " readings");
    }
    assertEquals(ceiling, onFor, "the last lease is the ceiling");
  }

  @Test
  void unknownReadingsChangeNothing() {
    EarlySends sends = new EarlySends(EarlyRequests.AUTO);
    observe(sends, 0.20, EarlySends.WINDOW - 1);
    observe(sends, Double.NaN, 10);
    observe(sends, 0.20, 1);
    assertTrue(sends.on(), "the window's readings were kept across readings that could not be made");
  }

  @Test
  void theCoresIdleShareIsReadOnLinux() {
    EarlySends.CpuMeter stat = EarlySends.CpuMeter.open();
    if (!System.getProperty("os.name").startsWith("Linux")) return;
    assertTrue(stat != null, "the CPU load is read");
    double idle = Double.NaN;
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (Double.isNaN(idle) && System.nanoTime() < until) {
      idle = stat.idleSinceLast(); // NaN if the JDK cannot tell yet
      Thread.onSpinWait();
    }
    assertTrue(idle >= 0 && idle <= 1, "an idle share: " + idle);
  }
}
