package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link DeadlineTimer}: no failing action, nor a failure to start its thread, costs a deadline. */
@Timeout(10)
class DeadlineTimerTest {

  @Test
  void anActionThatThrowsAnErrorDoesNotStopLaterDeadlines() throws InterruptedException {
    try (DeadlineTimer timer = new DeadlineTimer()) {
      CountDownLatch thrown = new CountDownLatch(1);
      timer.schedule(0, () -> {
        thrown.countDown();
        throw new OutOfMemoryError("thrown by a test");
      });
      assertTrue(thrown.await(5, TimeUnit.SECONDS));
      CountDownLatch fired = new CountDownLatch(1);
      timer.schedule(TimeUnit.MILLISECONDS.toNanos(10), fired::countDown);

      assertTrue(fired.await(5, TimeUnit.SECONDS), "a later deadline did not fire");
    }
  }

  @Test
  void alarmsSetFromManyThreadsAtOnceAllFireAndCancelledOnesAreRemoved() throws Exception {
    try (DeadlineTimer timer = new DeadlineTimer();
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
      CountDownLatch fired = new CountDownLatch(1_000);
      java.util.concurrent.atomic.AtomicInteger firedCancelled = new java.util.concurrent.atomic.AtomicInteger();
      java.util.concurrent.atomic.AtomicInteger notRemoved = new java.util.concurrent.atomic.AtomicInteger();
      for (int t = 0; t < 100; t++) {
        threads.execute(() -> {
          for (int i = 0; i < 10; i++) {
            timer.schedule(TimeUnit.MILLISECONDS.toNanos(i), fired::countDown);
            // Cancelled an hour before its time: removed from its timer at once, as a finished fetch's.
            if (!timer.schedule(TimeUnit.HOURS.toNanos(1), firedCancelled::incrementAndGet).cancel(false)) {
              notRemoved.incrementAndGet();
            }
          }
        });
      }
      assertTrue(fired.await(5, TimeUnit.SECONDS), "an alarm did not fire");
      org.junit.jupiter.api.Assertions.assertEquals(0, notRemoved.get() + firedCancelled.get());
    }
  }

  @Test
  void deadlineStillFiresWhenNoThreadCanBeStartedForIt() throws InterruptedException {
    try (DeadlineTimer timer = new DeadlineTimer(runnable -> {
      throw new OutOfMemoryError("unable to create native thread (thrown by a test)");
    })) {
      CountDownLatch fired = new CountDownLatch(2);
      timer.schedule(0, fired::countDown);
      timer.schedule(TimeUnit.MILLISECONDS.toNanos(10), fired::countDown);

      assertTrue(fired.await(5, TimeUnit.SECONDS), "a deadline was lost");
    }
  }
}
