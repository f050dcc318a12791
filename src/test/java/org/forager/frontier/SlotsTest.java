package org.forager.frontier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link Slots} keyed by address: slots per address, the delay between requests to one address, who is woken. */
class SlotsTest {

  private static final Duration RECHECK = Duration.ofSeconds(30);
  private static final InetAddress A = address(10, 0, 0, 1);
  private static final InetAddress B = address(10, 0, 0, 2);

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final List<String> woken = new ArrayList<>();

  private record Task(String name) implements OriginTask {
    @Override
    public OptionalLong turn() {
      return OptionalLong.empty();
    }
  }

  private Slots<InetAddress> slots(int maxInFlight, Duration minDelay) {
    return new Slots<>(maxInFlight, minDelay, RECHECK,
        (task, readyAt) -> woken.add(((Task) task).name() + "@" + (readyAt - clock.get()) / 1_000_000), clock::get);
  }

  @Test
  void oneInFlightPerAddressAndOtherAddressesFree() {
    Slots<InetAddress> slots = slots(1, Duration.ZERO);
    Slots.Slot first = assertInstanceOf(Slots.Slot.class, slots.take(A, new Task("x")));
    Slots.Wait wait = assertInstanceOf(Slots.Wait.class, slots.take(A, new Task("y")));
    assertEquals(clock.get() + RECHECK.toNanos(), wait.readyAt(), "the recheck is only the fallback");
    assertInstanceOf(Slots.Slot.class, slots.take(B, new Task("z")));
    first.release(true);
    assertEquals(List.of("y@0"), woken, "the waiting task is woken as the slot comes free");
    assertInstanceOf(Slots.Slot.class, slots.take(A, new Task("y")));
  }

  @Test
  void theDelayCountsFromTheEndOfTheLastRequestToTheAddress() {
    Slots<InetAddress> slots = slots(1, Duration.ofMillis(200));
    Slots.Slot first = (Slots.Slot) slots.take(A, new Task("x"));
    slots.take(A, new Task("y"));
    clock.addAndGet(50_000_000L);
    first.release(true);
    assertEquals(List.of("y@200"), woken, "woken for the time the delay ends");
    clock.addAndGet(150_000_000L);
    Slots.Wait wait = assertInstanceOf(Slots.Wait.class, slots.take(A, new Task("y")));
    assertEquals(clock.get() + 50_000_000L, wait.readyAt(), "the delay's end, exactly: no slot is taken");
    clock.addAndGet(50_000_000L);
    assertInstanceOf(Slots.Slot.class, slots.take(A, new Task("y")));
  }

  @Test
  void aSlotHandedBackUnusedStartsNoDelay() {
    Slots<InetAddress> slots = slots(1, Duration.ofSeconds(5));
    ((Slots.Slot) slots.take(A, new Task("x"))).release(false);
    assertInstanceOf(Slots.Slot.class, slots.take(A, new Task("y")));
  }

  @Test
  void maxInFlightTwoAllowsTwoAndWakesOneWaiterPerFreeSlotInTheOrderTheyCame() {
    Slots<InetAddress> slots = slots(2, Duration.ZERO);
    Slots.Slot one = (Slots.Slot) slots.take(A, new Task("a"));
    Slots.Slot two = assertInstanceOf(Slots.Slot.class, slots.take(A, new Task("b")));
    slots.take(A, new Task("c"));
    slots.take(A, new Task("d"));
    slots.take(A, new Task("c")); // asking again does not queue twice
    one.release(true);
    assertEquals(List.of("c@0"), woken);
    two.release(true);
    assertEquals(List.of("c@0", "d@0"), woken);
  }

  /**
   * A task woken for a free slot that does not take it (its domain's slot is busy) passes the wake on to
   * the next one waiting; with no slot free, or none waiting, passing on wakes nobody.
   */
  @Test
  void aWakeNotTakenIsPassedOnToTheNextWaiting() {
    Slots<InetAddress> slots = slots(1, Duration.ofMillis(100));
    Slots.Slot held = (Slots.Slot) slots.take(A, new Task("x"));
    slots.take(A, new Task("y"));
    slots.take(A, new Task("z"));
    slots.passOn(A);
    assertEquals(List.of(), woken, "no slot free: nobody woken");
    held.release(true);
    assertEquals(List.of("y@100"), woken);
    slots.passOn(A); // y's domain is busy: it will not come for the slot
    assertEquals(List.of("y@100", "z@100"), woken, "the next one waiting, for when the delay ends");
    slots.passOn(A);
    assertEquals(List.of("y@100", "z@100"), woken, "nobody left waiting");
  }

  @Test
  void releasingTwiceFreesOneSlot() {
    Slots<InetAddress> slots = slots(1, Duration.ZERO);
    Slots.Slot slot = (Slots.Slot) slots.take(A, new Task("a"));
    slot.release(true);
    Slots.Slot again = (Slots.Slot) slots.take(A, new Task("b"));
    slot.release(true);
    assertInstanceOf(Slots.Wait.class, slots.take(A, new Task("c")), "b's slot is still taken");
    again.release(true);
  }

  @Test
  void idleAddressesAreNotKept() {
    Slots<InetAddress> slots = slots(1, Duration.ofMillis(10));
    for (int i = 0; i < 100_000; i++) {
      InetAddress ip = address(10, (i >> 16) & 255, (i >> 8) & 255, i & 255);
      ((Slots.Slot) slots.take(ip, new Task("t"))).release(true);
      clock.addAndGet(1_000L);
    }
    // 10 ms of delay at one request a microsecond: about 10,000 addresses still owed their delay.
    assertTrue(slots.size() <= 2 * 10_000 + 1024, "kept " + slots.size());
    clock.addAndGet(20_000_000L);
    ((Slots.Slot) slots.take(A, new Task("t"))).release(false);
    assertTrue(slots.size() <= 2 * 10_000 + 1024, "kept " + slots.size());
  }

  private static InetAddress address(int a, int b, int c, int d) {
    try {
      return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
    } catch (java.net.UnknownHostException e) {
      throw new AssertionError(e);
    }
  }
}
