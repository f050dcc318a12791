package org.forager.fetch;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What happened on the wire for one GET: an HTTP response, or a failure before one was complete.
 * The fetcher does not decide what a response means; {@code org.forager.crawl} classifies it.
 */
public sealed interface FetchResult permits FetchResult.Response, FetchResult.Failure {

  String url();

  /** When the request started (connection acquisition included). */
  Instant startedAt();

  /** From start until the body was read, capped or abandoned. */
  long durationMillis();

  /** Why the body was cut short; empty when it was not, or when no response came back. */
  default Optional<Truncation> truncation() {
    return Optional.empty();
  }

  /**
   * A complete response head, with the body as far as it was read.
   *
   * @param requestHead the request line and headers exactly as sent, CRLF-terminated, blank line included
   * @param remoteAddress the IP address connected to, when known
   * @param headers response headers in order, as received
   * @param rawBody the body as received on the wire after transfer decoding (chunked, and gzip or
   *     deflate when a server sent them as transfer codings), still content-encoded, possibly cut short
   * @param body the body after content decoding (gzip, deflate), at most {@code max_page_bytes}
   * @param truncation why {@code body} and {@code rawBody} were cut short, if they were
   */
  record Response(
      String url,
      Instant startedAt,
      long durationMillis,
      byte[] requestHead,
      Optional<String> remoteAddress,
      String protocol,
      int status,
      String reason,
      List<Header> headers,
      byte[] rawBody,
      byte[] body,
      Optional<Truncation> truncation)
      implements FetchResult {

    /** Whether the body was cut short, for whatever reason. */
    public boolean truncated() {
      return truncation.isPresent();
    }

    /** The first header of that name (case-insensitive). */
    public Optional<String> header(String name) {
      for (Header h : headers) {
        if (h.name().equalsIgnoreCase(name)) return Optional.of(h.value());
      }
      return Optional.empty();
    }

    /** Every header of that name (case-insensitive), in order. */
    public List<String> headers(String name) {
      List<String> values = List.of(); // most names asked for are absent: no list made
      for (Header h : headers) {
        if (!h.name().equalsIgnoreCase(name)) continue;
        if (values.isEmpty()) values = new ArrayList<>(2);
        values.add(h.value());
      }
      return values.isEmpty() ? values : List.copyOf(values);
    }

    /** The media type of Content-Type, lower case, without parameters. */
    public Optional<String> mediaType() {
      return header("Content-Type").map(v -> {
        int semi = v.indexOf(';');
        return (semi < 0 ? v : v.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
      }).filter(v -> !v.isEmpty());
    }
  }

  /**
   * Why a body was cut short. The {@link #label() labels} are part of the user contract (the crawl
   * log's {@code reason}); the WARC record's {@code WARC-Truncated} field says the same in WARC terms.
   */
  enum Truncation {
    /** The body reached {@code limits.max_page_bytes}, on the wire or decoded. */
    MAX_PAGE_BYTES("max_page_bytes"),
    /** Decoded, the body outgrew {@code limits.max_decompression_ratio} times its raw bytes. */
    MAX_DECOMPRESSION_RATIO("max_decompression_ratio"),
    /** The total deadline ({@code limits.fetch_timeout}) passed while the body was read. */
    DEADLINE("deadline"),
    /** The connection was reset or closed before the body's end. */
    CONNECTION_CLOSED("connection closed"),
    /** The body broke off in its content coding (a corrupt gzip stream, say). */
    UNDECODABLE("content decoding failed");

    private final String label;

    Truncation(String label) {
      this.label = label;
    }

    /** How the crawl log says it. */
    public String label() {
      return label;
    }
  }

  /** Why no complete response came back. */
  enum FailureKind {
    /** The total deadline (fetch_timeout) passed before the response head arrived. */
    TIMEOUT,
    /** The host name did not resolve: the name servers failed or did not answer in time. */
    DNS,
    /**
     * The name servers answered that the host name does not exist or has no address ({@link
     * org.forager.dns.NoSuchHostException}): nothing of the host can be fetched in this run.
     */
    NO_SUCH_HOST,
    /** The address resolved to is refused by the network policy (private, loopback, ...). */
    BLOCKED_BY_NETWORK_POLICY,
    /**
     * The server's TLS certificate was refused: not issued by a trusted CA (self-signed, incomplete
     * chain), expired or not yet valid, or not for the host name. The message starts with which.
     */
    TLS,
    /** Refused, reset, closed, a TLS handshake that failed for another reason, or any other I/O error. */
    NETWORK,
    /** The server spoke something that is not HTTP/1.x or HTTP/2. */
    PROTOCOL
  }

  /**
   * @param unconnected whether no connection could be made to the address at all (refused, unreachable,
   *     no answer before the deadline): a TLS handshake, a request or a response that failed after the
   *     connect is not
   */
  record Failure(String url, Instant startedAt, long durationMillis, FailureKind kind, String message,
      boolean unconnected) implements FetchResult {

    /** A failure after a connection was made, or before one was tried. */
    public Failure(String url, Instant startedAt, long durationMillis, FailureKind kind, String message) {
      this(url, startedAt, durationMillis, kind, message, false);
    }
  }
}
