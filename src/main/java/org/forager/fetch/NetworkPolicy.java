package org.forager.fetch;

import java.net.InetAddress;

/**
 * Which IP addresses a crawler must not connect to: anything that is not the public Internet.
 * Stateless and thread-safe.
 *
 * <p>The reference is IANA's special-purpose address registries (RFC 6890 and its updates:
 * https://www.iana.org/assignments/iana-ipv4-special-registry and
 * https://www.iana.org/assignments/iana-ipv6-special-registry), plus multicast. Refused:
 * <ul>
 *   <li>IPv4: "this network" {@code 0/8} (so {@code 0.0.0.0}), private {@code 10/8},
 *       {@code 172.16/12}, {@code 192.168/16} (RFC 1918), shared CGNAT {@code 100.64/10} (RFC 6598),
 *       loopback {@code 127/8}, link-local {@code 169.254/16} (cloud metadata lives there), IETF
 *       protocol assignments {@code 192.0.0/24}, documentation {@code 192.0.2/24},
 *       {@code 198.51.100/24}, {@code 203.0.113/24} (RFC 5737), the deprecated 6to4 relay anycast
 *       {@code 192.88.99/24} (RFC 7526), benchmarking {@code 198.18/15} (RFC 2544), multicast
 *       {@code 224/4}, reserved {@code 240/4} and broadcast.
 *   <li>IPv6: everything outside global unicast {@code 2000::/3} (unspecified, loopback, discard
 *       {@code 100::/64}, local-use NAT64 {@code 64:ff9b:1::/48}, unique local {@code fc00::/7},
 *       link-local {@code fe80::/10}, site-local {@code fec0::/10}, multicast {@code ff00::/8}, and
 *       every unassigned block), and inside it the IETF protocol assignments {@code 2001::/23}
 *       (benchmarking {@code 2001:2::/48}, ORCHID, ...), documentation {@code 2001:db8::/32} and
 *       {@code 3fff::/20} (RFC 9637).
 *   <li>Any IPv6 address that carries an IPv4 address is judged by that address, since the network
 *       delivers it there: IPv4-mapped {@code ::ffff:0:0/96} (a DNS AAAA answer of
 *       {@code ::ffff:127.0.0.1} connects to loopback), IPv4-compatible {@code ::a.b.c.d}, NAT64
 *       {@code 64:ff9b::/96} (RFC 6052), 6to4 {@code 2002::/16} (RFC 3056) and Teredo
 *       {@code 2001::/32} (RFC 4380: refused if its server address or its client address, the last
 *       32 bits inverted, is refused).
 * </ul>
 * Stricter than the registries where that costs no web site: a few anycast service addresses the
 * registries call globally reachable ({@code 192.0.0.9}, {@code 192.0.0.10}, AMT and AS112 inside
 * {@code 2001::/23}) are refused with their blocks.
 */
final class NetworkPolicy {

  private NetworkPolicy() {}

  static boolean isBlocked(InetAddress address) {
    byte[] b = address.getAddress();
    return b.length == 4 ? isBlockedIpv4(b, 0) : isBlockedIpv6(b);
  }

  private static boolean isBlockedIpv4(byte[] b, int at) {
    int first = b[at] & 0xff;
    int second = b[at + 1] & 0xff;
    int third = b[at + 2] & 0xff;
    return first == 0 // "this network", RFC 791
        || first == 10
        || (first == 100 && (second & 0xc0) == 64)
        || first == 127
        || (first == 169 && second == 254)
        || (first == 172 && (second & 0xf0) == 16)
        || (first == 192 && second == 0 && (third == 0 || third == 2))
        || (first == 192 && second == 88 && third == 99)
        || (first == 192 && second == 168)
        || (first == 198 && (second & 0xfe) == 18)
        || (first == 198 && second == 51 && third == 100)
        || (first == 203 && second == 0 && third == 113)
        || first >= 224; // multicast, reserved 240/4, broadcast
  }

  private static boolean isBlockedIpv6(byte[] b) {
    if (isZero(b, 0, 10) && group(b, 10) == 0xffff) return isBlockedIpv4(b, 12); // IPv4-mapped
    if (isZero(b, 0, 12)) return isBlockedIpv4(b, 12); // IPv4-compatible; :: and ::1 land in 0/8
    if (group(b, 0) == 0x64 && group(b, 2) == 0xff9b && isZero(b, 4, 12)) return isBlockedIpv4(b, 12);
    if (group(b, 0) == 0x2002) return isBlockedIpv4(b, 2); // 6to4
    if (group(b, 0) == 0x2001 && group(b, 2) == 0) return isBlockedIpv4(b, 4) || isBlockedIpv4(teredoClient(b), 0);
    if ((b[0] & 0xe0) != 0x20) return true; // outside global unicast 2000::/3
    if (group(b, 0) == 0x2001 && (b[2] & 0xfe) == 0) return true; // IETF protocol assignments 2001::/23
    if (group(b, 0) == 0x2001 && group(b, 2) == 0xdb8) return true; // documentation 2001:db8::/32
    return group(b, 0) == 0x3fff && (b[2] & 0xf0) == 0; // documentation 3fff::/20
  }

  /** Teredo's client address: the last 32 bits, inverted (RFC 4380 section 4). */
  private static byte[] teredoClient(byte[] b) {
    byte[] client = new byte[4];
    for (int i = 0; i < 4; i++) client[i] = (byte) ~b[12 + i];
    return client;
  }

  private static int group(byte[] b, int at) {
    return (b[at] & 0xff) << 8 | (b[at + 1] & 0xff);
  }

  private static boolean isZero(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] != 0) return false;
    }
    return true;
  }
}
