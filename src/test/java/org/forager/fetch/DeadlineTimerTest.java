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
