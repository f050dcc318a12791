package org.forager.dns;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.forager.dns.AddressLookup.Found;
import org.forager.dns.AnswerCache.Answer;

/**
 * A {@link Resolver} in front of an {@link AddressLookup} that remembers its answers, bounds the
 * time of each lookup and asks once for a name many threads want at the same moment. Thread-safe.
 *
 * <ul>
 *   <li>Addresses are reused for their records' TTL clamped to {@code [minTtl, maxTtl]}, or for
 *       {@code fallbackTtl} when the source tells no TTL (the system resolver, the hosts file);
 *       failures ({@link UnknownHostException}) for {@code negativeTtl}.
 *   <li>A caller waits at most {@code timeout} from the moment the lookup was asked for (time in a
 *       queue counts), then fails with an {@link UnknownHostException} saying it timed out; that
 *       failure is cached negatively like any other, so a hanging name does not hold worker after
 *       worker. The lookup is given up (cancelled).
 *   <li>Callers wait on a future, so a virtual thread waiting for a lookup unmounts: no carrier
 *       thread is held, whichever source answers.
 *   <li>Callers asking for a name already being looked up wait for that lookup rather than start one.
 *   <li>At most {@code maxNames} answers are kept; the oldest is evicted first.
 * </ul>
 *
 * <p>The counters ({@link #lookups()} and the rest) only grow; they are for metrics.
 */
public final class CachingResolver implements Resolver {

  /** The names remembered unless told otherwise: about 10-20 MB of heap at most. */
  public static final int DEFAULT_MAX_NAMES = 100_000;

  private final AddressLookup source;
  private final long minTtlNanos;
  private final long maxTtlNanos;
  private final long fallbackTtlNanos;
  private final long negativeTtlNanos;
  private final long timeoutNanos;
  private final LongSupplier clock;
  private final AnswerCache cache;
  private final ConcurrentHashMap<String, Pending> inFlight = new ConcurrentHashMap<>();
  private final LongAdder lookups = new LongAdder();
  private final LongAdder cacheHits = new LongAdder();
  private final LongAdder negativeHits = new LongAdder();
  private final LongAdder timeouts = new LongAdder();
  private final LongAdder answered = new LongAdder();
  private final LongAdder answerNanos = new LongAdder();

  /**
   * Over the blocking {@code delegate}, whose answers carry no TTL: they are reused for {@code
   * cacheTtl}.
   *
   * @param cacheTtl how long addresses are reused
   * @param negativeTtl how long a failure is repeated without asking again
   * @param timeout the most a lookup may take, queueing included
   */
  public CachingResolver(Resolver delegate, Duration cacheTtl, Duration negativeTtl, Duration timeout) {
    this(builder().over(delegate).fallbackTtl(cacheTtl).negativeTtl(negativeTtl).timeout(timeout));
  }

  private CachingResolver(Builder b) {
    this.minTtlNanos = positive(b.minTtl, "minTtl").toNanos();
    this.maxTtlNanos = positive(b.maxTtl, "maxTtl").toNanos();
    if (minTtlNanos > maxTtlNanos) {
      throw new IllegalArgumentException("minTtl " + b.minTtl + " is more than maxTtl " + b.maxTtl);
    }
    this.fallbackTtlNanos = positive(b.fallbackTtl, "fallbackTtl").toNanos();
    this.negativeTtlNanos = positive(b.negativeTtl, "negativeTtl").toNanos();
    Duration timeout = positive(b.timeout, "timeout");
    this.timeoutNanos = timeout.toNanos();
    this.clock = b.clock;
    this.cache = new AnswerCache(b.maxNames);
    this.source = b.source != null ? b.source : new DnsjavaLookup(b.servers, b.hostsFile, timeout);
  }

  /** A resolver asking name servers itself (dnsjava), with the defaults of {@link Builder}. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public List<InetAddress> resolve(String host) throws UnknownHostException {
    String name = host.toLowerCase(Locale.ROOT);
    Optional<Answer> cached = cache.get(name, clock.getAsLong());
    if (cached.isPresent()) {
      (cached.get().positive() ? cacheHits : negativeHits).increment();
      return cached.get().get();
    }
    Pending fresh = new Pending(name, System.nanoTime() + timeoutNanos);
    Pending pending = inFlight.putIfAbsent(name, fresh);
    if (pending == null) {
      pending = fresh;
      lookups.increment();
      fresh.start();
    }
    return await(pending);
  }

  private List<InetAddress> await(Pending pending) throws UnknownHostException {
    try {
      // A virtual thread parks here: its carrier is free for other workers.
      return pending.answer.get(pending.deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS).get();
    } catch (TimeoutException e) {
      return timedOut(pending);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException bug) throw bug;
      if (e.getCause() instanceof Error error) throw error;
      throw new IllegalStateException("a lookup fails only as resolve declares", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UnknownHostException(pending.name + ": interrupted while resolving");
    }
  }

  /** The first caller to see the deadline pass gives the lookup up and remembers the failure. */
  private List<InetAddress> timedOut(Pending pending) throws UnknownHostException {
    String failure = pending.name + ": DNS lookup timed out after " + timeoutNanos / 1_000_000 + " ms";
    if (inFlight.remove(pending.name, pending)) {
      timeouts.increment();
      pending.giveUp();
      cache.put(pending.name, Answer.failed(failure, clock.getAsLong() + negativeTtlNanos));
    }
    throw new UnknownHostException(failure);
  }

  /** One lookup of one name, shared by every caller that asked for it while it ran. */
  private final class Pending {
    final String name;
    final long deadlineNanos;
    /** Completed once the answer is cached, so a caller arriving in between still finds it here. */
    final CompletableFuture<Answer> answer = new CompletableFuture<>();
    private volatile CompletableFuture<Found> lookup;
    /** Set at the deadline: an answer coming after it is not cached over the timeout's failure. */
    private volatile boolean givenUp;

    Pending(String name, long deadlineNanos) {
      this.name = name;
      this.deadlineNanos = deadlineNanos;
    }

    void start() {
      long start = System.nanoTime();
      CompletableFuture<Found> started;
      try {
        started = source.lookup(name);
      } catch (RuntimeException bug) {
        started = CompletableFuture.failedFuture(bug);
      }
      lookup = started;
      started.whenComplete((found, failure) -> settle(found, failure, System.nanoTime() - start));
    }

    private void settle(Found found, Throwable failure, long nanos) {
      Throwable cause = failure instanceof CompletionException && failure.getCause() != null
          ? failure.getCause()
          : failure;
      if (givenUp || cause instanceof CancellationException) return; // the timeout is cached instead
      answered.increment();
      answerNanos.add(nanos);
      long now = clock.getAsLong();
      if (cause == null) {
        Answer a = Answer.found(found.addresses(), now + ttlNanos(found.ttl()));
        cache.put(name, a);
        inFlight.remove(name, this);
        answer.complete(a);
      } else if (cause instanceof UnknownHostException unknown) {
        Answer a = Answer.failed(unknown, Objects.requireNonNullElse(unknown.getMessage(), name), now + negativeTtlNanos);
        cache.put(name, a);
        inFlight.remove(name, this);
        answer.complete(a);
      } else {
        // A bug, not an answer: nothing cached, every caller sees it.
        inFlight.remove(name, this);
        answer.completeExceptionally(cause);
      }
    }

    void giveUp() {
      givenUp = true;
      CompletableFuture<Found> started = lookup;
      if (started != null) started.cancel(true);
    }
  }

  private long ttlNanos(Optional<Duration> ttl) {
    if (ttl.isEmpty()) return fallbackTtlNanos;
    long nanos = ttl.get().toNanos();
    return Math.max(minTtlNanos, Math.min(maxTtlNanos, nanos));
  }

  /** Lookups started (names asked of the source behind this one). */
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

  /** Lookups the source answered (with addresses or a failure) before their deadline. */
  public long answered() {
    return answered.sum();
  }

  /** The time those answers took, summed: with {@link #answered}, the mean lookup latency. */
  public long answerNanos() {
    return answerNanos.sum();
  }

  private static Duration positive(Duration duration, String name) {
    Objects.requireNonNull(duration, name);
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(name + " must be > 0, was " + duration);
    }
    return duration;
  }

  @Override
  public String toString() {
    return "cache of the " + source;
  }

  /**
   * Builds a {@link CachingResolver}. Unless told otherwise it asks the system's name servers
   * ({@code /etc/resolv.conf}) after {@code /etc/hosts}, keeps answers for their TTL clamped to
   * [1 minute, 1 hour], answers without a TTL 5 minutes, failures 1 minute, and gives a lookup 5
   * seconds.
   */
  public static final class Builder {
    private AddressLookup source;
    private List<InetSocketAddress> servers = List.of();
    private Path hostsFile = Path.of("/etc/hosts");
    private Duration minTtl = Duration.ofMinutes(1);
    private Duration maxTtl = Duration.ofHours(1);
    private Duration fallbackTtl = Duration.ofMinutes(5);
    private Duration negativeTtl = Duration.ofMinutes(1);
    private Duration timeout = Duration.ofSeconds(5);
    private int maxNames = DEFAULT_MAX_NAMES;
    private LongSupplier clock = System::nanoTime;

    private Builder() {}

    /** Asks these name servers, in order, instead of the system's. */
    public Builder servers(List<InetSocketAddress> servers) {
      this.servers = List.copyOf(servers);
      return this;
    }

    /** Asks the blocking {@code resolver} (the system's: {@link Resolver#system()}) instead of DNS. */
    public Builder over(Resolver resolver) {
      this.source = new BlockingLookup(resolver);
      return this;
    }

    /** Records are kept for their TTL, but never less than {@code min} nor more than {@code max}. */
    public Builder ttlBounds(Duration min, Duration max) {
      this.minTtl = min;
      this.maxTtl = max;
      return this;
    }

    /** How long addresses whose source tells no TTL are kept. */
    public Builder fallbackTtl(Duration ttl) {
      this.fallbackTtl = ttl;
      return this;
    }

    /** How long a failure is repeated without asking again. */
    public Builder negativeTtl(Duration ttl) {
      this.negativeTtl = ttl;
      return this;
    }

    /** The most a lookup may take, queueing included. */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** The hosts file read before DNS (tests give their own). */
    Builder hostsFile(Path hostsFile) {
      this.hostsFile = hostsFile;
      return this;
    }

    Builder source(AddressLookup source) {
      this.source = source;
      return this;
    }

    Builder maxNames(int maxNames) {
      this.maxNames = maxNames;
      return this;
    }

    /** Nanoseconds, as {@link System#nanoTime}, deciding expiry: tests move it. */
    Builder clock(LongSupplier clock) {
      this.clock = clock;
      return this;
    }

    /** @throws IllegalArgumentException when a duration is not positive or the TTL bounds are crossed */
    public CachingResolver build() {
      return new CachingResolver(this);
    }
  }
}
