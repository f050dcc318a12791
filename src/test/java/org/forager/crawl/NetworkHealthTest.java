package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
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

  private static InetAddress ip(String address) {
    try {
      return InetAddress.getByName(address);
    } catch (java.net.UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  private static FetchResult refused() {
    return new FetchResult.Failure("http://x/", Instant.EPOCH, 1, FetchResult.FailureKind.NETWORK,
        "ConnectException: Connection refused", true);
  }

  private static FetchResult reset() {
    return new FetchResult.Failure("http://x/", Instant.EPOCH, 1, FetchResult.FailureKind.NETWORK,
        "SocketException: Connection reset", false);
  }

  private static FetchResult answer() {
    return new FetchResult.Failure("http://x/", Instant.EPOCH, 1, FetchResult.FailureKind.TLS, "certificate expired",
        false);
  }

  @Test
  void aThousandDeadSitesInARowAreNoOutage() {
    for (int i = 0; i < 1_000; i++) assertFalse(health.observe(ip("10.0.0." + (i % 250)), "dead" + i + ".test", refused()));
    assertFalse(health.down());
    assertTrue(health.mayRequest());
  }

  @Test
  void goodAddressesTakingNoConnectionAreAnOutageUntilAnyServerAnswers() {
    for (int i = 0; i < 3; i++) health.observe(ip("192.0.2." + i), "h" + i + ".test", answer()); // a server reached
    assertFalse(health.observe(ip("192.0.2.0"), "h0.test", refused()));
    assertFalse(health.observe(ip("192.0.2.0"), "h0.test", refused()), "one address twice is one");
    assertFalse(health.observe(ip("192.0.2.1"), "h1.test", refused()));
    assertTrue(health.observe(ip("192.0.2.2"), "h2.test", refused()), "the third good address");
    assertTrue(health.down());
    assertFalse(health.mayRequest(), "the turns wait for the first probe, a probe interval on");
    assertTrue(health.observe(ip("192.0.2.7"), "never.test", refused()), "held: any failure is the network's");

    assertFalse(health.observe(ip("192.0.2.9"), "other.test", answer()));
    assertFalse(health.down());
    assertTrue(health.mayRequest());
    assertEquals(1, notes.size());
    assertTrue(notes.get(0).startsWith("the network was down for "), notes.toString());
  }

  @Test
  void anAnswerBetweenTheFailuresStartsTheCountAgain() {
    for (int i = 0; i < 4; i++) health.observe(ip("192.0.2." + i), "h" + i + ".test", answer());
    health.observe(ip("192.0.2.0"), "h0.test", refused());
    health.observe(ip("192.0.2.1"), "h1.test", refused());
    health.observe(ip("192.0.2.3"), "h3.test", reset()); // after a connect: a server was there
    assertFalse(health.observe(ip("192.0.2.2"), "h2.test", refused()));
    assertFalse(health.down());
  }

  @Test
  void failedLookupsOfNamesThatResolvedLatelyAreAnOutageToo() {
    for (int i = 0; i < 3; i++) health.observe(ip("192.0.2." + i), "h" + i + ".test", answer());
    for (int i = 0; i < 3; i++) {
      health.observe(null, "h" + i + ".test", new FetchResult.Failure("http://x/", Instant.EPOCH, 1,
          FetchResult.FailureKind.DNS, "DNS server failure (SERVFAIL)"));
    }
    assertTrue(health.down());
  }
}
