package org.forager.natives;

import com.sun.jna.Memory;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Native buffers of one size, reused: a call into a native library takes one and gives it back. A
 * call does not block, so about one buffer per carrier thread is in use at once; more are made when
 * more threads call at once (carriers the scheduler adds while others are pinned, platform threads).
 * At most {@link #keep} are kept for later calls: one given back past that is freed at once, so that a
 * burst does not hold its native memory for the rest of the run. Thread-safe.
 */
public final class BufferPool {

  private final long bytes;
  private final int keep;
  private final Consumer<Memory> fresh;
  private final ConcurrentLinkedQueue<Memory> kept = new ConcurrentLinkedQueue<>();
  private final AtomicInteger keptCount = new AtomicInteger();

  /**
   * Buffers of {@code bytes}, at most {@code keep} of them kept; {@code fresh} prepares a new one
   * (e.g. zeroes what every caller counts on), once.
   */
  public BufferPool(long bytes, int keep, Consumer<Memory> fresh) {
    if (bytes <= 0 || keep < 0) throw new IllegalArgumentException(bytes + " bytes, " + keep + " kept");
    this.bytes = bytes;
    this.keep = keep;
    this.fresh = fresh;
  }

  /** Buffers of {@code bytes}, as many kept as {@link #keepForCores} says. */
  public BufferPool(long bytes) {
    this(bytes, keepForCores(), buffer -> {});
  }

  /** How many buffers to keep: one per carrier thread, as many again for platform threads and bursts. */
  public static int keepForCores() {
    return 2 * Runtime.getRuntime().availableProcessors() + 2;
  }

  /** A kept buffer, else a new one; its bytes are as the last caller left them, but {@code fresh}'s. */
  public Memory take() {
    Memory buffer = kept.poll();
    if (buffer != null) {
      keptCount.decrementAndGet();
      return buffer;
    }
    buffer = new Memory(bytes);
    fresh.accept(buffer);
    return buffer;
  }

  /** Gives back a buffer {@link #take} gave, no longer used: kept, or freed when enough are. */
  public void give(Memory buffer) {
    if (keptCount.incrementAndGet() > keep) {
      keptCount.decrementAndGet();
      buffer.close();
      return;
    }
    kept.offer(buffer);
  }

  /** The buffers kept now (tests). */
  int kept() {
    return keptCount.get();
  }
}
