package org.forager.fetch;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.forager.config.CrawlConfig;
import org.forager.dns.CachingResolver;
import org.forager.dns.IpLiterals;
import org.forager.dns.Resolver;
import org.forager.fetch.BodyReader.Body;
import org.forager.fetch.FetchResult.Failure;
import org.forager.fetch.FetchResult.FailureKind;

/**
 * The {@link Fetcher}: HTTP/1.1 GETs over blocking sockets (meant for virtual threads), on a pool of
 * keep-alive connections, one per origin ({@link ConnectionPool}), opened by the {@link Connector},
 * heads read by {@link ResponseHeadLimits}, bodies framed by {@link MessageBody}, TLS the JDK's
 * ({@link TlsStrategies}); docs/fetching.md says why a client of our own rather than HttpClient's.
 *
 * <p>Contract, per fetch:
 * <ul>
 *   <li>Redirects are never followed: a 3xx is returned as it came.
 *   <li>A request naming an {@link FetchRequest#address() address} connects to that address, not to
 *       what the resolver answers (the crawl's per-IP politeness took its slot for it); see
 *       {@link AddressPicker} for the address a fetch would choose itself.
 *   <li>Every request carries the configured User-Agent, an Accept, {@code Accept-Encoding: gzip,
 *       deflate}, and If-None-Match / If-Modified-Since when the request has them (RFC 9110 section
 *       13.1). No cookies, no authentication, no proxy, and no userinfo from the URL is ever sent.
 *   <li>One total deadline ({@code fetchTimeout}) covers connection, response head and body. Passed
 *       before the head: {@link FailureKind#TIMEOUT}. Passed while reading the body: the response
 *       with what was read, truncated ({@link FetchResult.Truncation#DEADLINE}). The primary bound:
 *       a shared timer ({@link DeadlineTimer}) aborts the exchange at the deadline, closing its
 *       connection wherever it is, so a server that drips one byte a second cannot hold a fetch past
 *       it. Socket reads have no timeout of their own (a read that waits with one costs a timer in
 *       the carrier pool); connecting has one ({@code fetchTimeout}). The backup bound, should an
 *       alarm never fire: the fetcher's {@link FetchSweeper} runs the same abort at its first sweep
 *       after twice the timeout has passed since the fetch started (it sweeps every quarter
 *       timeout, 10 ms to 1 s); and while bytes keep coming, the head is cut by
 *       {@link ResponseHeadLimits}' time bound and the body by the deadline checks between reads. So
 *       a fetch ends at its deadline, and with its alarm lost by about 2.25 deadlines, never later.
 *   <li>Response heads are bounded in line length, field count, total bytes and time
 *       ({@link ResponseHeadLimits}); past a bound: {@link FailureKind#PROTOCOL} (time:
 *       {@link FailureKind#TIMEOUT}).
 *   <li>The body is decoded here, not by the client, so the caps apply to what is decoded: at most
 *       {@code maxPageBytes} raw and decoded, decoded at most {@code maxDecompressionRatio} times the
 *       raw bytes. At a cap reading stops and the connection is closed, not drained. A body cut
 *       short says why ({@link FetchResult.Truncation}). Transfer codings besides chunked (gzip,
 *       deflate) are undone the same way, under the same caps ({@link TransferDecoding}); one that
 *       cannot be undone is {@link FailureKind#PROTOCOL} ({@link TransferCodings}).
 *   <li>A request that fails on a reused keep-alive connection before any byte of a response is
 *       sent once more on a new connection, as is one answered 408 there (see {@code send}); no other
 *       retry.
 *   <li>Unless {@code allowPrivateAddresses}, only public addresses are connected to (see
 *       {@link NetworkPolicy}): checked on the resolver's answer for each new connection and again on
 *       the address each socket connects to, before any byte is sent. Never through a proxy.
 *   <li>https certificates are verified (trusted chain, valid, naming the host) unless
 *       {@code verifyTls} is false.
 *   <li>With {@link #fetch(FetchRequest, ResponseGate)}, the response is read through the caller's
 *       gate: entered once the request is on the wire, left while a read waits for the network, all
 *       within the deadline.
 *   <li>Nothing the network or a server does makes it throw: that becomes a {@link Failure}.
 * </ul>
 *
 * <p>Thread-safe and meant to be shared by all crawl threads; each fetch costs one pooled connection
 * lease, one timer entry and one sweeper entry. Each fetcher has its own timer and sweeper thread
 * (a crawl builds one fetcher). {@link #close()} closes every connection and stops both threads.
 */
public final class HttpFetcher implements Fetcher {

  static final String ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
  static final String ACCEPT_ENCODING = "gzip, deflate";

  /**
   * What an {@link HttpFetcher} needs to know. Immutable (the resolver must be thread-safe).
   *
   * @param maxDecompressionRatio the most decoded bytes per raw byte; 0 or less: no ratio cap
   * @param maxConnections the most connections kept open at once, idle keep-alive ones included:
   *     past it, idle connections are closed, the least recently used first (those in use are
   *     closed when their fetch ends)
   * @param resolver where host names are resolved, once for every connection opened
   * @param verifyTls whether https certificates must be trusted, valid and name the host; false only
   *     for archive crawls that must capture sites with broken certificates (announced on stderr)
   */
  public record Options(
      String userAgent,
      long maxPageBytes,
      Duration fetchTimeout,
      long maxDecompressionRatio,
      boolean allowPrivateAddresses,
      int maxConnections,
      Resolver resolver,
      boolean verifyTls) {

    public Options {
      Objects.requireNonNull(userAgent, "userAgent");
      Objects.requireNonNull(fetchTimeout, "fetchTimeout");
      Objects.requireNonNull(resolver, "resolver");
      if (userAgent.isBlank() || userAgent.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
        throw new IllegalArgumentException("user agent must be non-blank printable text");
      }
      if (maxPageBytes <= 0) throw new IllegalArgumentException("max page bytes must be positive");
      if (fetchTimeout.isNegative() || fetchTimeout.isZero()) {
        throw new IllegalArgumentException("fetch timeout must be positive");
      }
      if (maxConnections <= 0) throw new IllegalArgumentException("max connections must be positive");
    }

    /** With the system resolver and TLS verified. */
    public Options(String userAgent, long maxPageBytes, Duration fetchTimeout, long maxDecompressionRatio,
        boolean allowPrivateAddresses, int maxConnections) {
      this(userAgent, maxPageBytes, fetchTimeout, maxDecompressionRatio, allowPrivateAddresses, maxConnections,
          Resolver.system(), true);
    }

    /**
     * The options a crawl configuration implies. The pool holds four connections per concurrent
     * fetch: origins waiting out their politeness delay keep their idle connection for the next turn.
     * Names pinned by {@code network.resolve} are answered before DNS is asked,
     * through a {@link CachingResolver} with the {@code network.dns} settings (dnsjava by default).
     */
    public static Options from(CrawlConfig config) {
      return from(config, dnsCache(config));
    }

    /**
     * The DNS cache a crawl configuration implies ({@code network.dns}): a lookup never outlives the
     * fetch it is part of. Built apart so that its owner can read its counters.
     */
    public static CachingResolver dnsCache(CrawlConfig config) {
      CrawlConfig.Dns dns = config.network().dns();
      CachingResolver.Builder builder = CachingResolver.builder().servers(dns.servers())
          .ttlBounds(dns.minTtl(), dns.maxTtl()).fallbackTtl(dns.cacheTtl()).negativeTtl(dns.negativeTtl())
          .timeout(min(dns.timeout(), config.limits().fetchTimeout()));
      return (dns.resolver() == CrawlConfig.Dns.ResolverKind.SYSTEM ? builder.over(Resolver.system()) : builder)
          .build();
    }

    /** Like {@link #from(CrawlConfig)}, resolving through {@code dnsCache}. */
    public static Options from(CrawlConfig config, CachingResolver dnsCache) {
      CrawlConfig.Limits limits = config.limits();
      CrawlConfig.Network network = config.network();
      return new Options(
          config.userAgent(),
          limits.maxPageBytes(),
          limits.fetchTimeout(),
          limits.maxDecompressionRatio(),
          network.allowPrivateAddresses(),
          (int) Math.min(Integer.MAX_VALUE, Math.max(64L, 4L * config.concurrency())),
          // Pinned names are answered before the cache, so they are never cached.
          Resolver.pinned(network.resolve(), dnsCache),
          network.verifyTls());
    }

    private static Duration min(Duration a, Duration b) {
      return a.compareTo(b) <= 0 ? a : b;
    }

    /** These options with host names resolved by {@code resolver} (tests answer as they please). */
    public Options withResolver(Resolver resolver) {
      return new Options(userAgent, maxPageBytes, fetchTimeout, maxDecompressionRatio, allowPrivateAddresses,
          maxConnections, resolver, verifyTls);
    }

    /** These options with TLS certificates verified or not. */
    public Options withVerifyTls(boolean verifyTls) {
      return new Options(userAgent, maxPageBytes, fetchTimeout, maxDecompressionRatio, allowPrivateAddresses,
          maxConnections, resolver, verifyTls);
    }
  }

  private final Options options;
  private final long timeoutNanos;
  private final ConnectionPool pool;
  private final Connector connector;
  private final DeadlineTimer timer;
  private final FetchSweeper sweeper;
  /** From a fetch's start to its sweep: twice the timeout, so never before its alarm. */
  private final long sweepAfterNanos;
  private final BodyReader bodyReader;
  /** The reader of requests that ask for more than the page cap (robots.txt), made at the first. */
  private final ConcurrentHashMap<Long, BodyReader> largerReaders = new ConcurrentHashMap<>();
  /** Where the heads of requests read through a gate (the crawl's early requests) are written together. */
  private final SendBatch sendBatch = new SendBatch(SendBatch.WINDOW_NANOS);

  public HttpFetcher(Options options) {
    this(options, new DeadlineTimer());
  }

  /** With the deadline timer given: tests use one whose alarms never fire. */
  HttpFetcher(Options options, DeadlineTimer timer) {
    this(options, timer, new FetchSweeper(FetchSweeper.periodFor(options.fetchTimeout().toNanos())));
  }

  /** With the deadline timer and the sweeper given; the fetcher closes both. */
  HttpFetcher(Options options, DeadlineTimer timer, FetchSweeper sweeper) {
    this.options = Objects.requireNonNull(options, "options");
    this.timer = Objects.requireNonNull(timer, "timer");
    this.sweeper = Objects.requireNonNull(sweeper, "sweeper");
    this.timeoutNanos = options.fetchTimeout().toNanos();
    // Saturated: a timeout of centuries must not wrap the sweep time into the past.
    this.sweepAfterNanos = timeoutNanos > Long.MAX_VALUE / 4 ? Long.MAX_VALUE / 2 : 2 * timeoutNanos;
    this.bodyReader = new BodyReader(options.maxPageBytes(), options.maxDecompressionRatio());
    if (!options.verifyTls()) {
      System.err.println("forager: network.tls.verify is false: https certificates and host names are"
          + " NOT checked; anyone on the path can pose as any site");
    }
    boolean enforce = !options.allowPrivateAddresses();
    // The policy is applied twice before a byte is sent: on the resolver's answer, and on the address
    // each socket is about to connect to.
    this.connector = new Connector(new PolicyDnsResolver(options.resolver(), enforce), new PolicySockets(enforce),
        TlsStrategies.lazily(options.verifyTls()));
    this.pool = new ConnectionPool(options.maxConnections());
  }

  @Override
  public FetchResult fetch(FetchRequest request) {
    return fetch(request, ResponseGate.NONE);
  }

  @Override
  public FetchResult fetch(FetchRequest request, ResponseGate gate) {
    Objects.requireNonNull(gate, "gate");
    Instant startedAt = Instant.now();
    long start = System.nanoTime();
    long deadline = start + timeoutNanos;
    try {
      Optional<RequestTarget> target = RequestTarget.of(request.url());
      if (target.isEmpty()) {
        return failure(request, startedAt, start, FailureKind.PROTOCOL, "not an http(s) URL");
      }
      return exchange(request, target.get(), gate, startedAt, start, deadline);
    } catch (RuntimeException e) {
      // A bug here must not end a crawl thread; it is reported like a failure.
      return failure(request, startedAt, start, FailureKind.NETWORK,
          "unexpected " + FailureClassifier.describe(e));
    }
  }

  private FetchResult exchange(FetchRequest request, RequestTarget target, ResponseGate gate, Instant startedAt,
      long start, long deadline) {
    Route route = route(request, target);
    byte[] head = requestHead(request, target, route);
    Abort abort = new Abort();
    ScheduledFuture<?> alarm = timer.schedule(timeoutNanos, abort);
    FetchSweeper.Entry swept = sweeper.register(start + sweepAfterNanos, abort);
    try {
      Sent sent;
      try {
        sent = send(route, head, gate, abort, deadline);
      } catch (IOException e) {
        FailureKind kind = FailureClassifier.classify(e, abort.expired);
        // A lookup that failed, an address the policy refused: no connect was tried, none failed.
        boolean unconnected = abort.unconnected() && (kind == FailureKind.NETWORK || kind == FailureKind.TIMEOUT);
        return new Failure(request.url(), startedAt, elapsedMillis(start), kind, FailureClassifier.describe(e),
            unconnected);
      }
      return readResponse(request, head, sent, abort, startedAt, start, deadline);
    } finally {
      alarm.cancel(false);
      swept.close();
    }
  }

  /**
   * The route of the request: the address to connect to when the request names one (connections to
   * other addresses of the host are kept apart). TLS still names the host (SNI, certificate check)
   * and the request still carries it in {@code Host}.
   */
  private static Route route(FetchRequest request, RequestTarget target) {
    String host = target.host();
    int port = target.port() >= 0 ? target.port() : target.tls() ? 443 : 80;
    Optional<InetAddress> pinned = IpLiterals.isLiteral(host) ? Optional.empty() : request.address();
    return new Route(target.tls(), host, port, target.hostHeader(), pinned);
  }

  /**
   * The request head, as it goes on the wire and into the WARC's request record (RFC 9112 section 3):
   * the request line, the fields in this order, a blank line.
   */
  private byte[] requestHead(FetchRequest request, RequestTarget target, Route route) {
    StringBuilder head = new StringBuilder(256).append("GET ").append(target.pathAndQuery())
        .append(" HTTP/1.1\r\nUser-Agent: ").append(options.userAgent())
        .append("\r\nAccept: ").append(ACCEPT)
        .append("\r\nAccept-Encoding: ").append(ACCEPT_ENCODING).append("\r\n");
    request.etag().filter(HttpFetcher::isFieldValue).ifPresent(v -> head.append("If-None-Match: ").append(v).append("\r\n"));
    request.lastModified().filter(HttpFetcher::isFieldValue)
        .ifPresent(v -> head.append("If-Modified-Since: ").append(v).append("\r\n"));
    head.append("Host: ").append(route.hostHeader()).append("\r\nConnection: keep-alive\r\n\r\n");
    return head.toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * What the deadline's alarm and the sweeper do: mark the fetch expired and close its connection,
   * wherever the exchange is (connecting, sending, waiting for or reading the response); once,
   * whoever calls first. A socket made after it fired is closed at once.
   */
  private static final class Abort implements Runnable {
    volatile boolean expired;
    /** Set while a new connection is being made. */
    volatile boolean connecting;
    private Socket socket;

    /** Whether the exchange failed making its connection, before any socket of it connected. */
    synchronized boolean unconnected() {
      return connecting && (socket == null || !socket.isConnected());
    }

    @Override
    public void run() {
      Socket toClose;
      synchronized (this) {
        expired = true;
        toClose = socket;
      }
      closeQuietly(toClose);
    }

    /** The exchange's socket now; closed at once when the deadline has passed. */
    void watch(Socket current) {
      boolean late;
      synchronized (this) {
        socket = current;
        late = expired;
      }
      if (late) closeQuietly(current);
    }

    private static void closeQuietly(Socket socket) {
      if (socket == null) return;
      try {
        socket.close();
      } catch (IOException e) {
        // Closing to abort: nothing more to do.
      }
    }
  }

  /** A response whose head has arrived, on its connection. */
  private record Sent(Connection connection, ResponseHeadLimits.ResponseHead head) {}

  /**
   * Sends the request and waits for the response head. When the request failed on a kept-alive
   * connection before any byte of a response came back (the server closed the connection as it was
   * reused), or was answered 408 there (the server timing out the idle connection, not an answer to
   * this request), it is sent once more, at once, on a new connection: that is no failure of the page
   * (RFC 9110 section 9.2.2, RFC 9112 section 9.3.1; what Chrome does too). The first connection is
   * closed by then, so this is still one request in flight. A failure on a new connection is not
   * retried here: that is the crawl loop's decision, after its delay.
   */
  private Sent send(Route route, byte[] head, ResponseGate gate, Abort abort, long deadline) throws IOException {
    Connection connection = pool.take(route, abort::watch);
    if (connection != null) {
      long receivedBefore = connection.received;
      try {
        Sent sent = roundTrip(connection, head, gate, deadline);
        if (sent.head().status() != 408 || abort.expired) return sent;
        pool.discardUnanswered(connection);
      } catch (IOException e) {
        boolean unanswered = !abort.expired && !(e instanceof InterruptedIOException)
            && connection.received == receivedBefore;
        if (unanswered) pool.discardUnanswered(connection); else pool.discard(connection);
        if (!unanswered) throw e;
      } catch (RuntimeException | Error e) {
        // An Error too: the crawl may go on after it (a stack overflow), and the connection, in the middle
        // of an exchange, must be closed rather than kept open and counted taken for ever.
        pool.discard(connection);
        throw e;
      }
    }
    if (abort.expired) throw new SocketTimeoutException("deadline passed before a connection was ready");
    gate.leave(); // a new connection (DNS, connect, TLS) is made holding no place in the gate
    abort.connecting = true;
    connection = connector.connect(route, deadline, abort::watch);
    abort.connecting = false;
    pool.opened(connection);
    try {
      return roundTrip(connection, head, gate, deadline);
    } catch (IOException | RuntimeException | Error e) {
      pool.discard(connection);
      throw e;
    }
  }

  private Sent roundTrip(Connection connection, byte[] head, ResponseGate gate, long deadline) throws IOException {
    if (gate != ResponseGate.NONE && SendBatch.takes(connection, head)) {
      sendBatch.send(connection, head); // an early request: written with others
    } else {
      connection.send(head);
    }
    connection.requests++;
    gate.enter();
    connection.readThrough(gate);
    return new Sent(connection, ResponseHeadLimits.read(connection, deadline));
  }

  /** The body reader for {@code request}: the fetcher's own, or one with a larger cap it asks for. */
  private BodyReader readerFor(FetchRequest request) {
    if (request.minBodyBytes() <= options.maxPageBytes()) return bodyReader;
    return largerReaders.computeIfAbsent(request.minBodyBytes(),
        bytes -> new BodyReader(bytes, options.maxDecompressionRatio()));
  }

  private FetchResult readResponse(FetchRequest request, byte[] requestHead, Sent sent, Abort abort,
      Instant startedAt, long start, long deadline) {
    Connection connection = sent.connection();
    ResponseHeadLimits.ResponseHead head = sent.head();
    boolean reusable = false;
    try {
      Body body = Body.EMPTY;
      MessageBody wire = null;
      try {
        if (hasBody(head)) {
          TransferCodings transfer = TransferCodings.of(head.values("Transfer-Encoding"));
          wire = bodyOf(connection, head, transfer);
          body = readerFor(request).read(wire, transfer, head.values("Content-Encoding"), deadline,
              wire.announcedLength());
        }
        // Reused only when the body was read to its end, nothing came after it, and the server keeps
        // the connection open.
        // (and not when its request head is still queued: the server answered before it came)
        reusable = !abort.expired && !connection.headQueued && body.complete() && (wire == null || wire.ended())
            && keepsAlive(head)
            && !(wire != null && wire.isUntilClose()) && connection.position == connection.limit;
      } catch (HttpProtocolException e) {
        // A body whose framing or transfer coding cannot be read (RFC 9112 sections 6.1 and 6.3): what
        // came is no body.
        return failure(request, startedAt, start, FailureKind.PROTOCOL, FailureClassifier.describe(e));
      }
      return new FetchResult.Response(
          request.url(),
          startedAt,
          elapsedMillis(start),
          requestHead,
          Optional.ofNullable(connection.remoteAddress()).map(InetAddress::getHostAddress),
          head.version(),
          head.status(),
          head.reason(),
          List.copyOf(head.headers()),
          body.raw(),
          body.decoded(),
          body.truncation());
    } finally {
      abort.watch(null); // an alarm that fires from now on must not close a pooled connection
      connection.readThrough(ResponseGate.NONE);
      pool.release(connection, reusable && !abort.expired);
    }
  }

  /** Whether the response has a body (RFC 9112 section 6.3): not a 1xx, 204 or 304. */
  private static boolean hasBody(ResponseHeadLimits.ResponseHead head) {
    int status = head.status();
    return status >= 200 && status != 204 && status != 304;
  }

  /**
   * The response's body on the wire (RFC 9112 section 6.3): chunks when its transfer codings end in
   * chunked, until the connection closes for other transfer codings, else as its Content-Length says.
   * A Content-Length that is not one number is a {@link HttpProtocolException}.
   */
  private static MessageBody bodyOf(Connection connection, ResponseHeadLimits.ResponseHead head,
      TransferCodings transfer) throws HttpProtocolException {
    if (transfer.present()) {
      return transfer.chunked() ? MessageBody.chunked(connection) : MessageBody.untilClose(connection);
    }
    long length = contentLength(head);
    return length >= 0 ? MessageBody.ofLength(connection, length) : MessageBody.untilClose(connection);
  }

  /** The Content-Length, -1 when none; every value given must be the same number. */
  private static long contentLength(ResponseHeadLimits.ResponseHead head) throws HttpProtocolException {
    long length = -1;
    for (Header h : head.headers()) {
      if (!h.name().equalsIgnoreCase("Content-Length")) continue;
      // Its comma-separated values, empty ones too (each must be the number), without String.split:
      // one a response.
      String values = h.value();
      for (int from = 0; from <= values.length(); ) {
        int end = values.indexOf(',', from);
        if (end < 0) end = values.length();
        long parsed = digits(values.substring(from, end).strip());
        if (parsed < 0 || (length >= 0 && parsed != length)) {
          throw new HttpProtocolException("invalid Content-Length: " + values);
        }
        length = parsed;
        from = end + 1;
      }
    }
    return length;
  }

  /** The number {@code text} writes in 1 to 18 decimal digits (1*DIGIT: no sign, no space); else -1. */
  private static long digits(String text) {
    if (text.isEmpty() || text.length() > 18) return -1;
    long value = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') return -1;
      value = value * 10 + (c - '0');
    }
    return value;
  }

  /** Whether the server keeps the connection open after this response (RFC 9112 section 9.3). */
  private static boolean keepsAlive(ResponseHeadLimits.ResponseHead head) {
    boolean http10 = head.version().equals("HTTP/1.0");
    boolean close = false;
    boolean keepAlive = false;
    boolean transferCoded = false;
    boolean lengthToo = false;
    for (Header h : head.headers()) {
      String name = h.name();
      if (name.equalsIgnoreCase("Transfer-Encoding")) transferCoded = true;
      if (name.equalsIgnoreCase("Content-Length")) lengthToo = true;
      if (!name.equalsIgnoreCase("Connection")) continue;
      for (String option : h.value().split(",")) {
        String o = option.strip();
        if (o.equalsIgnoreCase("close")) close = true;
        else if (o.equalsIgnoreCase("keep-alive")) keepAlive = true;
      }
    }
    if (head.status() == 101) return false;
    // Both framings at once, or a transfer coding in HTTP/1.0: the body is read as the coding says,
    // and the connection is not trusted with another request (RFC 9112 section 6.1 and 6.3: faulty
    // framing, a sign of request smuggling).
    return !close && (!http10 || keepAlive) && !(transferCoded && (lengthToo || http10));
  }

  /** A value safe to put in a header field: no control characters that could split the head. */
  private static boolean isFieldValue(String value) {
    return !value.isBlank() && value.chars().noneMatch(c -> (c < 0x20 && c != '\t') || c == 0x7f);
  }

  private static Failure failure(FetchRequest request, Instant startedAt, long start, FailureKind kind,
      String message) {
    return new Failure(request.url(), startedAt, elapsedMillis(start), kind, message);
  }

  private static long elapsedMillis(long start) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  /** How many fetches the sweeper holds: those in flight. */
  int fetchesInFlight() {
    return sweeper.inFlight();
  }

  /** Connections open, idle or in use. */
  int connectionsOpen() {
    return pool.open();
  }

  @Override
  public void close() {
    pool.close(); // first: a batched write blocked on a pooled connection ends with it
    sendBatch.close();
    timer.close();
    sweeper.close();
  }
}
