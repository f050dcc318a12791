package org.forager.bench.jmh;

import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.forager.frontier.OriginTask;
import org.forager.frontier.Scheduler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Turns per second of the {@link Scheduler} itself: 10,000 origins, each taking 10 turns that do
 * nothing and are ready again at once, on virtual threads with the crawl's default concurrency
 * (256). What is measured is the dispatch overhead every real turn pays: the heap, the lock, the
 * hand-off to a virtual thread and back.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class SchedulerBenchmark {

  private static final int ORIGINS = 10_000;
  private static final int TURNS = 10;
  private static final int CONCURRENCY = 256;

  private ExecutorService executor;
  private List<TrivialTask> tasks;
  private final AtomicInteger failures = new AtomicInteger();

  @Setup
  public void setUp() {
    executor = Executors.newVirtualThreadPerTaskExecutor();
    tasks = IntStream.range(0, ORIGINS).mapToObj(i -> new TrivialTask()).toList();
  }

  @TearDown
  public void tearDown() throws InterruptedException {
    Scheduler.shutdown(executor);
  }

  @Benchmark
  @OperationsPerInvocation(ORIGINS * TURNS)
  public void run() throws InterruptedException {
    for (TrivialTask task : tasks) task.left = TURNS;
    Scheduler scheduler = new Scheduler(CONCURRENCY, executor, () -> false, (task, e) -> failures.incrementAndGet());
    scheduler.run(tasks);
    for (TrivialTask task : tasks) {
      if (task.left != 0) throw new IllegalStateException("a task did not take all its turns");
    }
    if (failures.get() != 0) throw new IllegalStateException(failures.get() + " turns failed");
  }

  /** Ready again at once until its turns are used up. */
  private static final class TrivialTask implements OriginTask {
    int left;

    @Override
    public OptionalLong turn() {
      return --left > 0 ? OptionalLong.of(System.nanoTime()) : OptionalLong.empty();
    }
  }
}
