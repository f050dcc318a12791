package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link FetchSweeper} driven sweep by sweep (its own thread waits an hour between sweeps here):
 * each fetch is aborted once, at its time, never after it finished, whatever its abort does.
 */
@Timeout(10)
class FetchSweeperTest {

  private static final long HOUR = TimeUnit.HOURS.toNanos(1);

  @Test
  void aFetchIsAbortedOnceAtItsSweepTimeAndAFinishedOneNever() throws InterruptedException {
    AtomicInteger abortsStarted = new AtomicInteger();
    CountDownLatch aborted = new CountDownLatch(1);
    AtomicInteger finishedAborted = new AtomicInteger();
    try (FetchSweeper sweeper = new FetchSweeper(HOUR, runnable -> {
      abortsStarted.incrementAndGet();
      return Thread.ofVirtual().unstarted(runnable);
    })) {
      long t0 = System.nanoTime();
      FetchSweeper.Entry running = sweeper.register(t0 + 100, aborted::countDown);
      FetchSweeper.Entry finished = sweeper.register(t0 + 100, finishedAborted::incrementAndGet);
      finished.close();

      sweeper.sweep(t0 + 99);
      assertEquals(0, abortsStarted.get());
      assertEquals(1, sweeper.inFlight());
      sweeper.sweep(t0 + 100);
      sweeper.sweep(t0 + 200);
      running.close(); // the fetch returns after its abort: nothing left either way

      assertEquals(1, abortsStarted.get());
      assertEquals(0, sweeper.inFlight());
      assertTrue(aborted.await(5, TimeUnit.SECONDS), "the abort never ran");
      assertEquals(0, finishedAborted.get());
    }
  }

  @Test
  void anAbortStillRunsWhenNoThreadCanBeStartedForIt() {
    AtomicInteger aborted = new AtomicInteger();
    try (FetchSweeper sweeper = new FetchSweeper(HOUR, runnable -> {
      throw new OutOfMemoryError("unable to create native thread (thrown by a test)");
    })) {
      long t0 = System.nanoTime();
      sweeper.register(t0, () -> {
        aborted.incrementAndGet();
        throw new IllegalStateException("thrown by a test");
      });
      sweeper.register(t0, aborted::incrementAndGet);

      sweeper.sweep(t0);

      assertEquals(2, aborted.get()); // both ran on the sweeping thread, the throw logged
      assertEquals(0, sweeper.inFlight());
    }
  }

  @Test
  void shortTimeoutsAreSweptAtAQuarterOfThemAndLongOnesEverySecond() {
    assertEquals(TimeUnit.MILLISECONDS.toNanos(250), FetchSweeper.periodFor(TimeUnit.SECONDS.toNanos(1)));
    assertEquals(FetchSweeper.MAX_PERIOD_NANOS, FetchSweeper.periodFor(TimeUnit.SECONDS.toNanos(30)));
    assertEquals(FetchSweeper.MIN_PERIOD_NANOS, FetchSweeper.periodFor(TimeUnit.MILLISECONDS.toNanos(1)));
  }
}
