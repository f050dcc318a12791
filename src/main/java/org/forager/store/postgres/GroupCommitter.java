package org.forager.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.forager.store.LeaseLostException;
import org.forager.store.StoreException;
import org.forager.store.StoreUnavailableException;
import org.forager.url.Origin;

/**
 * Group commit for the PostgreSQL store, as {@code store.GroupCommit} is for the embedded one: many
 * callers' work in one transaction, so that a fleet commits (and flushes the write-ahead log) once
 * per group rather than once per call.
 *
 * <p>A caller hands its work to {@link #submit} and waits. One thread of the store's, the
 * committer, takes the first call waiting, gathers the calls that arrive within {@code maxWait} of
 * it (those that queued while the previous group committed are there already), at most {@code
 * maxGroup}, and runs them in queue order on one connection in one transaction: the result of each
 * is what running the calls one at a time in that order would give. Each caller returns once that
 * transaction committed (so "returned" still means "committed"), with its own result or exception.
 *
 * <p>Fencing is per call: the group first locks the lease rows of the origins its fenced calls
 * write ({@link LeaseTable#fence(Connection, Set)}, one statement); a call whose origin's epoch
 * moved is not run and gets a {@link LeaseLostException}, the others go on. A call whose work fails
 * otherwise aborts the transaction; its group is then run again one call per transaction, so the
 * failure is its caller's alone. A server that cannot be reached fails the whole group with {@link
 * StoreUnavailableException} (nothing is retried then: a commit cut off may have happened).
 *
 * <p>A group of several calls waits at most {@value #LOCK_TIMEOUT} for any row lock (PostgreSQL's
 * {@code lock_timeout}): another process's group holding rows this one needs (a URL both discovered,
 * a link into an origin the other is crawling) is waited for briefly, the group then run again, and
 * after {@value #LOCK_ATTEMPTS} attempts its calls one per transaction, as before group commit. So two
 * processes' groups never wait on each other for long, nor deadlock for PostgreSQL's one second of
 * {@code deadlock_timeout}.
 *
 * <p>Thread-safe. {@link #close} fails the calls still waiting.
 */
final class GroupCommitter implements AutoCloseable {

  /** How groups are gathered: at most {@code maxGroup} calls, waiting at most {@code maxWait} for more. */
  record Options(int maxGroup, Duration maxWait) {
    /**
     * The store's: 20 ms is a twentieth of a typical crawl delay, and gathers the calls of a few
     * hundred origins under way into a handful of transactions a second.
     */
    static final Options DEFAULT = new Options(256, Duration.ofMillis(20));

    Options {
      if (maxGroup < 1) throw new IllegalArgumentException("maxGroup must be at least 1");
      if (maxWait.isNegative()) throw new IllegalArgumentException("maxWait must not be negative");
    }
  }

  /** The longest a group of several calls waits for a row lock. */
  static final String LOCK_TIMEOUT = "100ms";
  /** Attempts of a group that found its rows locked before its calls run one per transaction. */
  static final int LOCK_ATTEMPTS = 3;

  private final Database database;
  private final LeaseTable leases;
  private final Options options;
  private final LinkedBlockingQueue<Call<?>> queue = new LinkedBlockingQueue<>();
  private final AtomicLong transactions = new AtomicLong();
  private final Thread committer;
  private volatile boolean closed;

  GroupCommitter(Database database, LeaseTable leases, Options options) {
    this.database = database;
    this.leases = leases;
    this.options = options;
    this.committer = Thread.ofPlatform().daemon().name("forager-store-commit").start(this::commitLoop);
  }

  /**
   * Runs {@code work} in the next group's transaction and returns its result once that committed.
   * Waits without being interruptible: a call handed over may commit, so its caller learns how it
   * ended.
   *
   * @param fenced the origin whose lease the work depends on ({@link LeaseTable#fence}), or empty
   * @param work must have no effect but its statements: it may run again (a deadlock retried, the
   *     group run again call by call)
   * @throws LeaseLostException when {@code fenced} was claimed by another process since
   * @throws StoreUnavailableException when the server cannot be reached
   * @throws IllegalStateException after {@link #close}
   */
  <T> T submit(Optional<String> fenced, Database.Work<T> work) {
    Call<T> call = new Call<>(fenced.orElse(null), work);
    if (closed) throw closedException();
    queue.add(call);
    if (closed && queue.remove(call)) throw closedException(); // raced with close: nobody will run it
    try {
      return call.result.join();
    } catch (CompletionException e) {
      throw rethrown(e.getCause());
    }
  }

  /** Transactions committed by groups so far (each one commit; for tests and measurements). */
  long transactions() {
    return transactions.get();
  }

  @Override
  public void close() {
    closed = true;
    committer.interrupt();
    try {
      committer.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Call<?> call; (call = queue.poll()) != null; ) call.result.completeExceptionally(closedException());
  }

  private void commitLoop() {
    while (!closed) {
      List<Call<?>> group;
      try {
        group = gather();
      } catch (InterruptedException e) {
        return; // closing
      }
      try {
        run(group);
      } catch (Throwable e) {
        // An Error (out of memory): no caller of the group may wait for ever.
        for (Call<?> call : group) call.result.completeExceptionally(e);
        if (e instanceof Error error) throw error;
      }
    }
  }

  /** The next group: the first call waiting, and what arrives within maxWait of it. */
  private List<Call<?>> gather() throws InterruptedException {
    Call<?> first = queue.take();
    List<Call<?>> group = new ArrayList<>();
    group.add(first);
    long deadline = first.queuedAt + options.maxWait().toNanos();
    while (group.size() < options.maxGroup()) {
      long left = deadline - System.nanoTime();
      Call<?> next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : queue.poll();
      if (next == null) break;
      group.add(next);
    }
    return group;
  }

  private void run(List<Call<?>> group) {
    int[] attempts = {0};
    try {
      database.inTransaction(connection -> {
        if (group.size() > 1) {
          if (++attempts[0] > LOCK_ATTEMPTS) throw new GroupTooContended();
          try (var limit = connection.createStatement()) {
            limit.execute("SET LOCAL lock_timeout = '" + LOCK_TIMEOUT + "'");
          }
        }
        runAll(connection, group);
        return null;
      });
      transactions.incrementAndGet();
      for (Call<?> call : group) call.complete();
    } catch (StoreUnavailableException | IllegalStateException e) {
      for (Call<?> call : group) call.result.completeExceptionally(e);
    } catch (RuntimeException e) {
      if (group.size() == 1 && !(e instanceof GroupTooContended)) {
        group.get(0).result.completeExceptionally(e);
        return;
      }
      // One call's failure must not be the others': each alone, in its own transaction.
      for (Call<?> call : group) run(List.of(call));
    }
  }

  /** Runs the calls in queue order in one transaction; a refused fence skips its call. */
  private void runAll(Connection connection, List<Call<?>> group) throws SQLException {
    Set<String> fencedOrigins = new LinkedHashSet<>();
    for (Call<?> call : group) {
      call.reset(); // a retried transaction starts over
      if (call.fenced != null) fencedOrigins.add(call.fenced);
    }
    Set<String> refused = fencedOrigins.isEmpty() ? Set.of() : leases.fence(connection, fencedOrigins);
    for (Call<?> call : group) {
      if (call.fenced != null && refused.contains(call.fenced)) {
        call.refused = true;
      } else {
        call.run(connection);
      }
    }
  }

  private IllegalStateException closedException() {
    return new IllegalStateException("the crawl database " + database.name + " is closed");
  }

  /**
   * The exception a caller throws: a fresh one of the same kind where the group shared one, so that
   * callers on many threads never share (and add suppressed exceptions to) one instance.
   */
  private static RuntimeException rethrown(Throwable e) {
    return switch (e) {
      case LeaseLostException lost -> lost;
      case StoreUnavailableException u -> new StoreUnavailableException(u.getMessage(), u);
      case StoreException s -> new StoreException(s.getMessage(), s);
      case IllegalStateException s -> new IllegalStateException(s.getMessage(), s);
      case RuntimeException r -> r;
      case Error error -> throw error;
      default -> new StoreException(String.valueOf(e.getMessage()), e);
    };
  }

  /** A group that kept finding rows locked by others: its calls go one per transaction. */
  private static final class GroupTooContended extends RuntimeException {
    private static final long serialVersionUID = 1L;

    GroupTooContended() {
      super("too contended", null, false, false);
    }
  }

  /** One caller's work and how it ended. */
  private static final class Call<T> {
    final String fenced;
    final Database.Work<T> work;
    final long queuedAt = System.nanoTime();
    final CompletableFuture<T> result = new CompletableFuture<>();
    T value;
    boolean refused;

    Call(String fenced, Database.Work<T> work) {
      this.fenced = fenced;
      this.work = work;
    }

    void reset() {
      value = null;
      refused = false;
    }

    void run(Connection connection) throws SQLException {
      value = work.run(connection);
    }

    /** After the commit: the caller's result, or its refusal. */
    void complete() {
      if (refused) {
        result.completeExceptionally(new LeaseLostException(Origin.ofUrl(fenced)));
      } else {
        result.complete(value);
      }
    }
  }
}
