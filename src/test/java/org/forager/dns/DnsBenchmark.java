package org.forager.dns;

import java.lang.management.ManagementFactory;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Measures the DNS layer against a {@link TestDnsServer} on loopback: lookups per second and the
 * latency of uncached and cached answers with many workers on virtual threads, then how many
 * platform threads workers waiting on name servers that never answer hold. Not a test; run by
 * {@code bench/dns}, which documents the arguments.
 */
public final class DnsBenchmark {

  private DnsBenchmark() {}

  public static void main(String[] args) throws Exception {
    int names = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int workers = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    int hanging = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
    try (TestDnsServer server = TestDnsServer.start()) {
      for (String prefix : List.of("w", "s", "n")) {
        for (int i = 0; i < names; i++) server.a(prefix + i + ".bench.test", 3600, "192.0.2." + (1 + i % 250));
      }
      CachingResolver resolver = CachingResolver.builder().servers(List.of(server.address()))
          .timeout(Duration.ofSeconds(5)).build();
      run("warm-up", resolver, "w", names, workers);
      run("uncached", resolver, "s", Math.min(names, 2_000), 1);
      run("uncached", resolver, "n", names, workers);
      run("cached", resolver, "n", names, workers);
      System.out.printf(Locale.ROOT, "resolver: %,d lookups, %,d cache hits, mean answer %.3f ms%n",
          resolver.lookups(), resolver.cacheHits(), resolver.answerNanos() / 1e6 / resolver.answered());
      hang(server, hanging);
    }
  }

  /** Each worker resolves its share of the names {@code prefix0..prefix(count-1)}, timing each call. */
  private static void run(String label, CachingResolver resolver, String prefix, int count, int workers)
      throws InterruptedException {
    long[] nanos = new long[count];
    AtomicInteger next = new AtomicInteger();
    AtomicInteger failures = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    long start = System.nanoTime();
    for (int w = 0; w < workers; w++) {
      threads.add(Thread.ofVirtual().start(() -> {
        for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
          long t = System.nanoTime();
          try {
            resolver.resolve(prefix + i + ".bench.test");
          } catch (UnknownHostException e) {
            failures.incrementAndGet();
          }
          nanos[i] = System.nanoTime() - t;
        }
      }));
    }
    for (Thread t : threads) t.join();
    double seconds = (System.nanoTime() - start) / 1e9;
    Arrays.sort(nanos);
    System.out.printf(Locale.ROOT, "%-9s %,8d resolves by %d workers in %.2f s: %,.0f/s; latency p50 %.3f ms,"
            + " p99 %.3f ms, max %.3f ms; %d failed%n", label, count, workers, seconds, count / seconds,
        nanos[count / 2] / 1e6, nanos[count * 99 / 100] / 1e6, nanos[count - 1] / 1e6, failures.get());
  }

  /** Workers on virtual threads each waiting for a name whose server never answers. */
  private static void hang(TestDnsServer server, int count) throws InterruptedException {
    for (int i = 0; i < count; i++) server.silent("h" + i + ".bench.test");
    CachingResolver resolver = CachingResolver.builder().servers(List.of(server.address()))
        .timeout(Duration.ofSeconds(3)).build();
    int before = ManagementFactory.getThreadMXBean().getThreadCount();
    int questionsBefore = server.questions();
    List<Thread> threads = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < count; i++) {
      String name = "h" + i + ".bench.test";
      threads.add(Thread.ofVirtual().start(() -> {
        try {
          resolver.resolve(name);
        } catch (UnknownHostException e) {
          // expected: timed out
        }
      }));
    }
    while (server.questions() - questionsBefore < count) Thread.onSpinWait();
    int during = ManagementFactory.getThreadMXBean().getThreadCount();
    long other = System.nanoTime();
    Thread.ofVirtual().start(() -> {}).join();
    long otherNanos = System.nanoTime() - other;
    for (Thread t : threads) t.join();
    System.out.printf(Locale.ROOT, "hanging  %,d workers waiting on a silent server: platform threads %d before,"
            + " %d while waiting; another virtual thread ran after %.3f ms; all timed out after %.2f s%n",
        count, before, during, otherNanos / 1e6, (System.nanoTime() - start) / 1e9);
  }
}
