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
 * @param minBodyBytes the body may be read up to this many bytes even when the fetcher's
 *     {@code maxPageBytes} is smaller (0: the fetcher's cap alone): robots.txt is read up to the 500
 *     KiB RFC 9309 asks a crawler to parse, whatever the page cap
 */
public record FetchRequest(String url, Optional<String> etag, Optional<String> lastModified,
    Optional<InetAddress> address, long minBodyBytes) {

  public FetchRequest {
    Objects.requireNonNull(address, "address");
    if (minBodyBytes < 0) throw new IllegalArgumentException("minBodyBytes must not be negative");
  }

  /** A request whose host is resolved when its connection is opened. */
  public FetchRequest(String url, Optional<String> etag, Optional<String> lastModified) {
    this(url, etag, lastModified, Optional.empty(), 0);
  }

  public static FetchRequest of(String url) {
    return new FetchRequest(url, Optional.empty(), Optional.empty());
  }

  /** This request, connecting to {@code address} (when present) rather than resolving the host. */
  public FetchRequest connectingTo(Optional<InetAddress> address) {
    return new FetchRequest(url, etag, lastModified, address, minBodyBytes);
  }

  /** This request, its body read up to {@code bytes} at least, whatever the fetcher's page cap. */
  public FetchRequest readingAtLeast(long bytes) {
    return new FetchRequest(url, etag, lastModified, address, bytes);
  }
}
