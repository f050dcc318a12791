package org.forager.fetch;

import java.net.InetAddress;

/**
 * Which IP addresses a crawler must not connect to: anything that is not the public Internet.
 * Stateless and thread-safe.
 *
 * <p>Refused: unspecified ({@code 0.0.0.0/8}, {@code ::}), loopback, private (RFC 1918 {@code 10/8},
 * {@code 172.16/12}, {@code 192.168/16}; RFC 4193 {@code fc00::/7}; deprecated {@code fec0::/10}),
 * shared CGNAT space (RFC 6598 {@code 100.64/10}), link-local ({@code 169.254/16}, {@code fe80::/10}),
 * multicast, and the reserved {@code 240/4} with broadcast. IPv6 addresses that embed an IPv4 address
 * (NAT64 {@code 64:ff9b::/96}, 6to4 {@code 2002::/16}) are judged by the embedded address, so they
 * cannot be used to reach a private IPv4 host.
 */
final class NetworkPolicy {

  private NetworkPolicy() {}

  static boolean isBlocked(InetAddress address) {
    if (address.isAnyLocalAddress()
        || address.isLoopbackAddress()
        || address.isSiteLocalAddress()
        || address.isLinkLocalAddress()
        || address.isMulticastAddress()) {
      return true;
    }
    byte[] b = address.getAddress();
    return b.length == 4 ? isBlockedIpv4(b, 0) : isBlockedIpv6(b);
  }

  private static boolean isBlockedIpv4(byte[] b, int at) {
    int first = b[at] & 0xff;
    int second = b[at + 1] & 0xff;
    return first == 0 // "this network", RFC 791
        || first == 127
        || first == 10
        || (first == 172 && (second & 0xf0) == 16)
        || (first == 192 && second == 168)
        || (first == 100 && (second & 0xc0) == 64)
        || (first == 169 && second == 254)
        || first >= 224; // multicast, reserved 240/4, broadcast
  }

  private static boolean isBlockedIpv6(byte[] b) {
    if ((b[0] & 0xfe) == 0xfc) return true; // unique local fc00::/7
    if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) return isBlockedIpv4(b, 2); // 6to4
    boolean nat64 = (b[0] & 0xff) == 0x00 && (b[1] & 0xff) == 0x64
        && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b;
    if (nat64) {
      for (int i = 4; i < 12; i++) {
        if (b[i] != 0) return false;
      }
      return isBlockedIpv4(b, 12);
    }
    return false;
  }
}
