package org.forager.frontier;

import java.util.Collection;
import java.util.Comparator;
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
 * Runs origin tasks turn by turn. A task waits in line for the time it may next run; a task is out of
 * line while its turn runs, so no origin ever has two turns (and so two requests) in flight.
 * Up to {@code concurrency} turns of different origins run at once on the executor.
 *
 * <p>Which task goes next: among those whose time has come, the one with the highest
 * {@link OriginTask#priority()}, then the one whose time came first, then the one put in line first.
 * A task whose time has not come never runs, whatever its priority. Two heaps keep this without a
 * scan: tasks wait in one ordered by time, and before each dispatch every task whose time has come
 * moves to one ordered by priority. So a ready task of low priority waits as long as tasks of
 * higher priority are ready; that is the rule, not starvation by accident: each origin's own delay
 * takes it out of the ready ones after its turn, so with few origins every one still runs, and only
 * when more origins are ready than {@code concurrency} allows do the lesser ones wait.
 *
 * <p>A task that returned finished is parked: {@link #wake} brings it back. {@link #run} blocks
 * until every task finished, or the stop condition holds (then it waits
 * for the turns in flight and returns). {@link #stop} and {@link #pause} may be called from any thread.
 *
 * <p>With a {@link TaskSource} ({@link #workingSet}) the scheduler holds at most a capacity of tasks
 * (in line or running): it takes more from the source as room frees, and a finished task leaves
 * instead of being parked. The run ends when nothing is in line or running and the source has
 * nothing more to give.
 */
public final class Scheduler {

  /** A task in line: the time it may run, its priority when put in line, the order it came in. */
  private record Entry(long readyAt, double priority, long seq, OriginTask task) {}

  private static final Comparator<Entry> BY_TIME =
      Comparator.comparingLong(Entry::readyAt).thenComparingLong(Entry::seq);
  private static final Comparator<Entry> BY_PRIORITY =
      Comparator.comparingDouble(Entry::priority).reversed().thenComparing(BY_TIME);

  private final int concurrency;
  private final ExecutorService executor;
  private final BooleanSupplier stopWhen;
  private final BiConsumer<OriginTask, Throwable> onFailure;
  private final boolean untilStopped;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  /** Tasks in line whose time had not come at the last dispatch. */
  private final PriorityQueue<Entry> notReady = new PriorityQueue<>(BY_TIME);
  /** Tasks in line whose time has come: the head runs next. */
  private final PriorityQueue<Entry> ready = new PriorityQueue<>(BY_PRIORITY);
  /**
   * The tasks in either heap, each with its entry in force: whether one waits for its turn, without
   * scanning the heaps. An entry of a heap that is not its task's entry here was replaced by an
   * earlier one ({@link #hurry}) and is dropped when met.
   */
  private final Map<OriginTask, Entry> waiting = new HashMap<>();
  private final Set<OriginTask> running = new HashSet<>();
  private final Set<OriginTask> parked = new HashSet<>();
  /** Tasks told to come back while their turn ran, with the time they may run again. */
  private final Map<OriginTask, Long> woken = new HashMap<>();
  /** Tasks hurried while their turn ran: the time their next turn may come at the latest. */
  private final Map<OriginTask, Long> hurried = new HashMap<>();
  private long seq;
  private int inFlight;
  private boolean stopRequested;
  /** Whether no turn may start ({@link #pause}); turns in flight finish. */
  private boolean paused;
  /** Where more tasks come from, when the working set is bounded; null when every task is given to run. */
  private TaskSource source;
  private int capacity;
  /** Whether a turn may go on with its task's next one at once ({@link #goesOnAtOnce}). */
  private volatile BooleanSupplier goOnWhen = () -> true;

  /**
   * @param stopWhen checked before each dispatch and before a turn goes on with its task's next one
   *     ({@link #runTurn}): when true, no further turn starts
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

  /** When a turn may go on with its task's next one at once, on its own thread (by default always). */
  public void goOnWhen(BooleanSupplier when) {
    this.goOnWhen = when;
  }

  /**
   * Bounds the tasks held at once to {@code capacity}, taking them from {@code source} as room frees
   * (see the class comment). Before {@link #run}.
   */
  public void workingSet(TaskSource source, int capacity) {
    if (capacity < 1) throw new IllegalArgumentException("capacity must be at least 1");
    lock.lock();
    try {
      this.source = source;
      this.capacity = capacity;
    } finally {
      lock.unlock();
    }
  }

  /** Tells a scheduler with a {@link TaskSource} that the source may have more to give now. */
  public void sourceChanged() {
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
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
   * Pauses the run ({@code true}: no new turn starts; turns in flight finish, and the tasks keep their
   * places in line) or resumes it. A paused run does not end while tasks wait; {@link #stop} still
   * ends it.
   */
  public void pause(boolean paused) {
    lock.lock();
    try {
      this.paused = paused;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Turns running now (each of a different task, each making at most its one request). */
  public int turnsInFlight() {
    lock.lock();
    try {
      return inFlight;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Tells a task that it may have new work (e.g. candidates found by another origin): a finished task
   * gets a turn again, in line with the {@link OriginTask#priority()} it has now; one whose turn is
   * running gets another turn even if it returns finished. A task waiting for its turn needs
   * nothing (its priority is read again after its turn).
   *
   * @return whether the scheduler holds the task (parked, in line or running); false for one that
   *     left a bounded working set (its {@link TaskSource} must take it up again)
   */
  public boolean wake(OriginTask task) {
    lock.lock();
    try {
      if (parked.contains(task)) {
        push(System.nanoTime(), task);
        parked.remove(task); // after the push: a priority that throws leaves the task parked
        changed.signalAll();
        return true;
      }
      if (running.contains(task)) {
        woken.merge(task, System.nanoTime(), Math::min);
        return true;
      }
      return waiting.containsKey(task);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds a task to a running schedule, first ready at {@code readyAt} ({@link System#nanoTime()}),
   * e.g. an origin a fleet process just claimed, in line with its {@link OriginTask#priority()}.
   * A task already waiting for its turn is left as it is; a parked one comes back at that time; one
   * whose turn is running comes back then even if it returns finished.
   */
  public void add(OriginTask task, long readyAt) {
    lock.lock();
    try {
      if (running.contains(task)) {
        woken.merge(task, readyAt, Math::min);
        return;
      }
      if (waiting.containsKey(task)) return;
      push(readyAt, task);
      parked.remove(task);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Brings the next turn of a task waiting for it forward to {@code readyAt} ({@link
   * System#nanoTime()}) when it was to come later, e.g. an origin waiting for its IP address's slot
   * when the slot comes free ({@link Slots}). A task whose turn is running comes back no later than
   * that if it returns a time; a parked task (finished) or one unknown here is left as it is.
   */
  public void hurry(OriginTask task, long readyAt) {
    lock.lock();
    try {
      if (running.contains(task)) {
        hurried.merge(task, readyAt, Math::min);
        return;
      }
      Entry entry = waiting.get(task);
      if (entry == null || entry.readyAt - readyAt <= 0) return;
      // The old entry stays in its heap, no longer in force: removing it would cost a scan.
      push(readyAt, entry.priority, task);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * How long until the next turn may start, when no turn runs and none is ready: every origin waits
   * (its delay, a retry's backoff, a Retry-After); empty while turns run, or when none waits.
   */
  public java.util.OptionalLong idleForNanos() {
    lock.lock();
    try {
      if (inFlight > 0 || !ready.isEmpty()) return java.util.OptionalLong.empty();
      while (!notReady.isEmpty() && !inForce(notReady.peek())) notReady.poll();
      if (notReady.isEmpty()) return java.util.OptionalLong.empty();
      return java.util.OptionalLong.of(Math.max(0, notReady.peek().readyAt - System.nanoTime()));
    } finally {
      lock.unlock();
    }
  }

  /** Number of tasks waiting for their next turn plus those in flight. */
  public int activeOrigins() {
    lock.lock();
    try {
      return waiting.size() + inFlight;
    } finally {
      lock.unlock();
    }
  }

  // Called with the lock held. Returns null when the run is over and nothing is in flight.
  private OriginTask awaitNext() throws InterruptedException {
    while (true) {
      boolean stopping = stopRequested || stopWhen.getAsBoolean();
      if (!stopping) takeFromSource();
      if (stopping || waiting.isEmpty()) {
        if (inFlight == 0 && (stopping || !untilStopped)) return null;
        changed.await();
        continue;
      }
      if (inFlight >= concurrency || paused) {
        changed.await();
        continue;
      }
      long now = System.nanoTime();
      while (!notReady.isEmpty() && notReady.peek().readyAt - now <= 0) {
        Entry entry = notReady.poll();
        if (inForce(entry)) ready.add(entry);
      }
      while (!notReady.isEmpty() && !inForce(notReady.peek())) notReady.poll();
      while (!ready.isEmpty() && !inForce(ready.peek())) ready.poll();
      if (ready.isEmpty()) {
        changed.awaitNanos(notReady.peek().readyAt - now);
        continue;
      }
      OriginTask task = ready.poll().task;
      waiting.remove(task);
      return task;
    }
  }

  /**
   * Runs the task's turns on this thread: the next one at once when it is due at once and no other
   * task waits for a slot (what the dispatcher would do, without the hand-over: a turn started by the
   * dispatcher queues behind every thread that is ready to run, and so does the origin's next request,
   * docs/crawl-loop.md "Early requests"); otherwise the task goes back in line.
   */
  private void runTurn(OriginTask task) {
    while (runOneTurn(task)) {
      // the task's next turn, at once
    }
  }

  /** One turn of the task; whether its next one runs at once on this thread (it keeps its slot). */
  private boolean runOneTurn(OriginTask task) {
    OptionalLong next = OptionalLong.empty();
    double priority = 0;
    boolean goOn = false;
    try {
      OptionalLong after = task.turn();
      // Read here, on the turn's thread and outside the lock; one that throws fails the turn.
      priority = task.priority();
      next = after;
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
        // A wake during the turn is used up by this return either way: kept, it would bring the
        // task back once more after a later turn that returns finished.
        Long wokenAt = woken.remove(task);
        Long hurriedAt = hurried.remove(task);
        if (next.isPresent()) {
          long at = next.getAsLong();
          if (hurriedAt != null && hurriedAt - at < 0) at = hurriedAt;
          goOn = goesOnAtOnce(at);
          if (!goOn) {
            inFlight--;
            running.remove(task);
            push(at, priority, task);
          }
        } else if (wokenAt != null) {
          inFlight--;
          running.remove(task);
          push(wokenAt, priority, task);
        } else {
          inFlight--;
          running.remove(task);
          // Left the schedule (the source hands it out again when it has work), or parked.
          if (source == null || !source.finished(task)) parked.add(task);
        }
        if (!goOn) changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
    return goOn;
  }

  /**
   * Whether a turn that names {@code at} for its task's next one goes on with it at once, keeping its
   * slot: the time has come, the run is not stopping or paused, and no task in line is ready while
   * every slot is taken (the dispatcher chooses among those, by priority). Under the lock.
   */
  private boolean goesOnAtOnce(long at) {
    long now = System.nanoTime();
    if (at - now > 0 || paused || stopRequested || !goOnWhen.getAsBoolean() || stops()) return false;
    if (inFlight < concurrency) return true;
    while (!ready.isEmpty() && !inForce(ready.peek())) ready.poll();
    while (!notReady.isEmpty() && !inForce(notReady.peek())) notReady.poll();
    return ready.isEmpty() && (notReady.isEmpty() || notReady.peek().readyAt - now > 0);
  }

  /**
   * The stop condition, asked on a turn's thread: one that throws is the dispatcher's to report (it
   * asks again), and the turn goes back in line rather than leaving its slot taken for ever.
   */
  private boolean stops() {
    try {
      return stopWhen.getAsBoolean();
    } catch (RuntimeException e) {
      return true;
    }
  }

  /** Fills the room the working set has from the source; under the lock. */
  private void takeFromSource() {
    if (source == null) return;
    int room = capacity - waiting.size() - running.size();
    if (room <= 0) return;
    long now = System.nanoTime();
    for (OriginTask task : source.next(room)) {
      if (!waiting.containsKey(task) && !running.contains(task)) push(now, task);
    }
  }

  /** Puts a task in line, reading its priority now; under the lock. */
  private void push(long readyAt, OriginTask task) {
    push(readyAt, task.priority(), task);
  }

  /** Puts a task in line; under the lock. Ready or not is sorted out at the next dispatch. */
  private void push(long readyAt, double priority, OriginTask task) {
    Entry entry = new Entry(readyAt, priority, seq++, task);
    notReady.add(entry);
    waiting.put(task, entry);
  }

  /** Whether a heap's entry is its task's entry in force (not one {@link #hurry} replaced); under the lock. */
  private boolean inForce(Entry entry) {
    return waiting.get(entry.task) == entry;
  }

  /** Waits for the executor's threads after a run; for orderly shutdown. */
  public static void shutdown(ExecutorService executor) throws InterruptedException {
    executor.shutdown();
    executor.awaitTermination(1, TimeUnit.MINUTES);
  }
}
