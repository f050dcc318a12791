package org.forager.frontier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Scheduler#add}: tasks added to a running schedule, as a fleet process claims origins. */
@Timeout(30)
class SchedulerAddTest {

  /** Finishes every turn; counts them and opens a latch per turn. */
  private static final class Counting implements OriginTask {
    final AtomicInteger turns = new AtomicInteger();
    final CountDownLatch[] reached;
    final java.util.concurrent.Semaphore started = new java.util.concurrent.Semaphore(0);
    volatile CountDownLatch holdTurn = new CountDownLatch(0);

    Counting(int expected) {
      reached = new CountDownLatch[expected + 1];
      for (int i = 0; i <= expected; i++) reached[i] = new CountDownLatch(1);
    }

    @Override
    public OptionalLong turn() {
      started.release();
      try {
        holdTurn.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      int n = turns.incrementAndGet();
      if (n < reached.length) reached[n].countDown();
      return OptionalLong.empty();
    }
  }

  @Test
  void anAddedTaskRunsAndAParkedOneAddedAgainRunsAgainWhileTheScheduleWaitsUntilStopped() throws Exception {
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      Scheduler scheduler = new Scheduler(2, executor, () -> false, (t, e) -> {}, true);
      Thread runner = Thread.ofPlatform().start(() -> {
        try {
          scheduler.run(List.of());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      Counting task = new Counting(4);
      scheduler.add(task, System.nanoTime());
      assertTrue(task.reached[1].await(10, TimeUnit.SECONDS));
      scheduler.add(task, System.nanoTime()); // parked after its turn: comes back
      assertTrue(task.reached[2].await(10, TimeUnit.SECONDS));

      // Added while its turn runs: comes back after the turn although the turn returns finished.
      CountDownLatch hold = new CountDownLatch(1);
      task.holdTurn = hold;
      task.started.drainPermits();
      scheduler.add(task, System.nanoTime());
      assertTrue(task.started.tryAcquire(10, TimeUnit.SECONDS)); // turn 3 runs, held
      scheduler.add(task, System.nanoTime());
      task.holdTurn = new CountDownLatch(0);
      hold.countDown();
      assertTrue(task.reached[3].await(10, TimeUnit.SECONDS));
      assertTrue(task.reached[4].await(10, TimeUnit.SECONDS), "added during its turn: another turn");

      scheduler.stop();
      runner.join(10_000);
      assertEquals(false, runner.isAlive());
      assertEquals(4, task.turns.get());
    }
  }
}
