package org.forager.natives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Memory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BufferPoolTest {

  @Test
  void aBufferGivenBackIsTakenAgainAsTheCallerLeftIt() {
    AtomicInteger made = new AtomicInteger();
    BufferPool pool = new BufferPool(64, 2, buffer -> {
      made.incrementAndGet();
      buffer.clear();
    });
    Memory first = pool.take();
    assertEquals(64, first.size());
    assertEquals(0L, first.getLong(0), "prepared by fresh");
    first.setLong(0, 42);
    pool.give(first);
    Memory again = pool.take();
    assertSame(first, again);
    assertEquals(42L, again.getLong(0), "not prepared again");
    assertEquals(1, made.get());
  }

  @Test
  void aBurstOfCallersLeavesNoMoreThanKeepBuffersKeptAndFreesTheRest() {
    BufferPool pool = new BufferPool(1024, 3, buffer -> {});
    List<Memory> taken = new ArrayList<>();
    for (int k = 0; k < 10; k++) taken.add(pool.take());
    for (Memory buffer : taken) pool.give(buffer);
    assertEquals(3, pool.kept());
    for (int k = 0; k < 3; k++) assertTrue(taken.get(k).valid(), "kept: " + k);
    for (int k = 3; k < 10; k++) assertFalse(taken.get(k).valid(), "freed at once: " + k);
    // The kept ones serve the next calls; a fourth at once is new.
    List<Memory> next = List.of(pool.take(), pool.take(), pool.take(), pool.take());
    assertEquals(0, pool.kept());
    assertTrue(taken.subList(0, 3).containsAll(next.subList(0, 3)));
    assertFalse(taken.contains(next.get(3)));
  }

  @Test
  void manyThreadsTakingAndGivingAtOnceKeepTheBound() throws InterruptedException {
    BufferPool pool = new BufferPool(256, 4, buffer -> {});
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 16; t++) {
      int id = t;
      threads.add(Thread.ofPlatform().start(() -> {
        for (int k = 0; k < 2_000; k++) {
          Memory buffer = pool.take();
          buffer.setInt(0, id); // each buffer used by one caller at a time
          Thread.onSpinWait();
          if (buffer.getInt(0) != id) throw new AssertionError("a buffer shared by two callers");
          pool.give(buffer);
        }
      }));
    }
    for (Thread thread : threads) thread.join();
    assertTrue(pool.kept() <= 4, "kept " + pool.kept());
  }

  @Test
  void aPoolOfNoBytesIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new BufferPool(0, 1, buffer -> {}));
    assertThrows(IllegalArgumentException.class, () -> new BufferPool(8, -1, buffer -> {}));
  }
}
