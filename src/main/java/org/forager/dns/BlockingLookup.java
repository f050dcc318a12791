package org.forager.dns;

import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * An {@link AddressLookup} over a blocking {@link Resolver} (the system's {@code getaddrinfo}): each
 * lookup runs on a small pool of platform threads, so that it holds one of those rather than a
 * crawl worker's carrier thread. Its answers carry no TTL. A lookup cancelled while queued is taken
 * off the queue; one already running keeps its thread until the resolver returns (a blocked {@code
 * getaddrinfo} cannot be interrupted). Thread-safe.
 */
final class BlockingLookup implements AddressLookup {

  /** Lookups at once: DNS is latency, not work, but a resolver flooded by one crawler answers worse. */
  static final int THREADS = 8;

  private final Resolver resolver;
  private final ThreadPoolExecutor pool;

  BlockingLookup(Resolver resolver) {
    this.resolver = resolver;
    this.pool = new ThreadPoolExecutor(THREADS, THREADS, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        Thread.ofPlatform().daemon().name("forager-dns-", 0).factory());
    // Idle threads end, so an unused lookup holds none and needs no close.
    pool.allowCoreThreadTimeOut(true);
  }

  @Override
  public CompletableFuture<Found> lookup(String name) {
    Pending pending = new Pending(name);
    pool.execute(pending.task);
    return pending;
  }

  /** One lookup: the future handed out, completed by the task that runs it on the pool. */
  private final class Pending extends CompletableFuture<Found> {
    final FutureTask<Found> task;

    Pending(String name) {
      this.task = new FutureTask<>(() -> new Found(resolver.resolve(name), Optional.empty())) {
        @Override
        protected void done() {
          settle(this);
        }
      };
    }

    private void settle(FutureTask<Found> done) {
      try {
        complete(done.get());
      } catch (ExecutionException e) {
        completeExceptionally(e.getCause());
      } catch (CancellationException | InterruptedException e) {
        // Cancelled through this future, which is cancelled already.
      }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      task.cancel(true);
      pool.remove(task); // off the queue if it never started
      return super.cancel(mayInterruptIfRunning);
    }
  }

  @Override
  public String toString() {
    return resolver.toString();
  }
}
