package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which addresses {@link NetworkPolicy} refuses. Literals only: nothing is resolved. */
class NetworkPolicyTest {

  @ParameterizedTest
  @ValueSource(strings = {
      "0.0.0.0", "0.1.2.3", "127.0.0.1", "127.255.0.9", "10.0.0.1", "10.255.255.255",
      "172.16.0.1", "172.31.255.254", "192.168.1.1", "100.64.0.1", "100.127.255.255",
      "169.254.169.254", "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
      "::", "::1", "fc00::1", "fd12:3456::1", "fe80::1", "fec0::1", "ff02::1",
      "::ffff:127.0.0.1", "::ffff:10.1.2.3", "64:ff9b::a00:1", "2002:c0a8:101::1"})
  void refusesAddressesThatAreNotThePublicInternet(String literal) throws UnknownHostException {
    assertTrue(NetworkPolicy.isBlocked(InetAddress.getByName(literal)), literal);
  }

  /** The IANA special-purpose registries' blocks that are not globally reachable, first and last address. */
  @ParameterizedTest
  @ValueSource(strings = {
      "192.0.0.0", "192.0.0.255", "192.0.2.1", "192.0.2.255", "192.88.99.1", "198.18.0.1",
      "198.19.255.255", "198.51.100.7", "203.0.113.9",
      "100::", "100::ffff:ffff:ffff:ffff", "64:ff9b:1::a", "64:ff9b:1:ffff::1", "2001:2::1",
      "2001:db8::", "2001:db8:ffff::1", "2001:10::1", "2001:1ff::1", "3fff::1", "3fff:fff::1",
      "5f00::1", "fe80::1%1", "ff0e::1", "::ffff:0:7f00:1", "4000::1", "1fff::1"})
  void refusesTheSpecialPurposeBlocksOfTheIanaRegistries(String literal) throws UnknownHostException {
    assertTrue(NetworkPolicy.isBlocked(InetAddress.getByName(literal)), literal);
  }

  /**
   * What a DNS AAAA answer gives: an {@link Inet6Address} even for {@code ::ffff:127.0.0.1}, which
   * the JDK's literal parser would have turned into an IPv4 address. Each of these reaches the
   * IPv4 address it carries, so each is judged by it.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "::ffff:127.0.0.1", "::ffff:169.254.169.254", "::ffff:10.0.0.1", "::ffff:192.168.0.1",
      "::ffff:0.0.0.0", "::127.0.0.1", "::169.254.169.254", "::10.0.0.1",
      "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b::a00:1",
      "2002:7f00:1::", "2002:a9fe:a9fe::1", "2002:a00:1::",
      // Teredo: server 65.54.227.120, client the inverse of the last 32 bits (127.0.0.1, 10.0.0.1)
      "2001:0:4136:e378:8000:63bf:80ff:fffe", "2001:0:4136:e378:8000:63bf:f5ff:fffe",
      // Teredo with a private server address and a public client
      "2001:0:a00:1:8000:63bf:f7f7:f7f7"})
  void anIpv6AnswerCarryingARefusedIpv4AddressIsRefused(String literal) throws UnknownHostException {
    InetAddress answer = aaaa(literal);
    assertInstanceOf(Inet6Address.class, answer);
    assertTrue(NetworkPolicy.isBlocked(answer), literal);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "::ffff:8.8.8.8", "::8.8.8.8", "64:ff9b::808:808", "2002:808:808::1",
      "2001:0:4136:e378:8000:63bf:f7f7:f7f7"})
  void anIpv6AnswerCarryingAPublicIpv4AddressIsAllowed(String literal) throws UnknownHostException {
    assertFalse(NetworkPolicy.isBlocked(aaaa(literal)), literal);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "1.1.1.1", "8.8.8.8", "93.184.215.14", "172.15.255.255", "172.32.0.1", "100.63.255.255",
      "100.128.0.1", "192.167.1.1", "169.253.1.1", "223.255.255.255", "192.0.1.1", "192.0.3.1",
      "198.17.255.255", "198.20.0.1", "198.51.99.1", "203.0.112.1", "192.88.98.1", "192.31.196.1",
      "2606:4700:4700::1111", "2001:4860:4860::8888", "64:ff9b::808:808", "2002:808:808::1",
      "2001:200::1", "2a00:1450:4001::1", "2c0f:f248::1", "3fff:1000::1"})
  void allowsPublicAddresses(String literal) throws UnknownHostException {
    assertFalse(NetworkPolicy.isBlocked(InetAddress.getByName(literal)), literal);
  }

  /** The sixteen bytes of an IPv6 literal as an {@link Inet6Address}, as a resolver returns them. */
  static InetAddress aaaa(String literal) throws UnknownHostException {
    byte[] bytes = InetAddress.getByName(literal).getAddress();
    if (bytes.length == 4) { // the JDK unwrapped an IPv4-mapped literal: wrap it again
      byte[] mapped = new byte[16];
      mapped[10] = (byte) 0xff;
      mapped[11] = (byte) 0xff;
      System.arraycopy(bytes, 0, mapped, 12, 4);
      bytes = mapped;
    }
    return Inet6Address.getByAddress(null, bytes, -1);
  }
}
