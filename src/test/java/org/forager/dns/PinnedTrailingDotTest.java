package org.forager.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Review of issue 13: a link to {@code http://a.test.:PORT/} (trailing dot, the same host) is not
 * answered by the pin of {@code a.test} and goes to the system resolver; for the staging use case of
 * network.resolve that reaches the production server named by public DNS.
 */
class PinnedTrailingDotTest {

  @Test
  void aPinnedNameIsAlsoPinnedWithATrailingDot() throws UnknownHostException {
    InetAddress pin = InetAddress.getByAddress(new byte[] {127, 0, 0, 9});
    Resolver refusing = host -> { throw new UnknownHostException("asked the fallback for " + host); };
    Resolver resolver = Resolver.pinned(Map.of("staging.example.org", List.of(pin)), refusing);
    assertEquals(List.of(pin), resolver.resolve("staging.example.org"));
    assertEquals(List.of(pin), resolver.resolve("staging.example.org."));
  }
}
