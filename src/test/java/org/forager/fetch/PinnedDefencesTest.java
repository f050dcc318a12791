package org.forager.fetch;

import static org.forager.fetch.RawServer.ascii;
import static org.forager.fetch.RawServer.readRequestHead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.forager.fetch.FetchResult.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defences that held when the attacker's review (issue 19) tried them, pinned so they keep holding:
 * lengths that lie by terabytes, and proxies from system properties.
 */
@Timeout(20)
class PinnedDefencesTest {

  private static final Duration TIMEOUT = Duration.ofMillis(1500);
  private static final long MARGIN_MILLIS = 700;

  private RawServer server;
  private HttpFetcher fetcher;

  @AfterEach
  void stop() throws IOException {
    if (fetcher != null) fetcher.close();
    if (server != null) server.close();
  }

  private Response fetchCut(String head, byte[] body) throws IOException {
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      out.write(ascii(head));
      out.write(body);
      out.flush();
      socket.getInputStream().read(); // then hold the connection open, sending nothing more
    });
    fetcher = new HttpFetcher(new HttpFetcher.Options("ForagerTest/1.0", 1 << 20, TIMEOUT, 100, true, 4));
    long start = System.nanoTime();
    FetchResult result = fetcher.fetch(FetchRequest.of(server.url("/")));
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(millis < TIMEOUT.toMillis() + MARGIN_MILLIS, "ended within the deadline: " + millis + " ms");
    return assertInstanceOf(Response.class, result);
  }

  @Test
  void aTwoTerabyteContentLengthEndsTruncatedWithinTheDeadline() throws IOException {
    Response response = fetchCut("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2199023255552\r\n\r\n",
        ascii("<p>the first few bytes of two terabytes</p>"));
    assertTrue(response.truncated());
    assertEquals(Optional.of(FetchResult.Truncation.DEADLINE), response.truncation());
  }

  @Test
  void aChunkSizeOfSixteenHexFsEndsTruncatedWithinTheDeadline() throws IOException {
    Response response = fetchCut("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n",
        ascii("FFFFFFFFFFFFFFFF\r\n<p>a chunk that never ends</p>"));
    assertTrue(response.truncated());
  }

  /** http.proxyHost and friends are not taken from the JVM's system properties: no proxy, ever. */
  @Test
  void noProxyIsTakenFromSystemProperties() throws IOException {
    AtomicInteger proxied = new AtomicInteger();
    try (ServerSocket proxy = new ServerSocket()) {
      proxy.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      Thread.ofVirtual().start(() -> {
        while (!proxy.isClosed()) {
          try {
            proxy.accept().close();
            proxied.incrementAndGet();
          } catch (IOException e) {
            return;
          }
        }
      });
      server = new RawServer(socket -> {
        readRequestHead(socket.getInputStream());
        socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
      });
      String[] keys = {"http.proxyHost", "http.proxyPort", "http.nonProxyHosts", "java.net.useSystemProxies"};
      String[] saved = new String[keys.length];
      for (int i = 0; i < keys.length; i++) saved[i] = System.getProperty(keys[i]);
      try {
        System.setProperty("http.proxyHost", "127.0.0.1");
        System.setProperty("http.proxyPort", Integer.toString(proxy.getLocalPort()));
        System.setProperty("http.nonProxyHosts", "none.invalid"); // loopback would be proxied too
        System.setProperty("java.net.useSystemProxies", "true");
        fetcher = new HttpFetcher(new HttpFetcher.Options("ForagerTest/1.0", 1 << 20, TIMEOUT, 100, true, 4));
        Response response = assertInstanceOf(Response.class, fetcher.fetch(FetchRequest.of(server.url("/"))));
        assertEquals(200, response.status());
      } finally {
        for (int i = 0; i < keys.length; i++) {
          if (saved[i] == null) System.clearProperty(keys[i]);
          else System.setProperty(keys[i], saved[i]);
        }
      }
      assertEquals(0, proxied.get(), "the proxy saw no connection");
      assertEquals(1, server.connections());
    }
  }
}
