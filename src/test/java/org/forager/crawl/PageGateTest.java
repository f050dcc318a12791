package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link PageGate}: how many pages at once, whose first, and that nobody waits for ever. */
@Timeout(20)
class PageGateTest {

  private static final long MAX_WAIT = TimeUnit.SECONDS.toNanos(2);

  /** A clock the test moves: waiters have waited exactly as long as it says. */
  private final AtomicLong now = new AtomicLong();
  private final List<Long> admitted = Collections.synchronizedList(new ArrayList<>());

  private PageGate gate(int permits) {
    return new PageGate(permits, MAX_WAIT, now::get);
  }

  /**
   * Starts a page of an origin at {@code progress} that waits at the gate (the one permit is held),
   * records its admission and gives the permit back at once; returns when it is queued.
   */
  private Thread queue(PageGate gate, long progress) {
    int before = gate.waiting();
    Thread t = Thread.ofVirtual().start(() -> {
      try (PageGate.Pass pass = gate.pass(progress)) {
        pass.enter();
        admitted.add(progress);
      }
    });
    awaitWaiting(gate, before + 1);
    return t;
  }

  private static void awaitWaiting(PageGate gate, int count) {
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (gate.waiting() != count) {
      if (System.nanoTime() - giveUp > 0) throw new AssertionError("waiting: " + gate.waiting() + ", expected " + count);
      Thread.onSpinWait();
    }
  }

  @Test
  void theLeastAdvancedOriginGoesFirst() throws InterruptedException {
    PageGate gate = gate(1);
    PageGate.Pass holder = gate.pass(0);
    holder.enter();
    List<Thread> threads = List.of(queue(gate, 50), queue(gate, 3), queue(gate, 7), queue(gate, 3));

    holder.close();
    for (Thread t : threads) t.join();

    assertEquals(List.of(3L, 3L, 7L, 50L), admitted);
    assertEquals(0, gate.waiting());
  }

  @Test
  void aWaiterPastTheMaxWaitGoesBeforeLessAdvancedOnes() throws InterruptedException {
    PageGate gate = gate(1);
    PageGate.Pass holder = gate.pass(0);
    holder.enter();
    Thread far = queue(gate, 90); // arrives at 0
    now.set(MAX_WAIT);
    Thread near = queue(gate, 1); // arrives at the max wait: it has waited nothing

    holder.close();
    far.join();
    near.join();

    assertEquals(List.of(90L, 1L), admitted);
  }

  @Test
  void beforeTheMaxWaitTheLessAdvancedGoFirst() throws InterruptedException {
    PageGate gate = gate(1);
    PageGate.Pass holder = gate.pass(0);
    holder.enter();
    Thread far = queue(gate, 90);
    now.set(MAX_WAIT - 1);
    Thread near = queue(gate, 1);

    holder.close();
    far.join();
    near.join();

    assertEquals(List.of(1L, 90L), admitted);
  }

  @Test
  void neverMorePagesAtOnceThanPermits() throws InterruptedException {
    PageGate gate = new PageGate(4);
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      long progress = i % 7;
      threads.add(Thread.ofVirtual().start(() -> {
        for (int page = 0; page < 50; page++) {
          try (PageGate.Pass pass = gate.pass(progress + page)) {
            pass.enter();
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            Thread.yield(); // let others try to get in while this one is inside
            inside.decrementAndGet();
          }
        }
        done.incrementAndGet();
      }));
    }
    for (Thread t : threads) t.join();

    assertEquals(200, done.get());
    assertEquals(4, most.get(), "four inside at once at most, and the gate was full at times");
    assertEquals(0, gate.waiting());
  }

  @Test
  void aPassEnteredTwiceHoldsOnePermitAndOneNeverEnteredGivesNoneBack() throws InterruptedException {
    PageGate gate = gate(1);
    try (PageGate.Pass unused = gate.pass(0)) {
      // closed without entering: must not add a permit
    }
    PageGate.Pass pass = gate.pass(0);
    pass.enter();
    pass.enter();
    Thread waiter = queue(gate, 5); // one permit only: the unused pass gave none back

    pass.close();
    pass.close(); // a second close gives nothing back either
    waiter.join();

    assertEquals(List.of(5L), admitted);
    PageGate.Pass again = gate.pass(0);
    again.enter(); // the permit is free again
    Thread another = queue(gate, 6);
    again.close();
    another.join();
    assertEquals(List.of(5L, 6L), admitted);
  }

  @Test
  void anInterruptedWaiterKeepsWaitingAndKeepsItsInterrupt() throws InterruptedException {
    PageGate gate = gate(1);
    PageGate.Pass holder = gate.pass(0);
    holder.enter();
    AtomicBoolean interruptedInside = new AtomicBoolean();
    CountDownLatch inside = new CountDownLatch(1);
    Thread waiter = Thread.ofVirtual().start(() -> {
      try (PageGate.Pass pass = gate.pass(1)) {
        pass.enter();
        interruptedInside.set(Thread.currentThread().isInterrupted());
        inside.countDown();
      }
    });
    awaitWaiting(gate, 1);

    waiter.interrupt();
    assertEquals(1, gate.waiting(), "still waiting for its permit");
    assertEquals(1, inside.getCount());
    holder.close();
    waiter.join();

    assertTrue(interruptedInside.get());
    assertEquals(0, gate.waiting());
  }

  @Test
  void aPassThatLeavesGivesItsPermitToTheNextAndEntersAgainInLine() throws InterruptedException {
    PageGate gate = gate(1);
    PageGate.Pass slow = gate.pass(0);
    slow.enter();
    Thread waiter = queue(gate, 5);

    slow.leave(); // its read waits for the network: the waiting page goes
    waiter.join();
    slow.enter(); // the permit is free again
    slow.close();

    assertEquals(List.of(5L), admitted);
    PageGate.Pass next = gate.pass(0);
    next.enter();
    next.close();
    assertEquals(0, gate.waiting());
  }

  @Test
  void permitsMustBePositive() {
    assertThrows(IllegalArgumentException.class, () -> new PageGate(0));
  }
}
