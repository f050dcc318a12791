package org.forager.dns;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IpLiteralsTest {

  @Test
  void dottedQuadIsAnIpv4Address() {
    InetAddress address = IpLiterals.parse("10.0.0.5").orElseThrow();
    assertInstanceOf(Inet4Address.class, address);
    assertEquals("10.0.0.5", address.getHostAddress());
  }

  @Test
  void ipv6WithOrWithoutBracketsIsAnIpv6Address() {
    assertEquals(IpLiterals.parse("2001:db8::5"), IpLiterals.parse("[2001:db8::5]"));
    assertInstanceOf(Inet6Address.class, IpLiterals.parse("2001:db8::5").orElseThrow());
  }

  /** As a DNS AAAA answer would be: the JDK's own parser would give 127.0.0.1 as an Inet4Address. */
  @Test
  void ipv4MappedIpv6StaysIpv6() {
    InetAddress address = IpLiterals.parse("::ffff:127.0.0.1").orElseThrow();
    assertInstanceOf(Inet6Address.class, address);
    assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, 127, 0, 0, 1}, address.getAddress());
  }

  /** Host names, ambiguous IPv4 spellings (octal to some parsers) and zones: never looked up, never literals. */
  @ParameterizedTest
  @ValueSource(strings = {
      "example.org", "localhost", "010.0.0.5", "10.0.0.05", "127.1", "2130706433", "0x7f.0.0.1",
      "10.0.0.256", "10.0.0", "fe80::1%eth0", "[::1", "::1]", ":", "", "1.2.3.4.5", ".:1", "g::1",
      "::ffff:999.0.0.1", "cafe.be", "dead.beef.ad", "face:b00c", "a.b.c.d",
      "1.2.3.04", "1..2.3", "1.2.3.4.", ".1.2.3.4", "256.1.1.1", "1.2.3.1000", "1234.0.0.1", "1.2.3.-4"})
  void anythingElseIsNotALiteral(String text) {
    assertTrue(IpLiterals.parse(text).isEmpty(), text);
    assertFalse(IpLiterals.isLiteral(text), text);
  }

  /** The quick answer a fetch asks for is the parse's. */
  @ParameterizedTest
  @ValueSource(strings = {"10.0.0.5", "127.1.2.3", "2001:db8::5", "[2001:db8::5]", "::ffff:127.0.0.1", "[::1]",
      "2001:DB8::5", "[FE80::A:b:c]", "0.0.0.0", "255.255.255.255", "[10.0.0.5]"})
  void literalsAreLiterals(String text) {
    assertTrue(IpLiterals.parse(text).isPresent(), text);
    assertTrue(IpLiterals.isLiteral(text), text);
  }
}
