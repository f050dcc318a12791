package org.forager.fetch;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.forager.config.CrawlConfig;
import org.forager.fetch.FetchResult.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link HttpFetcher} against a well-behaved server: the JDK's HttpServer on 127.0.0.1. */
@Timeout(20)
class HttpFetcherTest {

  static final String UA = "ForagerTest/1.0 (+https://example.org/bot.html)";

  private HttpServer server;
  private HttpFetcher fetcher;
  private final List<String> paths = new CopyOnWriteArrayList<>();
  private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
  private final Map<String, String> lastRequestHeaders = new ConcurrentHashMap<>();

  static HttpFetcher.Options options(long maxPageBytes) {
    return new HttpFetcher.Options(UA, maxPageBytes, Duration.ofSeconds(2), 100, true, 16);
  }

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.start();
    fetcher = new HttpFetcher(options(1 << 20));
  }

  @AfterEach
  void stop() {
    fetcher.close();
    server.stop(0);
  }

  private void route(String path, HttpHandler handler) {
    server.createContext(path, exchange -> {
      paths.add(exchange.getRequestURI().toString());
      clientPorts.add(exchange.getRemoteAddress().getPort());
      lastRequestHeaders.clear();
      exchange.getRequestHeaders().forEach((name, values) ->
          lastRequestHeaders.put(name.toLowerCase(java.util.Locale.ROOT), String.join(",", values)));
      try (exchange) {
        handler.handle(exchange);
      }
    });
  }

  private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  private Response fetchResponse(String url) {
    return assertInstanceOf(Response.class, fetcher.fetch(FetchRequest.of(url)));
  }

  @Test
  void plainOkWithHeadersAndBody() {
    route("/page", exchange -> {
      exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
      exchange.getResponseHeaders().add("X-Thing", "one");
      exchange.getResponseHeaders().add("X-Thing", "two");
      send(exchange, 200, "<p>hello</p>".getBytes(UTF_8));
    });

    Response response = fetchResponse(url("/page?q=1"));

    assertEquals(200, response.status());
    assertEquals("OK", response.reason());
    assertEquals("HTTP/1.1", response.protocol());
    assertEquals(Optional.of("text/html"), response.mediaType());
    assertEquals(List.of("one", "two"), response.headers("X-Thing"));
    assertEquals("<p>hello</p>", new String(response.body(), UTF_8));
    assertArrayEquals(response.body(), response.rawBody());
    assertFalse(response.truncated());
    assertEquals(Optional.of("127.0.0.1"), response.remoteAddress());
    assertEquals(url("/page?q=1"), response.url());
    String head = new String(response.requestHead(), UTF_8);
    assertTrue(head.startsWith("GET /page?q=1 HTTP/1.1\r\n"), head);
    assertTrue(head.contains("\r\nHost: 127.0.0.1:" + server.getAddress().getPort() + "\r\n"), head);
    assertTrue(head.endsWith("\r\n\r\n"), head);
  }

  @Test
  void sendsUserAgentAcceptAndAcceptEncoding() {
    route("/", exchange -> send(exchange, 200, new byte[0]));

    Response response = fetchResponse(url("/"));

    assertEquals(200, response.status());
    assertEquals(UA, lastRequestHeaders.get("user-agent"));
    assertEquals("gzip, deflate", lastRequestHeaders.get("accept-encoding"));
    assertEquals(HttpFetcher.ACCEPT, lastRequestHeaders.get("accept"));
    assertFalse(lastRequestHeaders.containsKey("cookie"));
    assertFalse(lastRequestHeaders.containsKey("authorization"));
    assertFalse(lastRequestHeaders.containsKey("if-none-match"));
  }

  @Test
  void conditionalGetSendsValidatorsAndReturnsNotModified() {
    route("/", exchange -> send(exchange, 304, new byte[0]));

    FetchResult result = fetcher.fetch(new FetchRequest(url("/"),
        Optional.of("\"v1\""), Optional.of("Tue, 15 Nov 1994 12:45:26 GMT")));

    Response response = assertInstanceOf(Response.class, result);
    assertEquals(304, response.status());
    assertEquals(0, response.body().length);
    assertEquals("\"v1\"", lastRequestHeaders.get("if-none-match"));
    assertEquals("Tue, 15 Nov 1994 12:45:26 GMT", lastRequestHeaders.get("if-modified-since"));
  }

  @Test
  void keepAliveReusesOneConnectionForSequentialRequests() {
    route("/", exchange -> send(exchange, 200, "x".repeat(1000).getBytes(UTF_8)));

    for (int i = 0; i < 3; i++) {
      assertEquals(200, fetchResponse(url("/?n=" + i)).status());
    }

    assertEquals(3, paths.size());
    assertEquals(1, clientPorts.size(), "client ports seen: " + clientPorts);
  }

  @Test
  void redirectIsReturnedNotFollowed() {
    route("/old", exchange -> {
      exchange.getResponseHeaders().add("Location", "/new");
      send(exchange, 301, new byte[0]);
    });
    route("/new", exchange -> send(exchange, 200, "new".getBytes(UTF_8)));

    Response response = fetchResponse(url("/old"));

    assertEquals(301, response.status());
    assertEquals(Optional.of("/new"), response.header("location"));
    assertEquals(List.of("/old"), paths);
  }

  @Test
  void gzipBodyIsDecodedAndRawBodyStaysEncoded() throws IOException {
    byte[] page = "<html>".concat("gzip me ".repeat(500)).getBytes(UTF_8);
    byte[] gzipped = gzip(page);
    route("/", exchange -> {
      exchange.getResponseHeaders().add("Content-Encoding", "gzip");
      send(exchange, 200, gzipped);
    });

    Response response = fetchResponse(url("/"));

    assertArrayEquals(page, response.body());
    assertArrayEquals(gzipped, response.rawBody());
    assertFalse(response.truncated());
  }

  @Test
  void deflateBodyIsDecodedWhetherZlibWrappedOrRaw() throws IOException {
    byte[] page = "deflate me ".repeat(400).getBytes(UTF_8);
    byte[] zlib = org.forager.testweb.Compressed.deflated(page, false);
    byte[] raw = org.forager.testweb.Compressed.deflated(page, true);
    route("/zlib", exchange -> {
      exchange.getResponseHeaders().add("Content-Encoding", "deflate");
      send(exchange, 200, zlib);
    });
    route("/raw", exchange -> {
      exchange.getResponseHeaders().add("Content-Encoding", "deflate");
      send(exchange, 200, raw);
    });

    Response zlibResponse = fetchResponse(url("/zlib"));
    Response rawResponse = fetchResponse(url("/raw"));

    assertArrayEquals(page, zlibResponse.body());
    assertArrayEquals(zlib, zlibResponse.rawBody());
    assertFalse(zlibResponse.truncated());
    assertArrayEquals(page, rawResponse.body());
    assertArrayEquals(raw, rawResponse.rawBody());
    assertFalse(rawResponse.truncated());
  }

  @Test
  void unknownContentEncodingIsKeptRaw() {
    byte[] opaque = {1, 2, 3, 4, 5};
    route("/", exchange -> {
      exchange.getResponseHeaders().add("Content-Encoding", "zstd");
      send(exchange, 200, opaque);
    });

    Response response = fetchResponse(url("/"));

    assertArrayEquals(opaque, response.body());
    assertArrayEquals(opaque, response.rawBody());
    assertFalse(response.truncated());
  }

  @Test
  void plainBodyMislabelledAsGzipIsKeptAsItCame() {
    byte[] page = "<html>not compressed at all</html>".getBytes(UTF_8);
    route("/", exchange -> {
      exchange.getResponseHeaders().add("Content-Encoding", "gzip");
      send(exchange, 200, page);
    });

    Response response = fetchResponse(url("/"));

    assertArrayEquals(page, response.body());
    assertFalse(response.truncated());
  }

  @Test
  void bodyLargerThanTheCapIsTruncatedAtTheCap() {
    fetcher.close();
    fetcher = new HttpFetcher(options(1000));
    route("/", exchange -> send(exchange, 200, "y".repeat(5000).getBytes(UTF_8)));

    Response response = fetchResponse(url("/"));

    assertEquals(1000, response.body().length);
    assertEquals(1000, response.rawBody().length);
    assertEquals(Optional.of(FetchResult.Truncation.MAX_PAGE_BYTES), response.truncation());
  }

  @Test
  void userinfoInTheUrlIsNeverSent() {
    route("/", exchange -> send(exchange, 200, new byte[0]));

    Response response = fetchResponse(
        "http://alice:secret@127.0.0.1:" + server.getAddress().getPort() + "/#frag");

    assertEquals(200, response.status());
    assertFalse(lastRequestHeaders.containsKey("authorization"));
    String head = new String(response.requestHead(), UTF_8);
    assertFalse(head.contains("alice") || head.contains("secret") || head.contains("frag"), head);
  }

  @Test
  void urlThatIsNotHttpBecomesAFailureNotAnException() {
    FetchResult result = fetcher.fetch(FetchRequest.of("ftp://example.org/file"));
    FetchResult garbage = fetcher.fetch(FetchRequest.of("http://exa mple.org/ bad"));

    assertEquals(FetchResult.FailureKind.PROTOCOL,
        assertInstanceOf(FetchResult.Failure.class, result).kind());
    assertEquals(FetchResult.FailureKind.PROTOCOL,
        assertInstanceOf(FetchResult.Failure.class, garbage).kind());
  }

  @Test
  void manyOriginsFetchedConcurrentlyFromVirtualThreads() throws Exception {
    List<HttpServer> origins = new CopyOnWriteArrayList<>();
    try {
      for (int i = 0; i < 8; i++) {
        HttpServer origin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        origin.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        int id = i;
        origin.createContext("/", exchange -> {
          try (exchange) {
            send(exchange, 200, ("origin " + id + " " + exchange.getRequestURI()).getBytes(UTF_8));
          }
        });
        origin.start();
        origins.add(origin);
      }
      List<String> failures = new CopyOnWriteArrayList<>();
      try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
        for (int i = 0; i < origins.size(); i++) {
          int id = i;
          int port = origins.get(i).getAddress().getPort();
          threads.submit(() -> {
            for (int n = 0; n < 5; n++) { // one request in flight per origin, as the crawl loop does
              FetchResult r = fetcher.fetch(FetchRequest.of("http://127.0.0.1:" + port + "/p" + n));
              String expected = "origin " + id + " /p" + n;
              if (!(r instanceof Response resp) || !expected.equals(new String(resp.body(), UTF_8))) {
                failures.add(expected + " -> " + r);
              }
            }
          });
        }
      }
      assertEquals(List.of(), failures);
    } finally {
      origins.forEach(o -> o.stop(0));
    }
  }

  @Test
  void optionsFromCrawlConfigTakeTheLimits() {
    CrawlConfig config = CrawlConfig.defaults();

    HttpFetcher.Options options = HttpFetcher.Options.from(config);

    assertEquals(config.userAgent(), options.userAgent());
    assertEquals(config.limits().maxPageBytes(), options.maxPageBytes());
    assertEquals(config.limits().fetchTimeout(), options.fetchTimeout());
    assertEquals(config.limits().maxDecompressionRatio(), options.maxDecompressionRatio());
    assertFalse(options.allowPrivateAddresses());
    assertTrue(options.maxConnections() >= config.concurrency());
  }

  static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    }
    return out.toByteArray();
  }

}
