package org.forager.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class CachingResolverTest {

  private static final Duration TTL = Duration.ofMinutes(5);
  private static final Duration NEGATIVE_TTL = Duration.ofMinutes(1);
  private static final Duration TIMEOUT = Duration.ofMillis(300);

  private final FakeDns dns = new FakeDns();
  /** The cache's clock, moved by the tests: expiry is never waited for. */
  private final AtomicLong now = new AtomicLong(1_000_000_000L);

  @AfterEach
  void releaseHangingLookups() {
    dns.release();
  }

  private CachingResolver resolver(int maxNames) {
    return resolver(maxNames, TIMEOUT);
  }

  private CachingResolver resolver(int maxNames, Duration timeout) {
    return CachingResolver.builder().over(dns).fallbackTtl(TTL).negativeTtl(NEGATIVE_TTL).timeout(timeout)
        .maxNames(maxNames).clock(now::get).build();
  }

  private void advance(Duration duration) {
    now.addAndGet(duration.toNanos());
  }

  @Test
  void answersAreReusedWithinTheTtlAndAskedAgainAfter() throws UnknownHostException {
    CachingResolver resolver = resolver(100);
    List<InetAddress> first = resolver.resolve("a.test");
    advance(TTL.minusSeconds(1));
    assertEquals(first, resolver.resolve("a.test"));
    assertEquals(first, resolver.resolve("A.Test"));
    assertEquals(1, dns.asked("a.test"));

    advance(Duration.ofSeconds(1));
    List<InetAddress> refreshed = resolver.resolve("a.test");
    assertEquals(2, dns.asked("a.test"));
    assertTrue(!refreshed.equals(first), "the fresh answer is the one given");
    assertEquals(2, resolver.lookups());
    assertEquals(2, resolver.cacheHits());
    assertEquals(2, resolver.answered(), "two answers timed, for the mean latency");
    assertTrue(resolver.answerNanos() > 0);
  }

  @Test
  void failuresAreCachedForTheNegativeTtl() {
    dns.failing("gone.test", "gone.test: Name or service not known");
    CachingResolver resolver = resolver(100);
    assertEquals("gone.test: Name or service not known",
        assertThrows(UnknownHostException.class, () -> resolver.resolve("gone.test")).getMessage());
    advance(NEGATIVE_TTL.minusSeconds(1));
    assertEquals("gone.test: Name or service not known",
        assertThrows(UnknownHostException.class, () -> resolver.resolve("gone.test")).getMessage());
    assertEquals(1, dns.asked("gone.test"));
    assertEquals(1, resolver.negativeHits());

    advance(Duration.ofSeconds(1));
    assertThrows(UnknownHostException.class, () -> resolver.resolve("gone.test"));
    assertEquals(2, dns.asked("gone.test"));
  }

  @Test
  void aHangingLookupFailsAtTheTimeoutAndIsNotAskedAgainAtOnce() {
    dns.hanging("slow.test");
    CachingResolver resolver = resolver(100);
    long start = System.nanoTime();
    UnknownHostException e = assertThrows(UnknownHostException.class, () -> resolver.resolve("slow.test"));
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertEquals("slow.test: DNS lookup timed out after 300 ms", e.getMessage());
    assertTrue(took.compareTo(TIMEOUT) >= 0, "waited the timeout, took " + took);
    assertTrue(took.compareTo(TIMEOUT.plusSeconds(2)) < 0, "bounded by the timeout, took " + took);
    assertEquals(1, resolver.timeouts());

    // The timeout is remembered as a failure: the next worker is not held as well.
    start = System.nanoTime();
    assertThrows(UnknownHostException.class, () -> resolver.resolve("slow.test"));
    assertTrue(System.nanoTime() - start < TIMEOUT.toNanos(), "answered from the negative cache");
    assertEquals(1, dns.asked("slow.test"));
    assertEquals(1, resolver.negativeHits());
  }

  @Test
  void lookupsQueuedBehindHangingOnesAreBoundedToo() {
    CachingResolver resolver = resolver(100);
    // Every lookup thread hangs; the names after them wait in the queue, and give up all the same.
    List<String> names = new ArrayList<>();
    for (int i = 0; i < BlockingLookup.THREADS + 3; i++) {
      names.add("hang" + i + ".test");
      dns.hanging("hang" + i + ".test");
    }
    List<Thread> callers = new ArrayList<>();
    ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    long start = System.nanoTime();
    for (String name : names) {
      callers.add(Thread.ofPlatform().start(() -> {
        try {
          resolver.resolve(name);
        } catch (UnknownHostException e) {
          failures.add(e.getMessage());
        }
      }));
    }
    callers.forEach(CachingResolverTest::join);
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertEquals(names.size(), failures.size());
    assertTrue(failures.stream().allMatch(message -> message.endsWith("timed out after 300 ms")), failures.toString());
    assertTrue(took.compareTo(TIMEOUT.plusSeconds(2)) < 0, "bounded by the timeout, took " + took);
    assertEquals(names.size(), resolver.timeouts());
  }

  @Test
  void concurrentLookupsOfOneNameMakeOneCall() throws Exception {
    dns.hanging("busy.test");
    CachingResolver resolver = resolver(100, Duration.ofSeconds(15));
    ConcurrentLinkedQueue<List<InetAddress>> answers = new ConcurrentLinkedQueue<>();
    List<Thread> callers = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      callers.add(Thread.ofPlatform().start(() -> {
        try {
          answers.add(resolver.resolve("busy.test"));
        } catch (UnknownHostException e) {
          throw new AssertionError(e);
        }
      }));
    }
    // All twenty wait on the one lookup (a timed wait: the only one on their path) before it answers.
    while (!callers.stream().allMatch(t -> t.getState() == Thread.State.TIMED_WAITING)) Thread.onSpinWait();
    dns.release();
    callers.forEach(CachingResolverTest::join);

    assertEquals(1, dns.asked("busy.test"));
    assertEquals(20, answers.size());
    assertEquals(1, answers.stream().distinct().count());
    assertEquals(1, resolver.lookups());
    assertEquals(0, resolver.cacheHits());
  }

  @Test
  void theCacheKeepsAtMostMaxNamesEvictingTheOldest() throws UnknownHostException {
    CachingResolver resolver = resolver(3);
    for (String name : List.of("a.test", "b.test", "c.test", "d.test")) resolver.resolve(name);
    for (String name : List.of("b.test", "c.test", "d.test")) resolver.resolve(name);
    assertEquals(3, resolver.cacheHits());
    resolver.resolve("a.test");
    assertEquals(2, dns.asked("a.test"));
    assertEquals(5, resolver.lookups());
  }

  @Test
  void pinnedNamesAreAnsweredBeforeTheCacheAndNeverCached() throws UnknownHostException {
    CachingResolver cache = resolver(100);
    InetAddress pinned = IpLiterals.parse("10.0.0.5").orElseThrow();
    Resolver resolver = Resolver.pinned(Map.of("staging.test", List.of(pinned)), cache);

    assertEquals(List.of(pinned), resolver.resolve("staging.test"));
    assertEquals(List.of(pinned), resolver.resolve("staging.test"));
    assertEquals(0, dns.asked("staging.test"));
    assertEquals(0, cache.lookups() + cache.cacheHits());
  }

  private static void join(Thread thread) {
    try {
      thread.join();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
