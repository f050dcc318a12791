package org.forager.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.HttpVersion;
import org.apache.hc.core5.http.ProtocolVersion;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.forager.config.CrawlConfig;
import org.forager.dns.CachingResolver;
import org.forager.dns.IpLiterals;
import org.forager.dns.Resolver;
import org.forager.fetch.BodyReader.Body;
import org.forager.fetch.FetchResult.Failure;
import org.forager.fetch.FetchResult.FailureKind;

/**
 * The {@link Fetcher} on Apache HttpClient 5 (classic, blocking I/O, meant for virtual threads):
 * HTTP/1.1 GETs over a pool of keep-alive connections, at most one per origin.
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
 *       short says why ({@link FetchResult.Truncation}).
 *   <li>A request that fails on a reused keep-alive connection before any byte of a response is
 *       sent once more on a new connection (see {@link StaleConnectionDetector}); no other retry.
 *   <li>Unless {@code allowPrivateAddresses}, only public addresses are connected to (see
 *       {@link NetworkPolicy}): checked on the resolver's answer for each new connection and again on
 *       the address each socket connects to, before any byte is sent. Never through a proxy.
 *   <li>https certificates are verified (trusted chain, valid, naming the host) unless
 *       {@code verifyTls} is false.
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
   * @param maxConnections the most connections open at once, idle keep-alive ones included; when
   *     reached, the least recently used idle connection is closed to make room
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
  private final PoolingHttpClientConnectionManager connections;
  private final CloseableHttpClient client;
  private final DeadlineTimer timer;
  private final FetchSweeper sweeper;
  /** From a fetch's start to its sweep: twice the timeout, so never before its alarm. */
  private final long sweepAfterNanos;
  private final BodyReader bodyReader;

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
    this.connections = connectionManager(options);
    Timeout timeout = Timeout.of(timeoutNanos, TimeUnit.NANOSECONDS);
    // Every request starts its clock here, so the whole timeout is its budget for each phase. The
    // response timeout would set the socket's read timeout for each exchange: it is off, see
    // connectionManager.
    RequestConfig requestConfig = RequestConfig.custom()
        .setRedirectsEnabled(false)
        .setAuthenticationEnabled(false)
        .setContentCompressionEnabled(false)
        .setExpectContinueEnabled(false)
        .setProtocolUpgradeEnabled(false)
        .setConnectionRequestTimeout(timeout)
        .setResponseTimeout(Timeout.DISABLED)
        .build();
    this.client = HttpClients.custom()
        .setConnectionManager(connections)
        .setDefaultRequestConfig(requestConfig)
        .disableRedirectHandling()
        .disableContentCompression()
        .disableCookieManagement()
        .disableAuthCaching()
        .disableAutomaticRetries() // retries are the crawl loop's, after a polite delay; see send()
        .disableConnectionState()
        .setRequestExecutor(new StaleConnectionDetector())
        .addRequestInterceptorLast(new RequestHeadCapture())
        .evictIdleConnections(TimeValue.ofSeconds(30))
        .evictExpiredConnections()
        .build();
  }

  private static PoolingHttpClientConnectionManager connectionManager(Options options) {
    Timeout timeout = Timeout.of(options.fetchTimeout());
    boolean enforce = !options.allowPrivateAddresses();
    if (!options.verifyTls()) {
      System.err.println("forager: network.tls.verify is false: https certificates and host names are"
          + " NOT checked; anyone on the path can pose as any site");
    }
    // The policy is applied twice before a byte is sent: on the resolver's answer, and on the address
    // each socket is about to connect to.
    // One connection an origin (the crawl loop never has two requests in flight to one), at most
    // maxConnections in all; when full, the least recently used idle connection is closed.
    PolicyConnectionManager manager = new PolicyConnectionManager(new PolicySockets(enforce),
        new PolicyDnsResolver(options.resolver(), enforce), TlsStrategies.lazily(options.verifyTls()),
        ManagedHttpClientConnectionFactory.builder()
            // Bounded heads (line, field count, total bytes, time) and the strict status-line parser.
            .http1Config(ResponseHeadLimits.HTTP1_CONFIG)
            .responseParserFactory(new ResponseHeadLimits(options.fetchTimeout()))
            .build(),
        1, options.maxConnections());
    // Reads wait without a timeout (SO_TIMEOUT 0): on a virtual thread each read that waits with
    // one schedules and cancels a timer in the carrier pool (~3 % of a crawl's CPU). The fetch's
    // deadline alarm and, should it be lost, the sweeper end a read that waits too long. HttpCore
    // defaults to 3 minutes, so 0 is set here, on the connection and on each request.
    manager.setDefaultSocketConfig(SocketConfig.custom().setSoTimeout(Timeout.DISABLED).setTcpNoDelay(true).build());
    manager.setDefaultConnectionConfig(ConnectionConfig.custom()
        .setConnectTimeout(timeout) // once per connection, not per read
        .setSocketTimeout(Timeout.DISABLED)
        // A connection idle this long is checked before reuse (up to 1 ms): one the server
        // closed while idle is replaced, not sent a request. Keep-alive timeouts are seconds,
        // so a shorter idle rarely finds one closed; the close the check cannot see (in flight,
        // or after the server read the request) costs one resend, see send().
        .setValidateAfterInactivity(TimeValue.ofSeconds(1))
        .setTimeToLive(TimeValue.ofMinutes(5))
        .build());
    return manager;
  }

  @Override
  public FetchResult fetch(FetchRequest request) {
    Instant startedAt = Instant.now();
    long start = System.nanoTime();
    long deadline = start + timeoutNanos;
    try {
      Optional<URI> target = RequestTarget.of(request.url());
      if (target.isEmpty()) {
        return failure(request, startedAt, start, FailureKind.PROTOCOL, "not an http(s) URL");
      }
      return exchange(request, target.get(), startedAt, start, deadline);
    } catch (RuntimeException e) {
      // A bug here or in the client must not end a crawl thread; it is reported like a failure.
      return failure(request, startedAt, start, FailureKind.NETWORK,
          "unexpected " + FailureClassifier.describe(e));
    }
  }

  private FetchResult exchange(FetchRequest request, URI target, Instant startedAt, long start,
      long deadline) {
    HttpGet get = new HttpGet(target);
    get.setHeader("User-Agent", options.userAgent());
    get.setHeader("Accept", ACCEPT);
    get.setHeader("Accept-Encoding", ACCEPT_ENCODING);
    request.etag().filter(HttpFetcher::isFieldValue).ifPresent(v -> get.setHeader("If-None-Match", v));
    request.lastModified().filter(HttpFetcher::isFieldValue)
        .ifPresent(v -> get.setHeader("If-Modified-Since", v));

    AtomicBoolean expired = new AtomicBoolean();
    Runnable abort = () -> {
      expired.set(true);
      get.cancel(); // closes the connection at once, wherever the exchange is; once, whoever calls
    };
    ScheduledFuture<?> alarm = timer.schedule(timeoutNanos, abort);
    FetchSweeper.Entry swept = sweeper.register(start + sweepAfterNanos, abort);
    try {
      Sent sent;
      try {
        sent = send(pinnedTarget(request, target), get, expired);
      } catch (IOException e) {
        return failure(request, startedAt, start, FailureClassifier.classify(e, expired.get()),
            FailureClassifier.describe(e));
      }
      try {
        return readResponse(request, get, sent.response(), sent.context(), startedAt, start, deadline);
      } finally {
        try {
          sent.response().close();
        } catch (IOException e) {
          // Closing only returns or discards the connection; nothing left to report.
        }
      }
    } finally {
      alarm.cancel(false);
      swept.close();
    }
  }

  /**
   * The target with the address to connect to when the request names one (the client then connects
   * to it without asking the resolver, and keeps its connections apart from those to other addresses
   * of the host); null to let the client resolve the host. TLS still names the host (SNI, certificate
   * check) and the request still carries it in {@code Host}.
   */
  private static HttpHost pinnedTarget(FetchRequest request, URI target) {
    if (request.address().isEmpty() || IpLiterals.parse(target.getHost()).isPresent()) return null;
    return new HttpHost(target.getScheme(), request.address().get(), target.getHost(), target.getPort());
  }

  /** A response whose head has arrived, and the context of the exchange that brought it. */
  private record Sent(ClassicHttpResponse response, HttpClientContext context) {}

  /**
   * Sends the request and waits for the response head. When the request failed on a kept-alive
   * connection before any byte of a response came back (the server closed the connection as it was
   * reused), it is sent once more, at once, on a new connection: that is no failure of the page.
   * The first connection is closed by then, so this is still one request in flight. A failure on a
   * new connection is not retried here: that is the crawl loop's decision, after its delay.
   */
  private Sent send(HttpHost pinned, HttpGet get, AtomicBoolean expired) throws IOException {
    HttpClientContext context = HttpClientContext.create();
    try {
      ClassicHttpResponse response = client.executeOpen(pinned, get, context);
      if (!StaleConnectionDetector.timedOutIdleOnReusedConnection(context) || expired.get()) {
        return new Sent(response, context);
      }
      // The server's idle timeout raced our request (what Chrome resends too): the connection is
      // closed with the answer before the same request goes out again on a new one.
      if (response instanceof CloseableHttpResponse closeable) closeable.close(CloseMode.IMMEDIATE);
      else response.close();
      HttpClientContext again = HttpClientContext.create();
      return new Sent(client.executeOpen(pinned, get, again), again);
    } catch (IOException e) {
      if (expired.get() || e instanceof InterruptedIOException // a timeout or an abort
          || !StaleConnectionDetector.failedUnansweredOnReusedConnection(context)) {
        throw e;
      }
      HttpClientContext again = HttpClientContext.create();
      return new Sent(client.executeOpen(pinned, get, again), again);
    }
  }

  private FetchResult readResponse(FetchRequest request, HttpGet get, ClassicHttpResponse response,
      HttpClientContext context, Instant startedAt, long start, long deadline) {
    Optional<InetAddress> remote = remoteAddress(context);
    Body body = readBody(response, deadline);
    if (!body.complete()) {
      // Do not let closing the response drain the rest of a body we gave up on.
      get.cancel();
    }
    List<Header> headers = new ArrayList<>();
    for (org.apache.hc.core5.http.Header h : response.getHeaders()) {
      headers.add(new Header(h.getName(), h.getValue()));
    }
    ProtocolVersion version = response.getVersion() != null
        ? response.getVersion()
        : Objects.requireNonNullElse(context.getProtocolVersion(), HttpVersion.HTTP_1_1);
    byte[] requestHead = context.getAttribute(RequestHeadCapture.ATTRIBUTE) instanceof byte[] head
        ? head
        : RequestHeadCapture.format(get);
    return new FetchResult.Response(
        request.url(),
        startedAt,
        elapsedMillis(start),
        requestHead,
        remote.map(InetAddress::getHostAddress),
        version.toString(),
        response.getCode(),
        Objects.requireNonNullElse(response.getReasonPhrase(), ""),
        List.copyOf(headers),
        body.raw(),
        body.decoded(),
        body.truncation());
  }

  private Body readBody(ClassicHttpResponse response, long deadline) {
    HttpEntity entity = response.getEntity();
    if (entity == null) return Body.EMPTY;
    List<String> encodings = new ArrayList<>();
    for (org.apache.hc.core5.http.Header h : response.getHeaders("Content-Encoding")) {
      encodings.add(h.getValue());
    }
    try {
      InputStream wire = entity.getContent();
      return wire == null ? Body.EMPTY : bodyReader.read(wire, encodings, deadline, entity.getContentLength());
    } catch (IOException e) {
      return Body.cutShort(BodyReader.wireFailure(deadline));
    }
  }

  private static Optional<InetAddress> remoteAddress(HttpClientContext context) {
    EndpointDetails endpoint = context.getEndpointDetails();
    if (endpoint == null) return Optional.empty();
    SocketAddress address = endpoint.getRemoteAddress();
    return address instanceof InetSocketAddress inet && inet.getAddress() != null
        ? Optional.of(inet.getAddress())
        : Optional.empty();
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

  @Override
  public void close() {
    timer.close();
    sweeper.close();
    try {
      client.close();
    } catch (IOException e) {
      // Closing sockets at shutdown: nothing useful to do about a failure.
    }
    connections.close(CloseMode.IMMEDIATE);
  }
}
