package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The name a lookup asks DNS (and the pins) for, given the Unicode form the HTTP client turns an
 * internationalized host into: the URL Standard's ASCII form (UTS #46), the one the URL was crawled as.
 */
class PolicyDnsResolverAsciiTest {

  @Test
  void aSharpSIsKeptAsTheUrlStandardKeepsItNotFoldedToSs() {
    assertEquals("xn--fa-hia.test", PolicyDnsResolver.ascii("faß.test"), "java.net.IDN gave fass.test");
    assertEquals("xn--bcher-kva.test", PolicyDnsResolver.ascii("bücher.test"));
    assertEquals("plain.test", PolicyDnsResolver.ascii("plain.test"));
  }
}
