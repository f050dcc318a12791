package org.forager.bench.web;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The benchmark hosts' loopback addresses: host i is {@code 127.1.(i / 250).(i % 250 + 1)}, so host
 * 0 is 127.1.0.1 and host 999 is 127.1.3.250. Linux routes all of 127.0.0.0/8 to the loopback
 * interface, so binding them needs no setup.
 */
final class Hosts {

  /** How many hosts the scheme can name: third octet 0..255, fourth 1..250. */
  static final int MAX = 256 * 250;

  private Hosts() {}

  static String address(int host) {
    check(host);
    return "127.1." + (host / 250) + "." + (host % 250 + 1);
  }

  static InetAddress inetAddress(int host) {
    check(host);
    try {
      return InetAddress.getByAddress(new byte[] {127, 1, (byte) (host / 250), (byte) (host % 250 + 1)});
    } catch (UnknownHostException e) {
      throw new AssertionError("four bytes are always an address", e);
    }
  }

  private static void check(int host) {
    if (host < 0 || host >= MAX) throw new IllegalArgumentException("no such host: " + host);
  }
}
