package org.forager.frontier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A turn whose task is due again at once goes on with its next turn on the same thread, keeping its
 * slot, only when the dispatcher would have started it at once: no other task is ready while every
 * slot is taken, and the run is not stopping or paused.
 */
@Timeout(30)
class SchedulerGoOnTest {

  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final List<String> order = Collections.synchronizedList(new ArrayList<>());

  @AfterEach
  void shutDown() throws InterruptedException {
    Scheduler.shutdown(executor);
  }

  /** Records its name and thread each turn, runs the given action, then is ready again at once until its turns are used. */
  private final class Task implements OriginTask {
    final String name;
    final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    int turnsLeft;
    Consumer<Task> duringTurn = t -> {};

    Task(String name, int turns) {
      this.name = name;
      this.turnsLeft = turns;
    }

    @Override
    public OptionalLong turn() {
      order.add(name);
      threads.add(Thread.currentThread());
      duringTurn.accept(this);
      return --turnsLeft > 0 ? OptionalLong.of(System.nanoTime()) : OptionalLong.empty();
    }

    @Override
    public double priority() {
      return 0.5;
    }
  }

  @Test
  void aTaskDueAgainAtOnceWithASlotFreeGoesOnOnTheSameThread() throws Exception {
    Task a = new Task("a", 5);
    Task b = new Task("b", 5);

    new Scheduler(2, executor, () -> false, (t, e) -> {}).run(List.of(a, b));

    assertEquals(10, order.size());
    assertEquals(1, a.threads.size(), "a's five turns on one thread");
    assertEquals(1, b.threads.size(), "b's five turns on one thread");
  }

  @Test
  void withEverySlotTakenAReadyTaskGoesFirst() throws Exception {
    Task a = new Task("a", 2);
    Task b = new Task("b", 2);

    new Scheduler(1, executor, () -> false, (t, e) -> {}).run(List.of(a, b));

    assertEquals(List.of("a", "b", "a", "b"), order, "a went back in line behind b");
  }

  @Test
  void aStopDuringTheTurnEndsTheTasksTurns() throws Exception {
    Task a = new Task("a", 5);

    new Scheduler(2, executor, () -> order.size() >= 2, (t, e) -> {}).run(List.of(a));

    assertEquals(List.of("a", "a"), order);
  }

  @Test
  void aPauseDuringTheTurnHoldsTheNextOne() throws Exception {
    Scheduler scheduler = new Scheduler(2, executor, () -> false, (t, e) -> {});
    Task a = new Task("a", 3);
    a.duringTurn = t -> {
      if (t.turnsLeft == 3) scheduler.pause(true); // the first turn pauses the run
    };
    Thread run = Thread.ofVirtual().start(() -> {
      try {
        scheduler.run(List.of(a));
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    });
    // Paused, the run cannot end: it waits with a's next turn in line.
    long giveUp = System.nanoTime() + 10_000_000_000L;
    while (scheduler.activeOrigins() != 1 || scheduler.turnsInFlight() != 0) {
      if (System.nanoTime() - giveUp > 0) throw new AssertionError("a never went back in line");
      Thread.onSpinWait();
    }
    assertEquals(List.of("a"), order);

    scheduler.pause(false);
    run.join();

    assertEquals(List.of("a", "a", "a"), order);
  }
}
