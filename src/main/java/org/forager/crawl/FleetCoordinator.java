package org.forager.crawl;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.forager.frontier.OriginTask;
import org.forager.frontier.Scheduler;
import org.forager.frontier.TaskSource;
import org.forager.store.LeaseLostException;
import org.forager.store.OriginLeases;
import org.forager.store.OriginLeases.Release;
import org.forager.store.OriginState;
import org.forager.store.StoreUnavailableException;
import org.forager.url.Origin;

/**
 * This process's part in a fleet sharing one crawl database (docs/fleet.md, "How leases work"): it
 * claims origins (up to {@code concurrency}), hands them to the scheduler, renews their leases every
 * third of {@code fleet.lease}, releases each origin when its turn finds it finished (with the time
 * until which it is done), claims more, and ends the run when it holds nothing, a claim finds
 * nothing, and no other process holds a live lease (one that dies is waited for, and its origins
 * taken over once its leases expire). {@link #close} releases what is still held.
 *
 * <p>A turn starts only while this process holds the origin's lease with enough of it left for the
 * turn's request to end, by its own timeout ({@code limits.fetch_timeout}), before the lease does,
 * with a tenth of the lease to spare ({@link #minLeftNanos}); the lease counted from when the claim or
 * renewal was sent, on this process's monotonic clock (which runs on while the process is frozen).
 * An origin lost on renewal (its lease expired and another process took it) stops after the turn in
 * flight; a write the store refuses because another process claimed the origin meanwhile ({@link
 * LeaseLostException}) drops the origin with a one-line notice, and the process goes on with the others.
 *
 * <p>While the database is out of reach ({@link StoreUnavailableException}) no turn starts: the
 * process asks the database again with a growing pause ({@link StoreOutage}), and once it answers,
 * renews its leases (keeping the origins nobody took meanwhile, dropping those another process
 * claimed) before any turn goes on. An origin whose turn failed for the outage is put back
 * (released at the renewal, then claimed anew).
 *
 * <p>Thread-safe: turns run on the scheduler's threads, claims and renewals on one thread of its own.
 */
final class FleetCoordinator implements AutoCloseable, TaskSource {

  private final OriginLeases leases;
  private final CrawlContext ctx;
  private final Instant cutoff;
  private final Scheduler scheduler;
  private final Function<Origin, OriginCrawler> newCrawler;
  private final String owner;
  private final Duration lease;
  private final long leaseNanos;
  private final long renewEveryNanos;
  private final long minLeftNanos;
  private final int maxOrigins;
  private final StoreOutage outage;
  /** How long an origin blocked by the operator is left alone before a process looks at it again. */
  static final java.time.Duration BLOCKED_REST = java.time.Duration.ofMinutes(1);

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  /** Origins held, with the end of their lease on this process's clock (System.nanoTime). */
  private final Map<Origin, Long> deadlines = new HashMap<>();
  /**
   * The task of each origin held: a task finished is forgotten (and leaves the scheduler, {@link
   * #finished(OriginTask)}), so a process's memory is bounded by what it holds, not by how many origins
   * it crawled in the run; claimed again, an origin gets a new crawler, which goes on from the run
   * progress its state keeps.
   */
  private final Map<Origin, LeasedOrigin> tasks = new HashMap<>();
  private boolean claimWanted = true;
  private boolean closed;
  private Thread thread;

  /**
   * @param owner this process's name in the fleet ({@link #ownerId})
   * @param cutoff the run's cutoff: origins done until later are not claimed
   * @param newCrawler makes the crawler of an origin claimed for the first time in this run
   */
  FleetCoordinator(OriginLeases leases, String owner, CrawlContext ctx, Instant cutoff, Scheduler scheduler,
      Function<Origin, OriginCrawler> newCrawler) {
    this.leases = leases;
    this.owner = owner;
    this.ctx = ctx;
    this.outage = new StoreOutage(ctx.clock(), ctx.outputs().log()::write);
    this.cutoff = cutoff;
    this.scheduler = scheduler;
    this.newCrawler = newCrawler;
    this.lease = ctx.config().fleet().lease();
    this.leaseNanos = lease.toNanos();
    this.renewEveryNanos = leaseNanos / 3;
    this.minLeftNanos = minLeftNanos(lease, ctx.config().limits().fetchTimeout());
    this.maxOrigins = ctx.config().concurrency();
  }

  /**
   * How much of its lease an origin must have left for a turn to start: its request's whole timeout
   * plus a tenth of the lease (for the time between this check and the request, and the database's
   * and this process's clocks running at slightly different rates), and never less than a third.
   *
   * @throws IllegalArgumentException when a turn could never start: {@code fetchTimeout} is more than
   *     half of {@code lease} (the configuration reader refuses such a fleet with one line)
   */
  static long minLeftNanos(Duration lease, Duration fetchTimeout) {
    if (fetchTimeout.compareTo(lease.dividedBy(2)) > 0) {
      throw new IllegalArgumentException("limits.fetch_timeout (" + fetchTimeout + ") must be at most half of"
          + " fleet.lease (" + lease + ")");
    }
    return Math.max(lease.toNanos() / 3, fetchTimeout.toNanos() + lease.toNanos() / 10);
  }

  /** Starts claiming; the scheduler must be running (or about to) to take the origins. */
  void start() {
    thread = Thread.ofPlatform().daemon().name("forager-fleet").start(this::loop);
  }

  String owner() {
    return owner;
  }

  /** Stops claiming and releases every origin still held (with its state saved: work is left). */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    // Not interrupted: a JDBC call cut short would leave its connection unusable. It is bounded by
    // the renewal period plus one database call.
    if (thread != null) {
      try {
        thread.join(Math.max(10_000, TimeUnit.NANOSECONDS.toMillis(leaseNanos)));
      } catch (InterruptedException e) {
        // Release what is held all the same (below), and keep the interrupt for the caller.
        Thread.currentThread().interrupt();
      }
    }
    List<LeasedOrigin> held = new ArrayList<>();
    lock.lock();
    try {
      for (Origin origin : deadlines.keySet()) held.add(tasks.get(origin));
      deadlines.clear();
    } finally {
      lock.unlock();
    }
    if (outage.down() && !held.isEmpty()) {
      // Each save would wait for the database in vain; the leases expire on their own.
      Notice.printf("forager: fleet: the crawl database is unavailable: %d origins are left to their leases"
          + " (free for the fleet %s after the last renewal)", held.size(), lease);
      return;
    }
    for (LeasedOrigin task : held) {
      try {
        task.crawler.saveState();
        leases.release(owner, task.origin, new Release.Unfinished());
      } catch (RuntimeException e) {
        // Its lease expires on its own; another process takes it over then.
        Notice.println("forager: fleet: cannot release " + task.origin + ": " + e.getMessage());
      }
    }
  }

  private void loop() {
    long nextRenewal = System.nanoTime() + renewEveryNanos;
    while (true) {
      try {
        if (outage.down()) {
          // The renewal asks the database; answered, every lease held is known again before any
          // turn goes on (the outage may have outlasted them).
          renew();
          outage.back(heldCount());
          nextRenewal = System.nanoTime() + renewEveryNanos;
        } else if (System.nanoTime() - nextRenewal >= 0) {
          nextRenewal = System.nanoTime() + renewEveryNanos;
          renew();
        }
        int claimed = claimMore();
        if (!ctx.run().continuous() && claimed == 0 && holdsNothing() && !leases.othersHoldLeases(owner)) {
          // Nothing left for this process, and no other process can still find work or die holding
          // some: the fleet's run is over.
          scheduler.stop();
          return;
        }
      } catch (StoreUnavailableException e) {
        outage.lost(e);
        nextRenewal = System.nanoTime() + outage.nextRetryNanos();
      } catch (RuntimeException e) {
        // Tried again at the next tick. Meanwhile leases run out and turns stop on their own.
        Notice.println("forager: fleet: " + e.getMessage());
      }
      if (outage.down() && System.nanoTime() - nextRenewal >= 0) {
        nextRenewal = System.nanoTime() + outage.nextRetryNanos(); // a turn found it gone: ask again soon
      }
      lock.lock();
      try {
        // While the database is away, only its answer matters: claims wait for it.
        while (!closed && (!claimWanted || outage.down())) {
          long wait = nextRenewal - System.nanoTime();
          if (wait <= 0) break;
          changed.awaitNanos(wait);
        }
        if (closed) return;
        claimWanted = false;
      } catch (InterruptedException e) {
        return;
      } finally {
        lock.unlock();
      }
    }
  }

  /** Claims origins up to the maximum held; returns how many it got. */
  private int claimMore() {
    int room;
    lock.lock();
    try {
      room = maxOrigins - deadlines.size();
    } finally {
      lock.unlock();
    }
    if (room <= 0) return 0;
    long sent = System.nanoTime();
    List<Origin> claimed = leases.claim(owner, room, lease, runCutoff());
    for (Origin origin : claimed) {
      // The previous holder's last request ended before it released the origin (or before its lease
      // expired): waiting the origin's delay from now keeps the interval across processes.
      long delayMillis = Math.max(ctx.config().siteSettings(origin).politeness().minDelay().toMillis(),
          ctx.store().originState(origin).map(OriginState::delayMillis).orElse(0L));
      LeasedOrigin task;
      lock.lock();
      try {
        deadlines.put(origin, sent + leaseNanos);
        task = tasks.computeIfAbsent(origin, o -> new LeasedOrigin(o, newCrawler.apply(o)));
      } finally {
        lock.unlock();
      }
      scheduler.add(task, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMillis));
    }
    return claimed.size();
  }

  private void renew() {
    long sent = System.nanoTime();
    List<Origin> renewed = leases.renew(owner, lease);
    Set<Origin> stray = new HashSet<>(renewed);
    lock.lock();
    try {
      Set<Origin> still = new HashSet<>(renewed);
      for (Origin origin : List.copyOf(deadlines.keySet())) {
        if (still.contains(origin)) {
          deadlines.put(origin, sent + leaseNanos);
          stray.remove(origin);
        } else {
          lose(origin, "its lease expired and another process took it");
        }
      }
    } finally {
      lock.unlock();
    }
    // Held in the database but not here (released meanwhile, or given up when its lease ran out on
    // this clock): free it rather than keep it from the fleet.
    for (Origin origin : stray) leases.release(owner, origin, new Release.Unfinished());
  }

  // Called with the lock held.
  private void lose(Origin origin, String why) {
    deadlines.remove(origin);
    LeasedOrigin lost = tasks.remove(origin); // claimed again later: a new crawler, which reads the origin's state afresh
    if (lost != null) lost.crawler.forgotten();
    claimWanted = true;
    changed.signalAll();
    Notice.printf("forager: fleet: lost %s (%s); it stops after the turn in flight%n", origin, why);
  }

  private int heldCount() {
    lock.lock();
    try {
      return deadlines.size();
    } finally {
      lock.unlock();
    }
  }

  private boolean holdsNothing() {
    lock.lock();
    try {
      return deadlines.isEmpty();
    } finally {
      lock.unlock();
    }
  }

  /** The cutoff of claims and of "nothing due": the run's start, or now when crawling continuously. */
  private Instant runCutoff() {
    return ctx.run().continuous() ? ctx.clock().instant() : cutoff;
  }

  /** Forgets an origin whose turn the database failed; its lease is released at the next renewal. */
  private void drop(LeasedOrigin task) {
    lock.lock();
    try {
      if (tasks.get(task.origin) != task) return;
      tasks.remove(task.origin);
      deadlines.remove(task.origin);
      task.crawler.forgotten();
    } finally {
      lock.unlock();
    }
  }

  /** A turn found the origin finished (or failed): it goes back to the fleet with when it is done until. */
  private void finished(LeasedOrigin task, boolean givenUp) {
    lock.lock();
    try {
      // Forgotten first, so that a claim returning it after the release below takes it anew.
      if (tasks.get(task.origin) != task || deadlines.remove(task.origin) == null) return;
      tasks.remove(task.origin);
      claimWanted = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    Release release;
    if (ctx.run().control().blocks(task.origin)) {
      // Blocked by the operator: its URLs stay due, so "nothing due" would reopen it at once and every
      // process would claim it over and over; it rests a while, its work still the run's (done until
      // later, it was never claimed again in this run), and an unblock ends the rest.
      release = new Release.Resting(ctx.clock().instant().plus(BLOCKED_REST));
    } else if (!givenUp) {
      release = new Release.NothingDue(runCutoff());
    } else if (ctx.run().continuous()) {
      release = new Release.DoneUntil(ctx.clock().instant().plus(OriginCrawler.GIVEN_UP_REST));
    } else {
      // Done for any run whose cutoff is this one's; a later run tries it again.
      release = new Release.DoneUntil(cutoff.plusNanos(1000));
    }
    try {
      leases.release(owner, task.origin, release);
    } catch (StoreUnavailableException e) {
      outage.lost(e); // still held in the database: the renewal after the outage releases it
    }
  }

  /** {@inheritDoc} None: the coordinator adds the origins it claims itself ({@link Scheduler#add}). */
  @Override
  public List<OriginTask> next(int max) {
    return List.of();
  }

  /** {@inheritDoc} The scheduler forgets a finished task instead of parking it: claimed again, it is new. */
  @Override
  public boolean finished(OriginTask task) {
    return true;
  }

  /** Host, process id and a random part: unique in the fleet, and telling in {@code origin_lease}. */
  static String ownerId() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "unknown-host";
    }
    return host + "/" + ProcessHandle.current().pid() + "/"
        + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
  }

  /** The scheduler's task for a claimed origin: its crawler's turns, while the lease is held. */
  private final class LeasedOrigin implements OriginTask {
    final Origin origin;
    final OriginCrawler crawler;

    LeasedOrigin(Origin origin, OriginCrawler crawler) {
      this.origin = origin;
      this.crawler = crawler;
    }

    @Override
    public OptionalLong turn() {
      long now = System.nanoTime();
      // Nothing fetched could be recorded; and the lease is checked again once renewed.
      if (outage.down()) return OptionalLong.of(now + StoreOutage.FIRST_RETRY_NANOS);
      long left;
      lock.lock();
      try {
        Long deadline = deadlines.get(origin);
        if (deadline == null || tasks.get(origin) != this) return OptionalLong.empty(); // not ours: stop
        left = deadline - now;
        if (left <= 0) {
          lose(origin, "its lease ran out before it could be renewed");
          return OptionalLong.empty();
        }
      } finally {
        lock.unlock();
      }
      // A renewal is late: wait for it rather than start a request the lease might not cover.
      if (left < minLeftNanos) return OptionalLong.of(now + renewEveryNanos / 4);
      OptionalLong next;
      try {
        next = crawler.turn();
      } catch (LeaseLostException e) {
        // Another process holds the origin now: what this turn learned is not written over its state.
        lock.lock();
        try {
          if (tasks.get(origin) == this && deadlines.containsKey(origin)) {
            lose(origin, "another process claimed it; its write was refused");
          } else {
            Notice.println("forager: fleet: " + e.getMessage() + " (dropped)");
          }
        } finally {
          lock.unlock();
        }
        return OptionalLong.empty();
      } catch (StoreUnavailableException e) {
        // Not the origin's fault: this crawler stops (a turn cut short may have left it half-way)
        // and the origin goes back to the fleet once the database answers (the renewal releases it).
        outage.lost(e);
        drop(this);
        return OptionalLong.empty();
      } catch (RuntimeException e) {
        finished(this, true); // the scheduler drops the task: give the origin back, done for this run
        throw e;
      }
      if (next.isEmpty()) finished(this, crawler.givenUp());
      return next;
    }

    /** The crawler's: a fleet process, too, starts the origin holding the best work first. */
    @Override
    public double priority() {
      return crawler.priority();
    }

    @Override
    public String toString() {
      return origin.toString();
    }
  }
}
