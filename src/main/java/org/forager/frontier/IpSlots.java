package org.forager.frontier;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Politeness per IP address within one process (DESIGN.md "Politeness": the origin and the resolved
 * address are both units): at most {@code maxInFlight} requests at once to one address, and at least
 * {@code minDelay} from the end of a request to an address to the start of the next one to it.
 *
 * <p>A task that cannot have a slot is never made to wait on its thread: {@link #take} answers when to
 * try again. Waiting because the slots are all taken, the task is remembered (first come, first
 * woken) and woken through the {@link Waker} when a slot comes free, at the time the address's delay
 * allows; the time {@code take} answered ({@code recheck} after now) is only the fallback should a
 * slot be freed elsewhere (another process) or a woken task not take it.
 *
 * <p>Memory: only addresses with a request in flight, a delay still running or tasks waiting are
 * kept; the rest are dropped in sweeps amortised over the calls, so the state is bounded by the
 * requests in flight and the tasks waiting, not by the addresses the crawl has seen.
 *
 * <p>Thread-safe. The waker is called without this object's lock held.
 */
public final class IpSlots {

  /** Brings a waiting task's turn forward (the {@link Scheduler}'s {@link Scheduler#hurry}). */
  @FunctionalInterface
  public interface Waker {
    void wake(OriginTask task, long readyAt);
  }

  /** What {@link #take} answered: a slot to use, or when to ask again. */
  public sealed interface Attempt permits Slot, Wait {}

  /** Not now: ask again at {@code readyAt} ({@link System#nanoTime()}) or when woken. */
  public record Wait(long readyAt) implements Attempt {}

  /** One request's right to an address; {@link #release} it when the request ended. */
  public final class Slot implements Attempt {
    private final InetAddress address;
    private boolean released;

    private Slot(InetAddress address) {
      this.address = address;
    }

    public InetAddress address() {
      return address;
    }

    /**
     * The request ended now (its end starts the address's delay), or none was made ({@code
     * requested} false: the slot is handed back as if never taken). A second call does nothing.
     */
    public void release(boolean requested) {
      if (released) return;
      released = true;
      IpSlots.this.release(address, requested);
    }
  }

  /** Sweeps start when this many addresses are kept, and then at twice what the last one left. */
  private static final int SWEEP_FLOOR = 1024;

  private final int maxInFlight;
  private final long minDelayNanos;
  private final long recheckNanos;
  private final Waker waker;
  private final LongSupplier clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<InetAddress, Address> addresses = new HashMap<>();
  private int sweepAt = SWEEP_FLOOR;

  /** One address's state; under the lock. */
  private static final class Address {
    int inFlight;
    boolean ended;
    long lastEnd;
    final LinkedHashSet<OriginTask> waiting = new LinkedHashSet<>();
  }

  /**
   * @param recheck how long a task that found every slot taken waits at most before it asks again
   *     (should its wake never come)
   */
  public IpSlots(int maxInFlight, Duration minDelay, Duration recheck, Waker waker) {
    this(maxInFlight, minDelay, recheck, waker, System::nanoTime);
  }

  /** With {@code clock} ({@link System#nanoTime()}'s scale): tests move it. */
  IpSlots(int maxInFlight, Duration minDelay, Duration recheck, Waker waker, LongSupplier clock) {
    if (maxInFlight < 1) throw new IllegalArgumentException("maxInFlight must be at least 1");
    if (minDelay.isNegative()) throw new IllegalArgumentException("minDelay must not be negative");
    if (recheck.isNegative() || recheck.isZero()) throw new IllegalArgumentException("recheck must be positive");
    this.maxInFlight = maxInFlight;
    this.minDelayNanos = minDelay.toNanos();
    this.recheckNanos = recheck.toNanos();
    this.waker = waker;
    this.clock = clock;
  }

  /** A slot of {@code address} for {@code task}'s next request, or when to ask again. */
  public Attempt take(InetAddress address, OriginTask task) {
    lock.lock();
    try {
      long now = clock.getAsLong();
      Address a = addresses.computeIfAbsent(address, x -> new Address());
      long allowedAt = a.ended ? a.lastEnd + minDelayNanos : now;
      if (a.inFlight < maxInFlight && allowedAt - now <= 0) {
        a.inFlight++;
        a.waiting.remove(task);
        return new Slot(address);
      }
      if (a.inFlight < maxInFlight) return new Wait(allowedAt); // only the delay: its end is known
      a.waiting.add(task);
      return new Wait(now + recheckNanos);
    } finally {
      lock.unlock();
    }
  }

  /** The addresses kept now (in flight, delay running, tasks waiting, or not yet swept). */
  public int size() {
    lock.lock();
    try {
      return addresses.size();
    } finally {
      lock.unlock();
    }
  }

  private void release(InetAddress address, boolean requested) {
    List<OriginTask> wake = new ArrayList<>();
    long readyAt;
    lock.lock();
    try {
      long now = clock.getAsLong();
      Address a = addresses.get(address);
      if (a == null) return; // cannot happen: an address with a slot taken is never swept
      a.inFlight--;
      if (requested) {
        a.lastEnd = a.ended ? Math.max(a.lastEnd, now) : now;
        a.ended = true;
      }
      readyAt = a.ended ? Math.max(now, a.lastEnd + minDelayNanos) : now;
      // One task per free slot, first come first: waking them all would have every one of thousands of
      // hosts on one address run a turn only to find the slot taken again.
      Iterator<OriginTask> waiting = a.waiting.iterator();
      for (int free = maxInFlight - a.inFlight; free > 0 && waiting.hasNext(); free--) {
        wake.add(waiting.next());
        waiting.remove();
      }
      if (idle(a, now)) addresses.remove(address);
      if (addresses.size() >= sweepAt) sweep(now);
    } finally {
      lock.unlock();
    }
    for (OriginTask task : wake) waker.wake(task, readyAt);
  }

  private boolean idle(Address a, long now) {
    return a.inFlight == 0 && a.waiting.isEmpty() && (!a.ended || a.lastEnd + minDelayNanos - now <= 0);
  }

  private void sweep(long now) {
    addresses.values().removeIf(a -> idle(a, now));
    sweepAt = Math.max(SWEEP_FLOOR, 2 * addresses.size());
  }
}
