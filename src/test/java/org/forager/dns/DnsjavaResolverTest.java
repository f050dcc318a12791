package org.forager.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link CachingResolver} over dnsjava, asking a {@link TestDnsServer} on loopback: record TTLs
 * honoured and clamped, negative answers, deadlines, CNAME chains, the hosts file, a second server.
 */
@Timeout(30)
class DnsjavaResolverTest {

  private static final Duration MIN_TTL = Duration.ofMinutes(1);
  private static final Duration MAX_TTL = Duration.ofHours(1);
  private static final Duration NEGATIVE_TTL = Duration.ofSeconds(30);
  private static final Duration FALLBACK_TTL = Duration.ofMinutes(5);

  private final TestDnsServer server = start();
  /** The cache's clock, moved by the tests: expiry is never waited for. */
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  @TempDir
  Path dir;

  @AfterEach
  void stop() {
    server.close();
  }

  private CachingResolver.Builder resolver(InetSocketAddress... servers) throws IOException {
    return CachingResolver.builder().servers(servers.length == 0 ? List.of(server.address()) : List.of(servers))
        .hostsFile(Files.writeString(dir.resolve("hosts"), "# nothing\n"))
        .ttlBounds(MIN_TTL, MAX_TTL).fallbackTtl(FALLBACK_TTL).negativeTtl(NEGATIVE_TTL)
        .timeout(Duration.ofSeconds(5)).clock(now::get);
  }

  private void advance(Duration duration) {
    now.addAndGet(duration.toNanos());
  }

  @Test
  void answersAreKeptForTheirRecordsTtl() throws Exception {
    server.a("a.test", 300, "192.0.2.1");
    CachingResolver resolver = resolver().build();
    assertEquals(List.of(ip("192.0.2.1")), resolver.resolve("a.test"));
    int asked = server.asked("a.test"); // A and AAAA

    advance(Duration.ofSeconds(299));
    assertEquals(List.of(ip("192.0.2.1")), resolver.resolve("a.test"));
    assertEquals(asked, server.asked("a.test"), "reused within the TTL");

    advance(Duration.ofSeconds(1));
    resolver.resolve("a.test");
    assertEquals(2 * asked, server.asked("a.test"), "asked again when the TTL ran out");
    assertEquals(2, resolver.lookups());
    assertEquals(1, resolver.cacheHits());
    assertEquals(2, resolver.answered());
  }

  @Test
  void aShortTtlIsRaisedToTheMinimum() throws Exception {
    server.a("cdn.test", 5, "192.0.2.2");
    CachingResolver resolver = resolver().build();
    resolver.resolve("cdn.test");
    advance(MIN_TTL.minusSeconds(1));
    resolver.resolve("cdn.test");
    assertEquals(1, resolver.lookups(), "kept for min_ttl, not 5 s");
    advance(Duration.ofSeconds(1));
    resolver.resolve("cdn.test");
    assertEquals(2, resolver.lookups());
  }

  @Test
  void aLongTtlIsCutToTheMaximum() throws Exception {
    server.a("stable.test", 86_400, "192.0.2.3");
    CachingResolver resolver = resolver().build();
    resolver.resolve("stable.test");
    advance(MAX_TTL.minusSeconds(1));
    resolver.resolve("stable.test");
    assertEquals(1, resolver.lookups());
    advance(Duration.ofSeconds(1));
    resolver.resolve("stable.test");
    assertEquals(2, resolver.lookups(), "asked again after max_ttl, not a day");
  }

  @Test
  void theLeastTtlOfTheAnswerCounts() throws Exception {
    server.a("both.test", 600, "192.0.2.4").aaaa("both.test", 120, "2001:db8::4");
    CachingResolver resolver = resolver().build();
    assertEquals(List.of(ip("192.0.2.4"), ip("2001:db8::4")), resolver.resolve("both.test"), "IPv4 first");
    advance(Duration.ofSeconds(120));
    resolver.resolve("both.test");
    assertEquals(2, resolver.lookups());
  }

  @Test
  void anIpv6OnlyNameResolves() throws Exception {
    server.aaaa("six.test", 300, "2001:db8::6");
    assertEquals(List.of(ip("2001:db8::6")), resolver().build().resolve("six.test"));
  }

  @Test
  void aNameThatDoesNotExistIsCachedForTheNegativeTtl() throws Exception {
    CachingResolver resolver = resolver().build();
    assertEquals("gone.test: no such domain (NXDOMAIN)",
        assertThrows(NoSuchHostException.class, () -> resolver.resolve("gone.test")).getMessage());
    int asked = server.asked("gone.test");
    advance(NEGATIVE_TTL.minusSeconds(1));
    assertEquals("gone.test: no such domain (NXDOMAIN)",
        assertThrows(NoSuchHostException.class, () -> resolver.resolve("gone.test")).getMessage(),
        "from the negative cache, still an answer about the name");
    assertEquals(asked, server.asked("gone.test"));
    assertEquals(1, resolver.negativeHits());
    advance(Duration.ofSeconds(1));
    assertThrows(UnknownHostException.class, () -> resolver.resolve("gone.test"));
    assertEquals(2 * asked, server.asked("gone.test"));
  }

  @Test
  void aNameWithoutAddressesIsANegativeAnswer() throws Exception {
    server.exists("mail-only.test");
    CachingResolver resolver = resolver().build();
    assertEquals("mail-only.test: no address (no A or AAAA record)",
        assertThrows(NoSuchHostException.class, () -> resolver.resolve("mail-only.test")).getMessage());
    assertThrows(NoSuchHostException.class, () -> resolver.resolve("mail-only.test"));
    assertEquals(1, resolver.negativeHits());
  }

  @Test
  void aServerFailureIsADnsErrorCachedNegatively() throws Exception {
    server.servfail("broken.test");
    CachingResolver resolver = resolver().build();
    UnknownHostException first = assertThrows(UnknownHostException.class, () -> resolver.resolve("broken.test"));
    assertEquals("broken.test: DNS server failure (SERVFAIL)", first.getMessage());
    assertFalse(first instanceof NoSuchHostException, "a failure of the servers says nothing about the name");
    assertFalse(assertThrows(UnknownHostException.class, () -> resolver.resolve("broken.test"))
        instanceof NoSuchHostException);
    assertEquals(1, resolver.lookups());
    assertEquals(1, resolver.negativeHits());
  }

  @Test
  void aServerThatNeverAnswersIsBoundedByTheDeadline() throws Exception {
    server.silent("slow.test");
    Duration timeout = Duration.ofMillis(400);
    CachingResolver resolver = resolver().timeout(timeout).build();
    long start = System.nanoTime();
    UnknownHostException e = assertThrows(UnknownHostException.class, () -> resolver.resolve("slow.test"));
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertEquals("slow.test: DNS lookup timed out after 400 ms", e.getMessage());
    assertTrue(took.compareTo(timeout) >= 0, "waited the deadline, took " + took);
    assertTrue(took.compareTo(timeout.plusSeconds(2)) < 0, "bounded by the deadline, took " + took);
    assertEquals(1, resolver.timeouts());
    start = System.nanoTime();
    assertThrows(UnknownHostException.class, () -> resolver.resolve("slow.test"));
    assertTrue(System.nanoTime() - start < timeout.toNanos(), "answered from the negative cache");
  }

  @Test
  void aCnameChainIsFollowed() throws Exception {
    server.cname("www.shop.test", 3600, "shop.cdn.test").cname("shop.cdn.test", 3600, "edge7.cdn.test")
        .a("edge7.cdn.test", 90, "192.0.2.77");
    CachingResolver resolver = resolver().build();
    assertEquals(List.of(ip("192.0.2.77")), resolver.resolve("www.shop.test"));
    advance(Duration.ofSeconds(90));
    resolver.resolve("www.shop.test");
    assertEquals(2, resolver.lookups(), "the address record's TTL counts");
  }

  @Test
  void hostsFileNamesAreAnsweredWithoutAskingDnsAndKeptForTheFallbackTtl() throws Exception {
    Path hosts = Files.writeString(dir.resolve("my-hosts"), "127.0.0.1 localhost\n::1 localhost ip6-localhost\n"
        + "10.1.2.3 intranet.test # a comment\n");
    CachingResolver resolver = resolver().hostsFile(hosts).build();
    assertEquals(List.of(ip("127.0.0.1"), ip("::1")), resolver.resolve("localhost"));
    assertEquals(List.of(ip("10.1.2.3")), resolver.resolve("intranet.test"));
    assertEquals(0, server.questions());
    advance(FALLBACK_TTL.minusSeconds(1));
    resolver.resolve("localhost");
    assertEquals(2, resolver.lookups());
    advance(Duration.ofSeconds(1));
    resolver.resolve("localhost");
    assertEquals(3, resolver.lookups());
  }

  @Test
  void localhostResolvesWithTheSystemsHostsFile() throws Exception {
    // The default hosts file (/etc/hosts); DNS pointed at the test server so nothing leaves the machine.
    CachingResolver resolver = CachingResolver.builder().servers(List.of(server.address())).build();
    List<InetAddress> addresses = resolver.resolve("localhost");
    assertTrue(!addresses.isEmpty() && addresses.stream().allMatch(InetAddress::isLoopbackAddress),
        addresses.toString());
    assertEquals(0, server.questions());
  }

  @Test
  void aSecondServerAnswersWhenTheFirstDoesNot() throws Exception {
    try (TestDnsServer down = TestDnsServer.start().silentForAll()) {
      server.a("a.test", 300, "192.0.2.1");
      // Two servers, two attempts each: an attempt waits a quarter of the deadline.
      CachingResolver resolver = resolver(down.address(), server.address()).timeout(Duration.ofSeconds(4)).build();
      long start = System.nanoTime();
      assertEquals(List.of(ip("192.0.2.1")), resolver.resolve("a.test"));
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertTrue(down.questions() > 0, "the first server was asked");
      assertTrue(took.compareTo(Duration.ofSeconds(3)) < 0, "answered by the second within the deadline: " + took);
    }
  }

  @Test
  void namesThatAreNotDnsNamesFailCleanly() throws Exception {
    CachingResolver resolver = resolver().build();
    UnknownHostException e = assertThrows(UnknownHostException.class,
        () -> resolver.resolve("a".repeat(64) + ".test"));
    assertTrue(e.getMessage().endsWith("not a DNS name"), e.getMessage());
  }

  @Test
  void aHealthyNameResolvesWhileManyLookupsHang() throws Exception {
    // Over the system resolver, eight hanging lookups filled the lookup pool: every name queued
    // behind them timed out as DNS_ERROR, and was cached as a failure, though its server answered.
    for (int i = 0; i < 3 * BlockingLookup.THREADS; i++) server.silent("dead" + i + ".test");
    server.a("healthy.test", 300, "192.0.2.8");
    CachingResolver resolver = resolver().timeout(Duration.ofSeconds(3)).build();
    List<Thread> stuck = new ArrayList<>();
    for (int i = 0; i < 3 * BlockingLookup.THREADS; i++) {
      String name = "dead" + i + ".test";
      stuck.add(Thread.ofVirtual().start(() -> assertThrows(UnknownHostException.class, () -> resolver.resolve(name))));
    }
    while (server.questions() < 3 * BlockingLookup.THREADS) Thread.onSpinWait();
    long start = System.nanoTime();
    assertEquals(List.of(ip("192.0.2.8")), resolver.resolve("healthy.test"));
    assertTrue(System.nanoTime() - start < Duration.ofSeconds(1).toNanos(), "answered without waiting for the others");
    for (Thread t : stuck) t.join();
  }

  @Test
  void hangingLookupsHoldNoThread() throws Exception {
    // Two hundred workers on virtual threads, each waiting for a name whose server never answers:
    // with the JDK resolver each would hold a carrier thread (up to 256); here none is held.
    for (int i = 0; i < 200; i++) server.silent("hang" + i + ".test");
    CachingResolver resolver = resolver().timeout(Duration.ofSeconds(2)).build();
    int platformThreadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
    ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      String name = "hang" + i + ".test";
      workers.add(Thread.ofVirtual().start(() -> {
        try {
          resolver.resolve(name);
        } catch (UnknownHostException e) {
          failures.add(e.getMessage());
        }
      }));
    }
    while (server.questions() < 200) Thread.onSpinWait(); // every lookup is waiting for its answer
    int platformThreadsWaiting = ManagementFactory.getThreadMXBean().getThreadCount();
    // Meanwhile another worker runs at once.
    long start = System.nanoTime();
    Thread.ofVirtual().start(() -> {}).join();
    long otherNanos = System.nanoTime() - start;
    for (Thread worker : workers) worker.join();

    assertEquals(200, failures.size());
    assertTrue(platformThreadsWaiting - platformThreadsBefore < 16,
        "threads before " + platformThreadsBefore + ", while waiting " + platformThreadsWaiting);
    assertTrue(otherNanos < Duration.ofSeconds(1).toNanos(), "another worker waited " + otherNanos / 1_000_000 + " ms");
  }

  private static TestDnsServer start() {
    try {
      return TestDnsServer.start();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static InetAddress ip(String literal) {
    return IpLiterals.parse(literal).orElseThrow();
  }
}
