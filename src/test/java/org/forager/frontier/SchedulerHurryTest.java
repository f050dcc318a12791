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

/** {@link Scheduler#hurry}: a task waiting for a later turn is brought forward (an IP slot came free). */
@Timeout(30)
class SchedulerHurryTest {

  private static final long AN_HOUR = TimeUnit.HOURS.toNanos(1);

  /** Its first turn asks to come back in an hour; the second finishes. */
  private static final class ComeBackLater implements OriginTask {
    final AtomicInteger turns = new AtomicInteger();
    final CountDownLatch first = new CountDownLatch(1);
    final CountDownLatch second = new CountDownLatch(1);
    volatile CountDownLatch holdFirstTurn = new CountDownLatch(0);

    @Override
    public OptionalLong turn() {
      if (turns.incrementAndGet() == 1) {
        first.countDown();
        try {
          holdFirstTurn.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return OptionalLong.of(System.nanoTime() + AN_HOUR);
      }
      second.countDown();
      return OptionalLong.empty();
    }
  }

  /** The scheduler running {@code task} on a thread of its own. */
  private static Thread running(Scheduler scheduler, OriginTask task) {
    return Thread.ofPlatform().start(() -> {
      try {
        scheduler.run(List.of(task));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
  }

  @Test
  void aWaitingTaskHurriedRunsAtOnceAndOnlyOnce() throws Exception {
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      Scheduler scheduler = new Scheduler(2, executor, () -> false, (t, e) -> {});
      ComeBackLater task = new ComeBackLater();
      Thread runner = running(scheduler, task);
      assertTrue(task.first.await(10, TimeUnit.SECONDS));
      // Waiting an hour once its turn is back in line: hurried, it runs now.
      while (scheduler.activeOrigins() != 1 || task.turns.get() != 1) Thread.onSpinWait();
      scheduler.hurry(task, System.nanoTime() + AN_HOUR * 2); // later than it waits for: nothing
      scheduler.hurry(task, System.nanoTime());
      assertTrue(task.second.await(10, TimeUnit.SECONDS));
      runner.join(10_000);
      assertEquals(2, task.turns.get(), "the entry it replaced does not run it again");
      assertEquals(0, scheduler.activeOrigins());
    }
  }

  /** While every task waits and none runs, the scheduler says how long until the next turn (the progress line). */
  @Test
  void idleForSaysHowLongUntilTheNextTurnWhileEveryTaskWaits() throws Exception {
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      Scheduler scheduler = new Scheduler(2, executor, () -> false, (t, e) -> {});
      ComeBackLater task = new ComeBackLater();
      task.holdFirstTurn = new CountDownLatch(1);
      Thread runner = running(scheduler, task);
      assertTrue(task.first.await(10, TimeUnit.SECONDS));
      assertEquals(OptionalLong.empty(), scheduler.idleForNanos(), "a turn runs");
      task.holdFirstTurn.countDown();
      while (scheduler.activeOrigins() != 1 || scheduler.idleForNanos().isEmpty()) Thread.onSpinWait();
      long idle = scheduler.idleForNanos().getAsLong();
      assertTrue(idle > AN_HOUR - TimeUnit.MINUTES.toNanos(1) && idle <= AN_HOUR, "about an hour: " + idle);
      scheduler.hurry(task, System.nanoTime());
      assertTrue(task.second.await(10, TimeUnit.SECONDS));
      runner.join(10_000);
      assertEquals(OptionalLong.empty(), scheduler.idleForNanos(), "none waits");
    }
  }

  @Test
  void aTaskHurriedWhileItsTurnRunsComesBackThenRatherThanAtTheTimeItAsked() throws Exception {
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      Scheduler scheduler = new Scheduler(2, executor, () -> false, (t, e) -> {});
      ComeBackLater task = new ComeBackLater();
      task.holdFirstTurn = new CountDownLatch(1);
      Thread runner = running(scheduler, task);
      assertTrue(task.first.await(10, TimeUnit.SECONDS));
      scheduler.hurry(task, System.nanoTime()); // the slot came free before the turn returned
      task.holdFirstTurn.countDown();
      assertTrue(task.second.await(10, TimeUnit.SECONDS));
      runner.join(10_000);
      assertEquals(2, task.turns.get());
    }
  }
}
