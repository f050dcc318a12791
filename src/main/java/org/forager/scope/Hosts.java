package org.forager.scope;

/**
 * Reads the host out of a normalized URL without building an {@code Origin}, and tells addresses from
 * names. Stateless; on the hot path, so it works on indexes, not on copies.
 */
final class Hosts {

  private Hosts() {}

  /**
   * Where the host of an absolute URL starts, after {@code scheme://}; -1 when the URL is not http(s).
   * Normalized URLs have no userinfo; the caller needs none skipped.
   */
  static int hostStart(String url) {
    if (url.startsWith("https://")) return 8;
    if (url.startsWith("http://")) return 7;
    return -1;
  }

  /** Where the host that starts at {@code start} ends: before the port, path, query or fragment. */
  static int hostEnd(String url, int start) {
    if (start < url.length() && url.charAt(start) == '[') {
      int close = url.indexOf(']', start);
      return close < 0 ? url.length() : close + 1;
    }
    int i = start;
    while (i < url.length()) {
      char c = url.charAt(i);
      if (c == ':' || c == '/' || c == '?' || c == '#') break;
      i++;
    }
    return i;
  }

  /** Where the authority ({@code host[:port]}) that starts at {@code start} ends. */
  static int authorityEnd(String url, int start) {
    int i = start;
    while (i < url.length()) {
      char c = url.charAt(i);
      if (c == '/' || c == '?' || c == '#') break;
      i++;
    }
    return i;
  }

  /** The host of a normalized http(s) URL, or null when it is not one or has an empty host. */
  static String hostOf(String url) {
    int start = hostStart(url);
    if (start < 0) return null;
    int end = hostEnd(url, start);
    return end > start ? url.substring(start, end) : null;
  }

  /**
   * Whether a normalized host is an IP address: bracketed IPv6, or IPv4, which the WHATWG host parser
   * makes of every host whose last label is a number, so that no normalized name has such a label.
   */
  static boolean isIp(String host) {
    if (host.isEmpty()) return false;
    if (host.charAt(0) == '[') return true;
    int end = host.length();
    if (host.charAt(end - 1) == '.') end--;
    int start = host.lastIndexOf('.', end - 1) + 1;
    if (start >= end) return false;
    for (int i = start; i < end; i++) {
      char c = host.charAt(i);
      if (c < '0' || c > '9') return false;
    }
    return true;
  }

  /** {@code host} without one trailing dot: {@code example.org.} names the same host as {@code example.org}. */
  static String withoutTrailingDot(String host) {
    return host.length() > 1 && host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
  }

  /**
   * The IPv4 address an IPv6 literal host carries, dotted ({@code [::ffff:7f00:5]} → {@code
   * 127.0.0.5}): IPv4-mapped, IPv4-compatible, NAT64 ({@code 64:ff9b::/96}) and 6to4 ({@code
   * 2002::/16}) forms reach that IPv4 host, so a list entry naming it covers them too (the network
   * policy judges them the same way). Null for any other host.
   */
  static String embeddedIpv4(String host) {
    if (!host.startsWith("[")) return null;
    java.util.Optional<java.net.InetAddress> address = org.forager.dns.IpLiterals.parse(host);
    if (address.isEmpty() || address.get().getAddress().length != 16) return null;
    byte[] b = address.get().getAddress();
    int at;
    if (zero(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) at = 12; // mapped
    else if (zero(b, 0, 12)) at = 12; // compatible
    else if ((b[0] & 0xff) == 0 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b
        && zero(b, 4, 12)) at = 12; // NAT64
    else if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) at = 2; // 6to4
    else return null;
    return (b[at] & 0xff) + "." + (b[at + 1] & 0xff) + "." + (b[at + 2] & 0xff) + "." + (b[at + 3] & 0xff);
  }

  private static boolean zero(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) if (b[i] != 0) return false;
    return true;
  }
}
