package org.forager.status;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code Host} header values the status server answers to, against DNS rebinding: a page on a
 * hostile site whose name is made to resolve to the status server's address is still fetched by the
 * browser with that site's name in {@code Host}, so only the names the server is known by pass:
 * {@code localhost}, {@code 127.0.0.1}, {@code [::1]}, the bound address (with a wildcard bind, every
 * address of the machine's interfaces), {@code status.bind} as written, and {@code status.allowed_hosts};
 * always with the bound port (or none when it is 80). Names are never looked up. Immutable.
 */
final class AllowedHosts {

  private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
  private static final Pattern IPV6 = Pattern.compile("[0-9a-f:][0-9a-f:.]*");

  private final Set<String> hosts;
  private final String port;

  private AllowedHosts(Set<String> hosts, int port) {
    this.hosts = Set.copyOf(hosts);
    this.port = String.valueOf(port);
  }

  /**
   * @param bound the address and port listened on
   * @param bind {@code status.bind} as configured (an address or a name)
   * @param extra {@code status.allowed_hosts}: further names or addresses, without port
   */
  static AllowedHosts of(InetSocketAddress bound, String bind, Collection<String> extra) {
    Set<String> hosts = new HashSet<>();
    for (String h : List.of("localhost", "127.0.0.1", "::1", bind)) hosts.add(canonical(h));
    for (String h : extra) hosts.add(canonical(h));
    InetAddress address = bound.getAddress();
    if (address.isAnyLocalAddress()) {
      hosts.addAll(interfaceAddresses());
    } else {
      hosts.add(canonical(address.getHostAddress()));
    }
    return new AllowedHosts(hosts, bound.getPort());
  }

  private static Set<String> interfaceAddresses() {
    Set<String> addresses = new HashSet<>();
    try {
      NetworkInterface.networkInterfaces().flatMap(NetworkInterface::inetAddresses)
          .forEach(a -> addresses.add(canonical(a.getHostAddress())));
    } catch (SocketException e) {
      // none known: loopback and the configured names still pass
    }
    return addresses;
  }

  /** Whether a request with this {@code Host} header (none: empty) is answered. */
  boolean allows(Optional<String> hostHeader) {
    if (hostHeader.isEmpty()) return false;
    String value = hostHeader.get();
    String name;
    String rest;
    if (value.startsWith("[")) {
      int close = value.indexOf(']');
      if (close < 0) return false;
      name = value.substring(1, close);
      rest = value.substring(close + 1);
    } else {
      int colon = value.indexOf(':');
      name = colon < 0 ? value : value.substring(0, colon);
      rest = colon < 0 ? "" : value.substring(colon);
    }
    boolean portMatches = rest.isEmpty() ? port.equals("80") : rest.equals(":" + port);
    return portMatches && !name.isEmpty() && hosts.contains(canonical(name));
  }

  /** Lower case, no brackets or trailing dot, IP addresses in one spelling (no zone); no DNS lookup. */
  static String canonical(String host) {
    String h = host.strip().toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) h = h.substring(1, h.length() - 1);
    int zone = h.indexOf('%');
    if (zone >= 0) h = h.substring(0, zone);
    if (h.endsWith(".")) h = h.substring(0, h.length() - 1);
    Matcher v4 = IPV4.matcher(h);
    if (v4.matches()) {
      StringBuilder sb = new StringBuilder();
      for (int i = 1; i <= 4; i++) {
        int octet = Integer.parseInt(v4.group(i));
        if (octet > 255) return h;
        sb.append(i > 1 ? "." : "").append(octet);
      }
      return sb.toString();
    }
    if (h.contains(":") && IPV6.matcher(h).matches()) {
      try {
        // A string with ':' is parsed as an IPv6 literal or refused, never resolved.
        return InetAddress.getByName(h).getHostAddress();
      } catch (UnknownHostException e) {
        return h;
      }
    }
    return h;
  }
}
