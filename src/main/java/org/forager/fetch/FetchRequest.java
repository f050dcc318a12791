package org.forager.fetch;

import java.net.InetAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * One GET to make. {@code etag} and {@code lastModified} come from the last fetch and turn the
 * request into a conditional GET (If-None-Match / If-Modified-Since) when present.
 *
 * @param address when present, the address to connect to instead of resolving the URL's host: the
 *     one the crawl took its per-IP politeness slot for (the network policy still checks it at
 *     connect). Ignored for a URL whose host is an IP literal (its own address).
 */
public record FetchRequest(String url, Optional<String> etag, Optional<String> lastModified,
    Optional<InetAddress> address) {

  public FetchRequest {
    Objects.requireNonNull(address, "address");
  }

  /** A request whose host is resolved when its connection is opened. */
  public FetchRequest(String url, Optional<String> etag, Optional<String> lastModified) {
    this(url, etag, lastModified, Optional.empty());
  }

  public static FetchRequest of(String url) {
    return new FetchRequest(url, Optional.empty(), Optional.empty());
  }

  /** This request, connecting to {@code address} (when present) rather than resolving the host. */
  public FetchRequest connectingTo(Optional<InetAddress> address) {
    return new FetchRequest(url, etag, lastModified, address);
  }
}
