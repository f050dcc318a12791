package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

  @ParameterizedTest
  @ValueSource(strings = {
      "1.1.1.1", "8.8.8.8", "93.184.215.14", "172.15.255.255", "172.32.0.1", "100.63.255.255",
      "100.128.0.1", "192.167.1.1", "169.253.1.1", "223.255.255.255",
      "2606:4700:4700::1111", "2001:4860:4860::8888", "64:ff9b::808:808", "2002:808:808::1"})
  void allowsPublicAddresses(String literal) throws UnknownHostException {
    assertFalse(NetworkPolicy.isBlocked(InetAddress.getByName(literal)), literal);
  }
}
