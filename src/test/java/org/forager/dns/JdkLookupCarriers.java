package org.forager.dns;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Does a JDK lookup ({@link InetAddress#getAllByName}, i.e. {@code getaddrinfo}) on a virtual thread
 * hold its carrier? Starts {@code forager.lookups} virtual threads that each look up a name the
 * system's name server never answers (or, with {@code forager.mode=future}, wait on a future as the
 * {@link CachingResolver} does), then counts the carrier threads and times another virtual thread.
 * Not a test: {@code bench/dns carriers} runs it where the name server is silent.
 */
public final class JdkLookupCarriers {

  private JdkLookupCarriers() {}

  public static void main(String[] args) throws Exception {
    boolean future = System.getProperty("forager.mode", "jdk").equals("future");
    int lookups = Integer.getInteger("forager.lookups", 4);
    CountDownLatch started = new CountDownLatch(lookups);
    long start = System.nanoTime();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < lookups; i++) {
      String name = "slow" + i + ".test";
      threads.add(Thread.ofVirtual().start(() -> {
        started.countDown();
        try {
          if (future) new CompletableFuture<Void>().get(5, TimeUnit.SECONDS);
          else InetAddress.getAllByName(name);
        } catch (Exception e) {
          // expected: no answer
        }
      }));
    }
    started.await();
    Thread.sleep(500); // every lookup has reached its blocking call
    long carriers = Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("ForkJoinPool-1-worker")).count();
    long other = System.nanoTime();
    Thread.ofVirtual().start(() -> {}).join();
    long otherMillis = (System.nanoTime() - other) / 1_000_000;
    for (Thread t : threads) t.join();
    System.out.printf(Locale.ROOT, "%s: %d lookups, %d carrier threads, another virtual thread ran after %d ms,"
        + " all done after %d ms%n", future ? "futures" : "JDK lookups", lookups, carriers, otherMillis,
        (System.nanoTime() - start) / 1_000_000);
  }
}
