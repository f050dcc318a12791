package org.forager.frontier;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.BiConsumer;

/**
 * Runs origin tasks turn by turn: a min-heap of tasks by the time each may next run; a task is out of
 * the heap while its turn runs, so no origin ever has two turns (and so two requests) in flight.
 * Up to {@code concurrency} turns of different origins run at once on the executor.
 *
 * <p>A task that returned finished is parked: {@link #wake} brings it back. {@link #run} blocks
 * until every task finished, or the stop condition holds (then it waits
 * for the turns in flight and returns). {@link #stop} may be called from any thread.
 */
public final class Scheduler {

  private record Entry(long readyAt, long seq, OriginTask task) {}

  private final int concurrency;
  private final ExecutorService executor;
  private final BooleanSupplier stopWhen;
  private final BiConsumer<OriginTask, Throwable> onFailure;
  private final boolean untilStopped;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final PriorityQueue<Entry> heap = new PriorityQueue<>(
      (a, b) -> a.readyAt != b.readyAt ? Long.compare(a.readyAt, b.readyAt) : Long.compare(a.seq, b.seq));
  /** The tasks in {@link #heap}: whether one waits for its turn, without scanning the heap. */
  private final Set<OriginTask> waiting = new HashSet<>();
  private final Set<OriginTask> running = new HashSet<>();
  private final Set<OriginTask> parked = new HashSet<>();
  /** Tasks told to come back while their turn ran, with the time they may run again. */
  private final Map<OriginTask, Long> woken = new HashMap<>();
  private long seq;
  private int inFlight;
  private boolean stopRequested;

  /**
   * @param stopWhen checked before each dispatch: when true, no further turn starts
   * @param onFailure told of a turn that threw (an {@link Error} is rethrown after); that task is
   *     dropped for the run
   */
  public Scheduler(int concurrency, ExecutorService executor, BooleanSupplier stopWhen,
      BiConsumer<OriginTask, Throwable> onFailure) {
    this(concurrency, executor, stopWhen, onFailure, false);
  }

  /**
   * @param untilStopped keep running when every task is parked (continuous crawling: parked tasks
   *     are woken when work comes due); only {@link #stop} or {@code stopWhen} end the run
   */
  public Scheduler(int concurrency, ExecutorService executor, BooleanSupplier stopWhen,
      BiConsumer<OriginTask, Throwable> onFailure, boolean untilStopped) {
    if (concurrency < 1) throw new IllegalArgumentException("concurrency must be at least 1");
    this.concurrency = concurrency;
    this.executor = executor;
    this.stopWhen = stopWhen;
    this.onFailure = onFailure;
    this.untilStopped = untilStopped;
  }

  /** Runs the tasks, all ready at once, until they are finished or the crawl is stopped. */
  public void run(Collection<? extends OriginTask> tasks) throws InterruptedException {
    long now = System.nanoTime();
    lock.lock();
    try {
      for (OriginTask task : tasks) push(now, task);
    } finally {
      lock.unlock();
    }
    while (true) {
      OriginTask next;
      lock.lock();
      try {
        next = awaitNext();
        if (next == null) return;
        inFlight++;
        running.add(next);
      } finally {
        lock.unlock();
      }
      executor.execute(() -> runTurn(next));
    }
  }

  /** Asks the run to end: no new turn starts; turns in flight finish. */
  public void stop() {
    lock.lock();
    try {
      stopRequested = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Tells a task that it may have new work (e.g. candidates found by another origin): a finished task
   * gets a turn again; one whose turn is running gets another turn even if it returns finished.
   * A task waiting for its turn needs nothing.
   */
  public void wake(OriginTask task) {
    lock.lock();
    try {
      if (parked.remove(task)) {
        push(System.nanoTime(), task);
        changed.signalAll();
      } else if (running.contains(task)) {
        woken.merge(task, System.nanoTime(), Math::min);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds a task to a running schedule, first ready at {@code readyAt} ({@link System#nanoTime()}),
   * e.g. an origin a fleet process just claimed. A task already waiting for its turn is left as it is;
   * a parked one comes back at that time; one whose turn is running comes back then even if it
   * returns finished.
   */
  public void add(OriginTask task, long readyAt) {
    lock.lock();
    try {
      if (running.contains(task)) {
        woken.merge(task, readyAt, Math::min);
        return;
      }
      if (waiting.contains(task)) return;
      parked.remove(task);
      push(readyAt, task);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Number of tasks waiting for their next turn plus those in flight. */
  public int activeOrigins() {
    lock.lock();
    try {
      return heap.size() + inFlight;
    } finally {
      lock.unlock();
    }
  }

  // Called with the lock held. Returns null when the run is over and nothing is in flight.
  private OriginTask awaitNext() throws InterruptedException {
    while (true) {
      boolean stopping = stopRequested || stopWhen.getAsBoolean();
      if (stopping || heap.isEmpty()) {
        if (inFlight == 0 && (stopping || !untilStopped)) return null;
        changed.await();
        continue;
      }
      if (inFlight >= concurrency) {
        changed.await();
        continue;
      }
      long wait = heap.peek().readyAt - System.nanoTime();
      if (wait > 0) {
        changed.awaitNanos(wait);
        continue;
      }
      OriginTask task = heap.poll().task;
      waiting.remove(task);
      return task;
    }
  }

  private void runTurn(OriginTask task) {
    OptionalLong next = OptionalLong.empty();
    try {
      next = task.turn();
    } catch (RuntimeException e) {
      onFailure.accept(task, e);
    } catch (Error e) {
      // Out of memory, a stack overflow: told (so the run can say it did not finish), then left to
      // the thread's uncaught-exception handler, which may end the process.
      onFailure.accept(task, e);
      throw e;
    } finally {
      lock.lock();
      try {
        inFlight--;
        running.remove(task);
        if (next.isPresent()) {
          push(next.getAsLong(), task);
        } else if (woken.containsKey(task)) {
          push(woken.remove(task), task);
        } else {
          parked.add(task);
        }
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** Puts a task in the heap; under the lock. */
  private void push(long readyAt, OriginTask task) {
    heap.add(new Entry(readyAt, seq++, task));
    waiting.add(task);
  }

  /** Waits for the executor's threads after a run; for orderly shutdown. */
  public static void shutdown(ExecutorService executor) throws InterruptedException {
    executor.shutdown();
    executor.awaitTermination(1, TimeUnit.MINUTES);
  }
}
