package org.forager.frontier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Priority across origins: among tasks whose time has come, the one holding the best work goes
 * first. Every schedule here has concurrency 1 and one executor thread, so the order of turns is
 * the scheduler's choice alone; times are an hour in the past or future, far from any race.
 */
@Timeout(30)
class SchedulerPriorityTest {

  private static final long HOUR = TimeUnit.HOURS.toNanos(1);

  private final ExecutorService executor = Executors.newSingleThreadExecutor();
  private final List<String> order = Collections.synchronizedList(new ArrayList<>());

  @AfterEach
  void shutDown() throws InterruptedException {
    Scheduler.shutdown(executor);
  }

  /** Records its name each turn, runs the given action, then is ready again at once until its turns are used. */
  private final class Task implements OriginTask {
    final String name;
    volatile double priority;
    volatile boolean priorityFails;
    int turnsLeft;
    Consumer<Task> duringTurn = t -> {};

    Task(String name, double priority, int turns) {
      this.name = name;
      this.priority = priority;
      this.turnsLeft = turns;
    }

    @Override
    public OptionalLong turn() {
      order.add(name);
      duringTurn.accept(this);
      return --turnsLeft > 0 ? OptionalLong.of(System.nanoTime()) : OptionalLong.empty();
    }

    @Override
    public double priority() {
      if (priorityFails) throw new IllegalStateException("no priority");
      return priority;
    }
  }

  private Scheduler scheduler() {
    return new Scheduler(1, executor, () -> false, (t, e) -> {});
  }

  @Test
  void tasksReadyAtOnceRunHighestPriorityFirstAndEqualOnesInTheirOrder() throws Exception {
    scheduler().run(List.of(new Task("low", 0.2, 1), new Task("best", 0.9, 1), new Task("mid", 0.5, 1),
        new Task("mid-too", 0.5, 1), new Task("good", 0.7, 1)));

    assertEquals(List.of("best", "good", "mid", "mid-too", "low"), order);
  }

  @Test
  void aHigherPriorityReadyLaterGoesBeforeALowerOneReadySooner() throws Exception {
    Scheduler scheduler = scheduler();
    long now = System.nanoTime();
    scheduler.add(new Task("low, ready two hours ago", 0.1, 1), now - 2 * HOUR);
    scheduler.add(new Task("high, ready an hour ago", 0.9, 1), now - HOUR);

    scheduler.run(List.of());

    assertEquals(List.of("high, ready an hour ago", "low, ready two hours ago"), order);
  }

  @Test
  void aHigherPriorityTaskNotYetReadyDoesNotHoldBackAReadyLowerOne() throws Exception {
    // The run stops once the low task had its turn; the high one, due in an hour, never runs.
    Scheduler scheduler = new Scheduler(1, executor, () -> order.size() >= 1, (t, e) -> {});
    long now = System.nanoTime();
    scheduler.add(new Task("high, ready in an hour", 1.0, 1), now + HOUR);
    scheduler.add(new Task("low, ready now", 0.0, 1), now);

    scheduler.run(List.of());

    assertEquals(List.of("low, ready now"), order);
    assertEquals(1, scheduler.activeOrigins(), "the high task still waits for its time");
  }

  @Test
  void aPriorityThatDropsAfterATurnIsReadWhenTheTaskIsPutBack() throws Exception {
    Task falling = new Task("falling", 0.9, 2);
    falling.duringTurn = t -> t.priority = 0.1; // its best work was taken this turn
    Task steady = new Task("steady", 0.5, 2);

    scheduler().run(List.of(falling, steady));

    // Read once at the start, "falling" would keep 0.9 and take both turns first; ordered by time
    // alone the two would alternate.
    assertEquals(List.of("falling", "steady", "steady", "falling"), order);
  }

  @Test
  void aParkedTaskWokenComesBackWithThePriorityItHoldsThen() throws Exception {
    Scheduler scheduler = scheduler();
    Task parked = new Task("parked", 0.9, 1);
    Task steady = new Task("steady", 0.5, 3);
    steady.duringTurn = t -> {
      if (t.turnsLeft == 3) {
        parked.priority = 0.1; // new work for it, but worth little
        parked.turnsLeft = 1;
        scheduler.wake(parked);
      }
    };

    scheduler.run(List.of(parked, steady));

    // Ordered by time alone, the woken task would go before the steady task's second turn.
    assertEquals(List.of("parked", "steady", "steady", "steady", "parked"), order);
  }

  @Test
  void aWakeDuringATurnThatNamesItsNextTimeGivesNoExtraTurnLater() throws Exception {
    // Broke: the wake was kept after the turn came back with a next time, and brought the task back
    // once more after a later turn that returned finished.
    Scheduler scheduler = scheduler();
    Task task = new Task("task", 0, 2);
    task.duringTurn = t -> {
      if (t.turnsLeft == 2) scheduler.wake(t);
    };

    scheduler.run(List.of(task));

    assertEquals(List.of("task", "task"), order);
  }

  @Test
  void aPriorityThatThrowsAfterATurnCountsAsAFailedTurnAndTheTaskIsDropped() throws Exception {
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    Task broken = new Task("broken", 0, 3);
    broken.duringTurn = t -> t.priorityFails = true;

    new Scheduler(1, executor, () -> false, (t, e) -> failures.add(e)).run(List.of(broken));

    assertEquals(List.of("broken"), order);
    assertEquals(1, failures.size());
    assertInstanceOf(IllegalStateException.class, failures.get(0));
  }

  @Test
  void aWakeWhosePriorityThrowsLeavesTheTaskParkedForTheNextWake() throws Exception {
    Scheduler scheduler = scheduler();
    Task parked = new Task("parked", 0.9, 1);
    Task waker = new Task("waker", 0.5, 1);
    List<Throwable> thrown = new ArrayList<>();
    waker.duringTurn = t -> {
      parked.turnsLeft = 1;
      parked.priorityFails = true;
      try {
        scheduler.wake(parked);
      } catch (IllegalStateException e) {
        thrown.add(e);
      }
      parked.priorityFails = false;
      scheduler.wake(parked);
    };

    scheduler.run(List.of(parked, waker));

    assertEquals(1, thrown.size());
    assertEquals(List.of("parked", "waker", "parked"), order);
  }
}
