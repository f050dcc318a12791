package org.forager.fetch;

import java.net.InetAddress;
import java.util.Optional;

/**
 * Where a connection goes: scheme, host and port, and the address it must connect to when the
 * request names one (connections to other addresses of the host are kept apart). Connections are
 * pooled by route.
 *
 * @param host the URL's host as written there (an IPv6 literal in brackets); ASCII
 * @param port the port connected to (the scheme's default when the URL has none)
 * @param hostHeader the {@code Host} field: the host, and the port when the URL names one
 * @param pinned the address to connect to, when the request names one and the host is no IP literal
 */
record Route(boolean tls, String host, int port, String hostHeader, Optional<InetAddress> pinned) {

  /** The name TLS and DNS know the host by: without an IPv6 literal's brackets. */
  String name() {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }
}
