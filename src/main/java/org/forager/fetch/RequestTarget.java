package org.forager.fetch;

import java.util.Optional;

/**
 * Where a crawl URL is requested: the scheme, the host and port to connect to and name in {@code Host},
 * and the path and query of the request line (RFC 9112 section 3.2.1, origin form). Without userinfo
 * (deprecated by RFC 9110 section 4.2.4, and no credentials ever leave the crawler) and without
 * fragment (not part of the request target, RFC 9110 section 7.1); the path and query keep their
 * encoding exactly.
 *
 * <p>Read from the URL as the URL parser wrote it, not through {@link java.net.URI}: RFC 2396's
 * grammar refuses what the URL Standard keeps and browsers send as it is, so such URLs were never
 * fetched ({@code |}, {@code ^}, <code>{</code>, <code>`</code> or a lone {@code %} in a path or
 * query; a host with {@code _}, whose URI has no host at all). A character a request line cannot
 * carry (a control, a space, anything outside ASCII, which a parsed URL has percent-encoded) makes
 * the URL one that is not requested.
 *
 * @param port -1 when the URL names none (the scheme's default)
 * @param host as the URL has it; an IPv6 literal in brackets
 * @param pathAndQuery the path ({@code /} when empty), then {@code ?} and the query when there is one
 */
record RequestTarget(boolean tls, String host, int port, String pathAndQuery) {

  /** The target of an absolute http or https URL, or empty when the URL is none or cannot be requested. */
  static Optional<RequestTarget> of(String url) {
    int colon = url.indexOf(':');
    if (colon < 0 || !url.startsWith("//", colon + 1)) return Optional.empty();
    String scheme = url.substring(0, colon);
    boolean tls;
    if (scheme.equalsIgnoreCase("https")) {
      tls = true;
    } else if (scheme.equalsIgnoreCase("http")) {
      tls = false;
    } else {
      return Optional.empty();
    }
    int authorityStart = colon + 3;
    int authorityEnd = endOfAuthority(url, authorityStart);
    // Userinfo ends at the authority's last '@' (RFC 3986 section 3.2: no '@' in a host or port).
    int hostStart = Math.max(authorityStart, url.lastIndexOf('@', authorityEnd - 1) + 1);
    int portColon = portColon(url, hostStart, authorityEnd);
    if (portColon == -2) return Optional.empty();
    int hostEnd = portColon >= 0 ? portColon : authorityEnd;
    String host = url.substring(hostStart, hostEnd);
    if (!isHost(host)) return Optional.empty();
    int port = -1;
    if (portColon >= 0 && portColon + 1 < authorityEnd) {
      port = port(url, portColon + 1, authorityEnd);
      if (port < 0) return Optional.empty();
    }
    int fragment = url.indexOf('#', authorityEnd);
    int end = fragment >= 0 ? fragment : url.length();
    if (!isRequestable(url, authorityEnd, end)) return Optional.empty();
    String pathAndQuery;
    if (authorityEnd == end) {
      pathAndQuery = "/";
    } else if (url.charAt(authorityEnd) == '?') {
      pathAndQuery = "/" + url.substring(authorityEnd, end);
    } else {
      pathAndQuery = url.substring(authorityEnd, end);
    }
    return Optional.of(new RequestTarget(tls, host, port, pathAndQuery));
  }

  /** The value of the {@code Host} field: the host, and the port when the URL names one. */
  String hostHeader() {
    return port >= 0 ? host + ':' + port : host;
  }

  private static int endOfAuthority(String url, int from) {
    for (int i = from; i < url.length(); i++) {
      char c = url.charAt(i);
      if (c == '/' || c == '?' || c == '#') return i;
    }
    return url.length();
  }

  /** The colon before the port, -1 when there is none, -2 when the authority is malformed. */
  private static int portColon(String url, int hostStart, int authorityEnd) {
    if (hostStart < authorityEnd && url.charAt(hostStart) == '[') {
      int close = url.indexOf(']', hostStart);
      if (close < 0 || close >= authorityEnd) return -2;
      if (close + 1 == authorityEnd) return -1;
      return url.charAt(close + 1) == ':' ? close + 1 : -2;
    }
    int colon = url.indexOf(':', hostStart);
    return colon >= 0 && colon < authorityEnd ? colon : -1;
  }

  /** Digits of a port from 1 to 65535, or -1. */
  private static int port(String url, int from, int to) {
    if (to - from > 5) return -1;
    int port = 0;
    for (int i = from; i < to; i++) {
      char c = url.charAt(i);
      if (c < '0' || c > '9') return -1;
      port = port * 10 + (c - '0');
    }
    return port >= 1 && port <= 65535 ? port : -1;
  }

  /**
   * A bracketed IPv6 literal (hex digits, colons, dots), or a name of visible ASCII without the URL
   * Standard's forbidden host code points: what can follow {@code Host:} and be looked up.
   */
  private static boolean isHost(String host) {
    if (host.isEmpty()) return false;
    if (host.charAt(0) == '[') {
      boolean colon = false;
      for (int i = 1; i < host.length() - 1; i++) {
        char c = host.charAt(i);
        if (c == ':') {
          colon = true;
        } else if (!(c == '.' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
          return false;
        }
      }
      return colon && host.charAt(host.length() - 1) == ']';
    }
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if (c <= ' ' || c >= 0x7F || "#%/:<>?@[\\]^|".indexOf(c) >= 0) return false;
    }
    return true;
  }

  /** Whether the path and query hold only what a request line carries as it is: visible ASCII. */
  private static boolean isRequestable(String url, int from, int to) {
    for (int i = from; i < to; i++) {
      char c = url.charAt(i);
      if (c <= ' ' || c >= 0x7F) return false;
    }
    return true;
  }
}
