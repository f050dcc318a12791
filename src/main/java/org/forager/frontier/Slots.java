package org.forager.frontier;

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
 * Politeness per unit shared by many origins, within one process (DESIGN.md "Politeness": the origin,
 * the resolved IP address and, for the sites that ask it, the domain are units): at most {@code
 * maxInFlight} requests at once to one key (an address, a domain), and at least its delay ({@code
 * minDelay}, or the one {@link #take(Object, OriginTask, long)} gives) from the end of a request to it
 * to the start of the next one.
 *
 * <p>A task that cannot have a slot is never made to wait on its thread: {@link #take} answers when to
 * try again. Waiting because the slots are all taken, the task is remembered (first come, first
 * woken) and woken through the {@link Waker} when a slot comes free, at the time the key's delay
 * allows; the time {@code take} answered ({@code recheck} after now) is only the fallback should a
 * slot be freed elsewhere (another process) or a woken task not take it.
 *
 * <p>Memory: only keys with a request in flight, a delay still running or tasks waiting are
 * kept; the rest are dropped in sweeps amortised over the calls, so the state is bounded by the
 * requests in flight and the tasks waiting, not by the keys the crawl has seen.
 *
 * <p>Thread-safe. The waker is called without this object's lock held.
 */
public final class Slots<K> {

  /** Brings a waiting task's turn forward (the {@link Scheduler}'s {@link Scheduler#hurry}). */
  @FunctionalInterface
  public interface Waker {
    void wake(OriginTask task, long readyAt);
  }

  /** What {@link #take} answered: a slot to use, or when to ask again. */
  public sealed interface Attempt permits Slot, Wait {}

  /** Not now: ask again at {@code readyAt} ({@link System#nanoTime()}) or when woken. */
  public record Wait(long readyAt) implements Attempt {}

  /** One request's right to a key; {@link #release} it when the request ended. */
  public static final class Slot implements Attempt {
    private final Slots<?> owner;
    private final Object key;
    private boolean released;

    private Slot(Slots<?> owner, Object key) {
      this.owner = owner;
      this.key = key;
    }

    /**
     * The request ended now (its end starts the key's delay), or none was made ({@code
     * requested} false: the slot is handed back as if never taken). A second call does nothing.
     */
    public void release(boolean requested) {
      if (released) return;
      released = true;
      owner.release(key, requested);
    }
  }

  /** Sweeps start when this many keys are kept, and then at twice what the last one left. */
  private static final int SWEEP_FLOOR = 1024;

  private final int maxInFlight;
  private final long minDelayNanos;
  private final long recheckNanos;
  private final Waker waker;
  private final LongSupplier clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<K, Key> keys = new HashMap<>();
  private int sweepAt = SWEEP_FLOOR;

  /** One key's state; under the lock. */
  private static final class Key {
    int inFlight;
    boolean ended;
    long lastEnd;
    long minDelayNanos;
    final LinkedHashSet<OriginTask> waiting = new LinkedHashSet<>();
  }

  /**
   * @param recheck how long a task that found every slot taken waits at most before it asks again
   *     (should its wake never come)
   */
  public Slots(int maxInFlight, Duration minDelay, Duration recheck, Waker waker) {
    this(maxInFlight, minDelay, recheck, waker, System::nanoTime);
  }

  /** With {@code clock} ({@link System#nanoTime()}'s scale): tests move it. */
  Slots(int maxInFlight, Duration minDelay, Duration recheck, Waker waker, LongSupplier clock) {
    if (maxInFlight < 1) throw new IllegalArgumentException("maxInFlight must be at least 1");
    if (minDelay.isNegative()) throw new IllegalArgumentException("minDelay must not be negative");
    if (recheck.isNegative() || recheck.isZero()) throw new IllegalArgumentException("recheck must be positive");
    this.maxInFlight = maxInFlight;
    this.minDelayNanos = minDelay.toNanos();
    this.recheckNanos = recheck.toNanos();
    this.waker = waker;
    this.clock = clock;
  }

  /** A slot of {@code key} for {@code task}'s next request, or when to ask again. */
  public Attempt take(K key, OriginTask task) {
    return take(key, task, minDelayNanos);
  }

  /**
   * Like {@link #take(Object, OriginTask)}, the key's delay {@code minDelayNanos} (the latest given
   * holds): a domain's own, say.
   */
  public Attempt take(K key, OriginTask task, long minDelayNanos) {
    lock.lock();
    try {
      long now = clock.getAsLong();
      Key k = keys.computeIfAbsent(key, x -> new Key());
      k.minDelayNanos = minDelayNanos;
      long allowedAt = k.ended ? k.lastEnd + minDelayNanos : now;
      if (k.inFlight < maxInFlight && allowedAt - now <= 0) {
        k.inFlight++;
        k.waiting.remove(task);
        return new Slot(this, key);
      }
      if (k.inFlight < maxInFlight) return new Wait(allowedAt); // only the delay: its end is known
      k.waiting.add(task);
      return new Wait(now + recheckNanos);
    } finally {
      lock.unlock();
    }
  }

  /** The keys kept now (in flight, delay running, tasks waiting, or not yet swept). */
  public int size() {
    lock.lock();
    try {
      return keys.size();
    } finally {
      lock.unlock();
    }
  }

  private void release(Object key, boolean requested) {
    List<OriginTask> wake = new ArrayList<>();
    long readyAt;
    lock.lock();
    try {
      long now = clock.getAsLong();
      Key k = keys.get(key);
      if (k == null) return; // cannot happen: a key with a slot taken is never swept
      k.inFlight--;
      if (requested) {
        k.lastEnd = k.ended ? Math.max(k.lastEnd, now) : now;
        k.ended = true;
      }
      readyAt = wakeOnePerFreeSlot(k, now, wake);
      if (idle(k, now)) keys.remove(key);
      if (keys.size() >= sweepAt) sweep(now);
    } finally {
      lock.unlock();
    }
    for (OriginTask task : wake) waker.wake(task, readyAt);
  }

  /**
   * A task that may have been woken for a free slot of {@code key} does not take it now (another unit
   * it needs, its domain, is busy): the wake goes on to the next tasks waiting, one per free slot, as
   * the release would have, else they would wait for their recheck while the slot stays free.
   */
  public void passOn(K key) {
    List<OriginTask> wake = new ArrayList<>();
    long readyAt;
    lock.lock();
    try {
      Key k = keys.get(key);
      if (k == null || k.waiting.isEmpty()) return;
      readyAt = wakeOnePerFreeSlot(k, clock.getAsLong(), wake);
    } finally {
      lock.unlock();
    }
    for (OriginTask task : wake) waker.wake(task, readyAt);
  }

  /**
   * Moves the first waiting tasks, one per free slot, to {@code wake}; returns when they may request.
   * Under the lock.
   */
  private long wakeOnePerFreeSlot(Key k, long now, List<OriginTask> wake) {
    // One task per free slot, first come first: waking them all would have every one of thousands of
    // hosts on one address run a turn only to find the slot taken again.
    Iterator<OriginTask> waiting = k.waiting.iterator();
    for (int free = maxInFlight - k.inFlight; free > 0 && waiting.hasNext(); free--) {
      wake.add(waiting.next());
      waiting.remove();
    }
    return k.ended ? Math.max(now, k.lastEnd + k.minDelayNanos) : now;
  }

  private static boolean idle(Key k, long now) {
    return k.inFlight == 0 && k.waiting.isEmpty() && (!k.ended || k.lastEnd + k.minDelayNanos - now <= 0);
  }

  private void sweep(long now) {
    keys.values().removeIf(k -> idle(k, now));
    sweepAt = Math.max(SWEEP_FLOOR, 2 * keys.size());
  }
}
