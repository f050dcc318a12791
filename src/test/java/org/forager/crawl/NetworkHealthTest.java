package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.forager.fetch.FetchResult;
import org.junit.jupiter.api.Test;

/** When the crawler's own network counts as down, and when not. */
class NetworkHealthTest {

  private final List<String> notes = new ArrayList<>();
  /** A probe interval that never ends within a test (the crawl's probes: NetworkOutageCrawlTest). */
  private final NetworkHealth health = new NetworkHealth(Long.MAX_VALUE / 4, notes::add);

  private static InetSocketAddress ip(String address) {
    try {
      return new InetSocketAddress(InetAddress.getByName(address), 80);
    } catch (java.net.UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  private static FetchResult failure(FetchResult.FailureKind kind, String message, boolean unconnected) {
    return new FetchResult.Failure("http://x/", Instant.EPOCH, 1, kind, message, unconnected);
  }

  private static FetchResult refused() {
    return failure(FetchResult.FailureKind.NETWORK, "ConnectException: Connection refused", true);
  }

  private static FetchResult answer() {
    return failure(FetchResult.FailureKind.TLS, "certificate expired", false); // a server was reached
  }

  /** {@code n} addresses 192.0.2.0 … answer: a crawl that busy. */
  private void answerFrom(int n) {
    for (int i = 0; i < n; i++) health.observe(ip("192.0.2." + i), "h" + i + ".test", answer());
  }

  @Test
  void aThousandDeadSitesInARowAreNoOutage() {
    answerFrom(20);
    for (int i = 0; i < 1_000; i++) assertFalse(health.observe(ip("10.0.0." + (i % 250)), "dead" + i + ".test", refused()));
    assertFalse(health.down());
    assertTrue(health.mayRequest());
  }

  @Test
  void aFewSitesThatAllDieAreNoOutage() {
    answerFrom(3);
    for (int i = 0; i < 3; i++) assertFalse(health.observe(ip("192.0.2." + i), "h" + i + ".test", refused()));
    assertFalse(health.down(), "three sites dying look like an outage, and must not hold the crawl");
  }

  @Test
  void halfTheGoodAddressesTakingNoConnectionAreAnOutageUntilAnyServerAnswers() {
    answerFrom(12);
    for (int i = 0; i < 5; i++) {
      assertFalse(health.observe(ip("192.0.2." + i), "h" + i + ".test", refused()), "good failure " + (i + 1));
    }
    assertFalse(health.observe(ip("192.0.2.0"), "h0.test", refused()), "one address twice is one");
    assertFalse(health.observe(ip("192.0.2.1"), "h1.test",
        failure(FetchResult.FailureKind.TIMEOUT, "read timed out", false)), "a timeout after a connect: neither way");
    assertTrue(health.observe(ip("192.0.2.5"), "h5.test", refused()), "the sixth of twelve");
    assertTrue(health.down());
    assertFalse(health.mayRequest(), "the turns wait for the first probe, a probe interval on");
    assertTrue(health.observe(ip("192.0.2.7"), "never.test", refused()), "held: any failure is the network's");

    assertFalse(health.observe(ip("198.51.100.1"), "other.test", answer()));
    assertFalse(health.down());
    assertTrue(health.mayRequest());
    assertEquals(1, notes.size());
    assertTrue(notes.get(0).startsWith("the network was down for "), notes.toString());
  }

  @Test
  void anAnswerBetweenTheFailuresStartsTheCountAgain() {
    answerFrom(12);
    for (int i = 0; i < 5; i++) health.observe(ip("192.0.2." + i), "h" + i + ".test", refused());
    // A reset comes after a connect: a server was there.
    health.observe(ip("192.0.2.11"), "h11.test", failure(FetchResult.FailureKind.NETWORK, "Connection reset", false));
    assertFalse(health.observe(ip("192.0.2.5"), "h5.test", refused()));
    assertFalse(health.down());
  }

  @Test
  void failedLookupsOfNamesThatResolvedLatelyCountAndNamesThatDoNotExistDoNot() {
    answerFrom(12);
    for (int i = 0; i < 6; i++) {
      assertFalse(health.observe(null, "h" + i + ".test", failure(FetchResult.FailureKind.NO_SUCH_HOST, "NXDOMAIN", true)));
    }
    assertFalse(health.down(), "the name servers answered");
    for (int i = 0; i < 6; i++) {
      health.observe(null, "h" + i + ".test", failure(FetchResult.FailureKind.DNS, "DNS server failure (SERVFAIL)", false));
    }
    assertTrue(health.down());
  }

  @Test
  void aRunEndingWhileHeldSaysSoInItsSummary() {
    answerFrom(12);
    for (int i = 0; i < 6; i++) health.observe(ip("192.0.2." + i), "h" + i + ".test", refused());
    assertTrue(health.down());
    health.runEnded();
    assertEquals(1, notes.size());
    assertTrue(notes.get(0).startsWith("the run ended while the network looked down"), notes.toString());
  }
  private static FetchResult unreachable() {
    return failure(FetchResult.FailureKind.NETWORK, "NoRouteToHostException: No route to host", true);
  }

  @Test
  void beforeAnyAnswerThreeHostsFailingHoldTheCrawlSilentlyUntilAProbeGoesOut() {
    assertFalse(health.observe(ip("192.0.2.1"), "a.test", unreachable()));
    assertFalse(health.observe(null, "b.test", failure(FetchResult.FailureKind.DNS, "DNS server failure (SERVFAIL)", false)));
    assertFalse(health.observe(ip("192.0.2.9"), "a.test", unreachable()), "one host twice is one, whatever its address");
    assertTrue(health.observe(ip("192.0.2.3"), "c.test", unreachable()), "three hosts, none answered: down from the start");
    assertTrue(health.down());
    assertFalse(health.observe(ip("192.0.2.4"), "d.test", answer()));
    assertFalse(health.down(), "an answer ends it");
    assertEquals(List.of(), notes, "never announced (no probe went out): dead seeds, not the network");
    for (int i = 0; i < 10; i++) assertFalse(health.observe(ip("10.0.0." + i), "dead" + i + ".test", unreachable()));
    assertFalse(health.down(), "once a server answered, only addresses known good count");
  }

  @Test
  void beforeAnyAnswerRefusedConnectsAreDeadSitesNotTheNetwork() {
    for (int i = 0; i < 10; i++) assertFalse(health.observe(ip("192.0.2." + i), "h" + i + ".test", refused()));
    assertFalse(health.down(), "a host sent each reset: the network works");
  }

  @Test
  void aHoldFromTheStartIsAnnouncedAtItsFirstProbeAndNotedWhenItEnds() {
    NetworkHealth probing = new NetworkHealth(0, notes::add);
    for (int i = 0; i < 3; i++) probing.observe(ip("192.0.2." + i), "h" + i + ".test", unreachable());
    assertTrue(probing.down());
    assertTrue(probing.mayRequest(), "the probe");
    probing.observe(ip("192.0.2.0"), "h0.test", answer());
    assertFalse(probing.down());
    assertEquals(1, notes.size());
    assertTrue(notes.get(0).startsWith("the network was down for "), notes.toString());
  }
}
