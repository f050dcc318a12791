package org.forager.fetch;

import static org.forager.fetch.RawServer.ascii;
import static org.forager.fetch.RawServer.readRequestHead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.forager.config.CrawlConfig;
import org.forager.dns.IpLiterals;
import org.forager.dns.Resolver;
import org.forager.fetch.FetchResult.Failure;
import org.forager.fetch.FetchResult.FailureKind;
import org.forager.fetch.FetchResult.Response;
import org.forager.url.UrlNormalizer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The network policy as the fetcher applies it: every spelling and every DNS answer of an internal
 * address is refused before a connection is made, checked from the server's side (a loopback server
 * that counts connections sees none). An address outside 127.0.0.0/8 is only ever handed to the
 * fetcher after the test has checked that the policy refuses it, so a regression fails the test before
 * anything could be sent there.
 */
@Timeout(20)
class HttpFetcherPolicyTest {

  private static final HttpFetcher.Options STRICT =
      new HttpFetcher.Options("ForagerTest/1.0", 1 << 20, Duration.ofSeconds(2), 100, false, 16);

  private final AtomicReference<String> lastHead = new AtomicReference<>();
  private RawServer server;
  private HttpFetcher fetcher;

  @BeforeEach
  void start() throws IOException {
    server = new RawServer(socket -> {
      lastHead.set(new String(readRequestHead(socket.getInputStream()), StandardCharsets.ISO_8859_1));
      socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
    });
  }

  @AfterEach
  void stop() throws IOException {
    if (fetcher != null) fetcher.close();
    server.close();
  }

  /** A resolver answering one address for every name, counting the lookups. */
  private record Answering(InetAddress address, AtomicInteger lookups) implements Resolver {
    Answering(InetAddress address) {
      this(address, new AtomicInteger());
    }

    @Override
    public List<InetAddress> resolve(String host) {
      lookups.incrementAndGet();
      return List.of(address);
    }
  }

  private static Failure assertBlocked(FetchResult result) {
    Failure failure = assertInstanceOf(Failure.class, result);
    assertEquals(FailureKind.BLOCKED_BY_NETWORK_POLICY, failure.kind(), failure.message());
    return failure;
  }

  /**
   * The bug of issue 19: a DNS answer of {@code ::ffff:127.0.0.1} is an {@code Inet6Address}, which the
   * policy judged as IPv6 and let through, and the socket then reached 127.0.0.1. Every IPv6 form
   * that carries a refused IPv4 address, and the plain internal ranges, answered by DNS for a name.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "::ffff:127.0.0.1", "::ffff:169.254.169.254", "::ffff:10.0.0.1", "::127.0.0.1", "64:ff9b::7f00:1",
      "2002:7f00:1::", "2001:0:4136:e378:8000:63bf:80ff:fffe", "fc00::1", "fd00::1", "fe80::1", "::", "::1",
      "169.254.169.254", "0.0.0.0", "10.0.0.1", "192.168.0.1", "100.64.0.1"})
  void aNameAnsweredWithAnInternalAddressIsRefusedAndNothingIsSent(String answer) throws IOException {
    InetAddress address = answer.contains(":") ? NetworkPolicyTest.aaaa(answer) : InetAddress.getByName(answer);
    assertTrue(NetworkPolicy.isBlocked(address), answer + " must be refused before the fetcher is given it");
    Answering dns = new Answering(address);
    fetcher = new HttpFetcher(STRICT.withResolver(dns));

    Failure failure = assertBlocked(
        fetcher.fetch(FetchRequest.of("http://internal.test:" + server.port() + "/")));

    assertTrue(failure.message().contains(address.getHostAddress()), failure.message());
    assertEquals(1, dns.lookups().get());
    assertEquals(0, server.connections());
  }

  /**
   * Literal spellings of loopback, as the crawl hands them to the fetcher (normalized): refused today,
   * pinned here (issue 19, "Defences that hold today").
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "http://0:%d/", "http://0x7f.1:%d/", "http://2130706433:%d/", "http://017700000001:%d/",
      "http://0177.0.0.1:%d/", "http://127.1:%d/", "http://127。0。0。1:%d/", "http://１２７．０．０．１:%d/",
      "http://127．0．0．1:%d/", "http://[::1]:%d/", "http://[0:0:0:0:0:ffff:7f00:1]:%d/",
      "http://[::ffff:127.0.0.1]:%d/", "http://0.0.0.0:%d/", "http://[::]:%d/", "http://localhost:%d/",
      "http://user:secret@127.0.0.1:%d/", "http://example.org@127.0.0.1:%d/", "http://127.0.0.1:%d/robots.txt",
      "http://127.0.0.1:%d/sitemap.xml"})
  void everyLiteralSpellingOfLoopbackIsRefusedAndNothingIsSent(String spelling) {
    String url = UrlNormalizer.normalize(spelling.formatted(server.port())).orElseThrow();
    fetcher = new HttpFetcher(STRICT);

    assertBlocked(fetcher.fetch(FetchRequest.of(url)));
    assertEquals(0, server.connections(), url);
  }

  /**
   * DNS rebinding: a name that answered a public address to an earlier lookup (a check, a cache, a
   * previous connection) answers loopback now. The fetcher trusts no earlier answer: it resolves for
   * the connection it opens and judges that answer. Only loopback is ever offered for a connection,
   * so no public address is contacted by the test.
   */
  @Test
  void dnsRebindingToLoopbackIsRefusedOnTheAddressActuallyConnectedTo() throws IOException {
    InetAddress publicAddress = InetAddress.getByName("93.184.215.14");
    InetAddress loopback = NetworkPolicyTest.aaaa("::ffff:127.0.0.1");
    AtomicInteger lookups = new AtomicInteger();
    Resolver rebinding = host -> List.of(lookups.getAndIncrement() == 0 ? publicAddress : loopback);
    assertEquals(List.of(publicAddress), rebinding.resolve("rebind.test"), "the earlier lookup looked public");
    assertFalse(NetworkPolicy.isBlocked(publicAddress));
    fetcher = new HttpFetcher(STRICT.withResolver(rebinding));

    assertBlocked(fetcher.fetch(FetchRequest.of("http://rebind.test:" + server.port() + "/")));
    assertBlocked(fetcher.fetch(FetchRequest.of("http://rebind.test:" + server.port() + "/robots.txt")));

    assertEquals(3, lookups.get(), "one lookup per connection attempted, none reused");
    assertEquals(0, server.connections());
  }

  /** curl's --resolve: the pinned address is connected to; the request still names the host. */
  @Test
  void aPinnedNameIsFetchedFromThePinnedAddressWhenPrivateAddressesAreAllowed() {
    fetcher = new HttpFetcher(HttpFetcher.Options.from(config(true, "127.0.0.1")));

    Response response = assertInstanceOf(Response.class,
        fetcher.fetch(FetchRequest.of("http://staging.test:" + server.port() + "/")));

    assertEquals(200, response.status());
    assertEquals(java.util.Optional.of("127.0.0.1"), response.remoteAddress());
    assertTrue(lastHead.get().contains("\r\nHost: staging.test:" + server.port() + "\r\n"), lastHead.get());
  }

  /** A pin is an answer like any other: the policy still judges it. */
  @Test
  void aPinnedPrivateAddressIsRefusedUnlessPrivateAddressesAreAllowed() {
    fetcher = new HttpFetcher(HttpFetcher.Options.from(config(false, "::ffff:127.0.0.1")));

    Failure failure = assertBlocked(fetcher.fetch(FetchRequest.of("http://staging.test:" + server.port() + "/")));

    assertTrue(failure.message().contains("staging.test"), failure.message());
    assertEquals(0, server.connections());
  }

  private static CrawlConfig config(boolean allowPrivate, String pinned) {
    return CrawlConfig.defaults().withNetwork(new CrawlConfig.Network(allowPrivate,
        Map.of("staging.test", List.of(IpLiterals.parse(pinned).orElseThrow())), true));
  }

  /** The second check, on its own: the socket refuses the peer before connecting, whatever resolved it. */
  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "::ffff:127.0.0.1"})
  void aCheckedSocketRefusesARefusedPeerBeforeConnecting(String peer) throws IOException {
    InetAddress address = peer.contains(":") ? NetworkPolicyTest.aaaa(peer) : InetAddress.getByName(peer);
    try (Socket socket = new PolicySockets(true).create()) {
      var e = assertThrows(BlockedAddressException.class,
          () -> socket.connect(new InetSocketAddress(address, server.port()), 1000));
      assertTrue(e.getMessage().startsWith("not connecting to "), e.getMessage());
    }
    try (Socket socket = new PolicySockets(false).create()) {
      socket.connect(new InetSocketAddress(address, server.port()), 1000);
      // An answer read back means the server has accepted (and counted) the connection.
      socket.getOutputStream().write(ascii("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
      assertTrue(socket.getInputStream().read() >= 0);
    }
    assertEquals(1, server.connections(), "only the unchecked socket connected");
  }

  /**
   * The socket check is wired into the fetcher's connector: with a resolver that lets loopback
   * through, the socket still refuses it.
   */
  @Test
  void theConnectorConnectsOnlyThroughCheckedSockets() {
    Connector connector = new Connector(new PolicyDnsResolver(Resolver.system(), false), new PolicySockets(true),
        TlsStrategies.of(true));
    Route route = new Route(false, "127.0.0.1", server.port(), "127.0.0.1:" + server.port(), Optional.empty());
    var e = assertThrows(IOException.class, () -> connector.connect(route, System.nanoTime() + 5_000_000_000L, s -> {}));
    assertEquals(FailureKind.BLOCKED_BY_NETWORK_POLICY, FailureClassifier.classify(e, false),
        FailureClassifier.describe(e));
    assertEquals(0, server.connections());
  }
}
