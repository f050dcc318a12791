package org.forager.dns;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.forager.dns.AnswerCache.Answer;

/**
 * A {@link Resolver} in front of another that remembers its answers, bounds the time of each lookup
 * and asks once for a name many threads want at the same moment. Thread-safe.
 *
 * <ul>
 *   <li>Addresses are reused for {@code cacheTtl}, failures ({@link UnknownHostException}) for
 *       {@code negativeTtl}. The system resolver gives no record TTL, so these configured times stand
 *       in for it.
 *   <li>A lookup runs on a small pool of platform threads (the system resolver blocks the thread it
 *       runs on, and on a virtual thread would pin its carrier). The callers wait at most {@code
 *       timeout} from the moment the lookup was asked for (time in the queue counts), then fail with
 *       an {@link UnknownHostException} saying it timed out; that failure is cached negatively like
 *       any other, so a hanging name does not hold worker after worker.
 *   <li>Callers asking for a name already being looked up wait for that lookup rather than start one.
 *   <li>At most {@code maxNames} answers are kept; the oldest is evicted first.
 * </ul>
 *
 * <p>The counters ({@link #lookups()} and the rest) only grow; they are for metrics.
 */
public final class CachingResolver implements Resolver {

  /** The names remembered unless told otherwise: about 10-20 MB of heap at most. */
  public static final int DEFAULT_MAX_NAMES = 100_000;
  /** Lookups at once: DNS is latency, not work, but a resolver flooded by one crawler answers worse. */
  static final int THREADS = 8;

  private final Resolver delegate;
  private final long cacheTtlNanos;
  private final long negativeTtlNanos;
  private final long timeoutNanos;
  private final LongSupplier clock;
  private final AnswerCache cache;
  private final ConcurrentHashMap<String, Lookup> inFlight = new ConcurrentHashMap<>();
  private final ThreadPoolExecutor pool;
  private final LongAdder lookups = new LongAdder();
  private final LongAdder cacheHits = new LongAdder();
  private final LongAdder negativeHits = new LongAdder();
  private final LongAdder timeouts = new LongAdder();
  private final LongAdder answered = new LongAdder();
  private final LongAdder answerNanos = new LongAdder();

  /**
   * @param cacheTtl how long addresses are reused
   * @param negativeTtl how long a failure is repeated without asking again
   * @param timeout the most a lookup may take, queueing included
   */
  public CachingResolver(Resolver delegate, Duration cacheTtl, Duration negativeTtl, Duration timeout) {
    this(delegate, cacheTtl, negativeTtl, timeout, DEFAULT_MAX_NAMES, System::nanoTime);
  }

  /** With {@code clock} (nanoseconds, as {@link System#nanoTime}) deciding expiry: tests move it. */
  CachingResolver(Resolver delegate, Duration cacheTtl, Duration negativeTtl, Duration timeout, int maxNames,
      LongSupplier clock) {
    this.delegate = delegate;
    this.cacheTtlNanos = positive(cacheTtl, "cacheTtl").toNanos();
    this.negativeTtlNanos = positive(negativeTtl, "negativeTtl").toNanos();
    this.timeoutNanos = positive(timeout, "timeout").toNanos();
    this.clock = clock;
    this.cache = new AnswerCache(maxNames);
    this.pool = new ThreadPoolExecutor(THREADS, THREADS, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        Thread.ofPlatform().daemon().name("forager-dns-", 0).factory());
    // Idle threads end, so an unused resolver holds none and needs no close.
    pool.allowCoreThreadTimeOut(true);
  }

  @Override
  public List<InetAddress> resolve(String host) throws UnknownHostException {
    String name = host.toLowerCase(Locale.ROOT);
    Optional<Answer> cached = cache.get(name, clock.getAsLong());
    if (cached.isPresent()) {
      (cached.get().positive() ? cacheHits : negativeHits).increment();
      return cached.get().get();
    }
    Lookup fresh = new Lookup(name, System.nanoTime() + timeoutNanos);
    Lookup lookup = inFlight.putIfAbsent(name, fresh);
    if (lookup == null) {
      lookup = fresh;
      lookups.increment();
      pool.execute(lookup.task);
    }
    return await(lookup);
  }

  private List<InetAddress> await(Lookup lookup) throws UnknownHostException {
    try {
      return lookup.task.get(lookup.deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS).get();
    } catch (TimeoutException e) {
      return timedOut(lookup);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException bug) throw bug;
      if (e.getCause() instanceof Error error) throw error;
      throw new IllegalStateException("a lookup throws only what resolve declares", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UnknownHostException(lookup.name + ": interrupted while resolving");
    }
  }

  /** The first caller to see the deadline pass ends the lookup and remembers the failure. */
  private List<InetAddress> timedOut(Lookup lookup) throws UnknownHostException {
    String failure = lookup.name + ": DNS lookup timed out after " + timeoutNanos / 1_000_000 + " ms";
    if (inFlight.remove(lookup.name, lookup)) {
      timeouts.increment();
      // Off the queue if it never started (so hanging lookups cannot pile up tasks behind them).
      lookup.task.cancel(true);
      pool.remove(lookup.task);
      cache.put(lookup.name, Answer.failed(failure, clock.getAsLong() + negativeTtlNanos));
    }
    throw new UnknownHostException(failure);
  }

  /** One lookup of one name, shared by every caller that asked for it while it ran. */
  private final class Lookup {
    final String name;
    final long deadlineNanos;
    final FutureTask<Answer> task;

    Lookup(String name, long deadlineNanos) {
      this.name = name;
      this.deadlineNanos = deadlineNanos;
      this.task = new FutureTask<>(this::run);
    }

    private Answer run() {
      Answer answer = ask();
      // Cached before it leaves the in-flight map, so a caller arriving in between finds it.
      if (!task.isCancelled()) cache.put(name, answer);
      inFlight.remove(name, this);
      return answer;
    }

    private Answer ask() {
      long start = System.nanoTime();
      try {
        List<InetAddress> addresses = delegate.resolve(name);
        if (addresses.isEmpty()) return Answer.failed(name + ": no address", clock.getAsLong() + negativeTtlNanos);
        return Answer.found(addresses, clock.getAsLong() + cacheTtlNanos);
      } catch (UnknownHostException e) {
        return Answer.failed(Objects.requireNonNullElse(e.getMessage(), name), clock.getAsLong() + negativeTtlNanos);
      } finally {
        answered.increment();
        answerNanos.add(System.nanoTime() - start);
      }
    }
  }

  /** Lookups started (names asked of the resolver behind this one). */
  public long lookups() {
    return lookups.sum();
  }

  /** Answers given from the cache with addresses. */
  public long cacheHits() {
    return cacheHits.sum();
  }

  /** Failures repeated from the cache without asking again. */
  public long negativeHits() {
    return negativeHits.sum();
  }

  /** Lookups that did not answer within the timeout. */
  public long timeouts() {
    return timeouts.sum();
  }

  /** Lookups the resolver behind this one answered (with addresses or a failure), late ones included. */
  public long answered() {
    return answered.sum();
  }

  /** The time those answers took, summed: with {@link #answered}, the mean lookup latency. */
  public long answerNanos() {
    return answerNanos.sum();
  }

  private static Duration positive(Duration duration, String name) {
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(name + " must be > 0, was " + duration);
    }
    return duration;
  }

  @Override
  public String toString() {
    return "cache of the " + delegate;
  }
}
