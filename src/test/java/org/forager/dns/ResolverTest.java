package org.forager.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ResolverTest {

  private static InetAddress ip(String literal) {
    return IpLiterals.parse(literal).orElseThrow();
  }

  @Test
  void pinnedNamesAreAnsweredWithoutAskingTheFallback() throws UnknownHostException {
    AtomicInteger asked = new AtomicInteger();
    Resolver fallback = host -> {
      asked.incrementAndGet();
      return List.of(ip("192.0.2.1"));
    };
    Resolver resolver = Resolver.pinned(
        Map.of("staging.example.org", List.of(ip("10.0.0.5"), ip("2001:db8::5"))), fallback);

    assertEquals(List.of(ip("10.0.0.5"), ip("2001:db8::5")), resolver.resolve("staging.example.org"));
    assertEquals(List.of(ip("10.0.0.5"), ip("2001:db8::5")), resolver.resolve("STAGING.example.org"));
    assertEquals(0, asked.get());
    assertEquals(List.of(ip("192.0.2.1")), resolver.resolve("www.example.org"));
    assertEquals(1, asked.get());
  }

  @Test
  void noPinsIsTheFallbackItself() {
    Resolver fallback = host -> List.of();
    assertSame(fallback, Resolver.pinned(Map.of(), fallback));
  }

  @Test
  void aPinWithoutAddressIsRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> Resolver.pinned(Map.of("a.example", List.of()), Resolver.system()));
  }

  @Test
  void theSystemResolverAnswersLocalhost() throws UnknownHostException {
    // localhost never leaves the machine (RFC 6761 section 6.3).
    InetAddress first = Resolver.system().resolve("localhost").get(0);
    assertEquals(true, first.isLoopbackAddress());
  }
}
