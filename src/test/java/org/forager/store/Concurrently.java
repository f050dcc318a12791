package org.forager.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs a body on several threads released at once by a barrier, for the store's race tests. */
public final class Concurrently {

  private Concurrently() {}

  /** What one thread does; {@code thread} is 0 … threads − 1. */
  public interface Task<T> {
    T call(int thread) throws Exception;
  }

  public interface Body {
    void run(int thread) throws Exception;
  }

  /** Runs {@code body} on {@code threads} threads at once; rethrows the first failure. */
  public static void run(int threads, Body body) throws Exception {
    call(threads, thread -> {
      body.run(thread);
      return null;
    });
  }

  /** Runs {@code task} on {@code threads} threads at once; their results in thread order. */
  public static <T> List<T> call(int threads, Task<T> task) throws Exception {
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          start.await();
          return task.call(thread);
        }));
      }
      List<T> results = new ArrayList<>(threads);
      for (Future<T> future : futures) results.add(future.get());
      return results;
    } finally {
      pool.shutdown();
    }
  }
}
