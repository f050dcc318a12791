package org.forager.fetch;

import static org.forager.fetch.RawServer.ascii;
import static org.forager.fetch.RawServer.readRequestHead;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.forager.fetch.FetchResult.Failure;
import org.forager.fetch.FetchResult.FailureKind;
import org.forager.fetch.FetchResult.Response;
import org.forager.fetch.FetchResult.Truncation;
import org.forager.testweb.Compressed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link HttpFetcher} against servers that misbehave: drip, stall, reset, lie, bomb. Each test
 * starts its own {@link RawServer}; timeouts are short so the suite stays fast.
 */
@Timeout(20)
class HttpFetcherHostileServerTest {

  static final Duration TIMEOUT = Duration.ofMillis(1500);
  /** How late past the deadline a fetch may return: scheduling and closing, not a benchmark. */
  static final long MARGIN_MILLIS = 700;

  private RawServer server;
  private HttpFetcher fetcher;

  private static HttpFetcher.Options options(long maxPageBytes, long ratio, boolean allowPrivate) {
    return new HttpFetcher.Options("ForagerTest/1.0", maxPageBytes, TIMEOUT, ratio, allowPrivate, 16);
  }

  private FetchResult fetch(RawServer.Handler handler, HttpFetcher.Options options) throws IOException {
    server = new RawServer(handler);
    fetcher = new HttpFetcher(options);
    return fetcher.fetch(FetchRequest.of(server.url("/")));
  }

  private FetchResult fetch(RawServer.Handler handler) throws IOException {
    return fetch(handler, options(1 << 20, 100, true));
  }

  @AfterEach
  void stop() throws IOException {
    if (fetcher != null) fetcher.close();
    if (server != null) server.close();
  }

  @Test
  void requestHeadIsExactlyWhatTheServerReceived() throws IOException {
    AtomicReference<byte[]> received = new AtomicReference<>();
    FetchResult result = fetch(socket -> {
      received.set(readRequestHead(socket.getInputStream()));
      socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
    });

    Response response = assertInstanceOf(Response.class, result);
    assertEquals("ok", new String(response.body(), java.nio.charset.StandardCharsets.UTF_8));
    assertArrayEquals(received.get(), response.requestHead(),
        () -> "sent:\n" + new String(received.get()) + "\nrecorded:\n" + new String(response.requestHead()));
  }

  @Test
  void pathAndQueryAreSentExactlyAsGiven() throws IOException {
    AtomicReference<byte[]> received = new AtomicReference<>();
    server = new RawServer(socket -> {
      received.set(readRequestHead(socket.getInputStream()));
      socket.getOutputStream().write(ascii("HTTP/1.1 204 No Content\r\n\r\n"));
    });
    fetcher = new HttpFetcher(options(1 << 20, 100, true));
    String target = "/a%7Eb/c%2Fd/%C3%A9;p=1?x=%20&y=a+b&z";

    FetchResult result = fetcher.fetch(FetchRequest.of(server.url(target)));

    assertEquals(204, assertInstanceOf(Response.class, result).status());
    String requestLine = new String(received.get(), java.nio.charset.StandardCharsets.ISO_8859_1)
        .lines().findFirst().orElseThrow();
    assertEquals("GET " + target + " HTTP/1.1", requestLine);
  }

  @Test
  void endlessBodyIsCutAtTheCapAndTheConnectionClosedEarly() throws Exception {
    CountDownLatch serverSawClose = new CountDownLatch(1);
    FetchResult result = fetch(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      out.write(ascii("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n")); // body until close
      byte[] chunk = new byte[8192];
      Arrays.fill(chunk, (byte) 'a');
      try {
        while (true) out.write(chunk);
      } catch (IOException e) {
        serverSawClose.countDown();
      }
    }, options(100_000, 100, true));

    Response response = assertInstanceOf(Response.class, result);
    assertEquals(Optional.of(Truncation.MAX_PAGE_BYTES), response.truncation());
    assertEquals(100_000, response.body().length);
    assertEquals(100_000, response.rawBody().length);
    assertTrue(serverSawClose.await(5, TimeUnit.SECONDS), "the client never closed the connection");
  }

  @Test
  void gzipBombIsCappedWithFlatMemory() throws Exception {
    byte[] bomb = Compressed.gzippedZeros(256L << 20); // 256 MiB of zeros in about 256 KiB
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      out.write(ascii("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: "
          + bomb.length + "\r\n\r\n"));
      out.write(bomb);
    });
    fetcher = new HttpFetcher(options(1 << 20, 0, true)); // ratio cap off: the page cap alone must hold
    fetcher.fetch(FetchRequest.of(server.url("/warm-up"))); // class loading is not the fetch's memory
    FetchResult[] result = new FetchResult[1];
    long allocated = allocatedBy(() -> result[0] = fetcher.fetch(FetchRequest.of(server.url("/"))));

    Response response = assertInstanceOf(Response.class, result[0]);
    assertEquals(Optional.of(Truncation.MAX_PAGE_BYTES), response.truncation());
    assertEquals(1 << 20, response.body().length);
    assertTrue(response.rawBody().length < bomb.length);
    assertTrue(allocated < 16L << 20, "allocated " + allocated + " bytes to fetch a capped bomb");
  }

  @Test
  void decompressionRatioCapStopsABombEarly() throws Exception {
    byte[] bomb = Compressed.gzippedZeros(64L << 20);
    FetchResult result = fetch(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      out.write(ascii("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: "
          + bomb.length + "\r\n\r\n"));
      out.write(bomb);
    }, options(8 << 20, 100, true));

    Response response = assertInstanceOf(Response.class, result);
    assertEquals(Optional.of(Truncation.MAX_DECOMPRESSION_RATIO), response.truncation());
    assertTrue(response.body().length <= 100L * response.rawBody().length + 8192,
        response.body().length + " decoded from " + response.rawBody().length);
    assertTrue(response.body().length < 8 << 20);
  }

  @Test
  void slowDripBodyCannotHoldTheFetchPastItsDeadline() throws IOException {
    long start = System.nanoTime();
    FetchResult result = fetch(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      out.write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"));
      out.flush();
      try {
        for (int i = 0; i < 100_000; i++) {
          out.write('d');
          out.flush();
          Thread.sleep(100); // the drip is the server's behaviour under test, not synchronisation
        }
      } catch (IOException e) {
        // The client hung up, as it should.
      }
    });
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    Response response = assertInstanceOf(Response.class, result);
    assertEquals(200, response.status());
    assertEquals(Optional.of(Truncation.DEADLINE), response.truncation());
    assertTrue(response.body().length > 0 && response.body().length < 100);
    assertTrue(elapsedMillis < TIMEOUT.toMillis() + MARGIN_MILLIS, "took " + elapsedMillis + " ms");
  }

  @Test
  void slowDripHeadIsATimeout() throws IOException {
    long start = System.nanoTime();
    FetchResult result = fetch(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      try {
        for (byte b : ascii("HTTP/1.1 200 OK\r\nX-Slow: " + "s".repeat(1000) + "\r\n\r\n")) {
          out.write(b);
          out.flush();
          Thread.sleep(100);
        }
      } catch (IOException e) {
        // The client hung up, as it should.
      }
    });
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertEquals(FailureKind.TIMEOUT, assertInstanceOf(Failure.class, result).kind());
    assertTrue(elapsedMillis < TIMEOUT.toMillis() + MARGIN_MILLIS, "took " + elapsedMillis + " ms");
  }

  @Test
  void dripsAreStillCutAtTheDeadlineWhenTheDeadlineTimerNeverFires() throws IOException {
    server = new RawServer(socket -> {
      String path = new String(readRequestHead(socket.getInputStream()), StandardCharsets.ISO_8859_1);
      String head = "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n";
      byte[] drip = ascii(path.startsWith("GET /head") ? head + "x".repeat(100_000) : "d".repeat(100_000));
      OutputStream out = socket.getOutputStream();
      if (!path.startsWith("GET /head")) out.write(ascii(head));
      try {
        for (byte b : drip) {
          out.write(b);
          out.flush();
          Thread.sleep(100); // the drip is the server's behaviour under test, not synchronisation
        }
      } catch (IOException e) {
        // The client hung up, as it should.
      }
    });
    // A timer whose alarms are all lost, as if its thread had died.
    fetcher = new HttpFetcher(options(1 << 20, 100, true), new DeadlineTimer(action -> new Thread(() -> { })));

    long start = System.nanoTime();
    FetchResult head = fetcher.fetch(FetchRequest.of(server.url("/head")));
    long headMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    start = System.nanoTime();
    FetchResult body = fetcher.fetch(FetchRequest.of(server.url("/body")));
    long bodyMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertEquals(FailureKind.TIMEOUT, assertInstanceOf(Failure.class, head).kind());
    assertTrue(headMillis < TIMEOUT.toMillis() + MARGIN_MILLIS, "head took " + headMillis + " ms");
    assertEquals(Optional.of(Truncation.DEADLINE), assertInstanceOf(Response.class, body).truncation());
    assertTrue(bodyMillis < TIMEOUT.toMillis() + MARGIN_MILLIS, "body took " + bodyMillis + " ms");
  }

  @Test
  void serverThatNeverAnswersIsATimeout() throws IOException {
    CountDownLatch release = new CountDownLatch(1);
    long start = System.nanoTime();
    FetchResult result = fetch(socket -> {
      readRequestHead(socket.getInputStream());
      release.await(10, TimeUnit.SECONDS);
    });
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    release.countDown();

    Failure failure = assertInstanceOf(Failure.class, result);
    assertEquals(FailureKind.TIMEOUT, failure.kind(), failure.message());
    assertTrue(elapsedMillis >= TIMEOUT.toMillis() - 50, "took " + elapsedMillis + " ms");
    assertTrue(elapsedMillis < TIMEOUT.toMillis() + MARGIN_MILLIS, "took " + elapsedMillis + " ms");
  }

  @Test
  void resetBeforeTheResponseIsANetworkFailure() throws IOException {
    FetchResult result = fetch(socket -> {
      readRequestHead(socket.getInputStream());
      RawServer.reset(socket);
    });

    Failure failure = assertInstanceOf(Failure.class, result);
    assertEquals(FailureKind.NETWORK, failure.kind(), failure.message());
  }

  @Test
  void closeWithoutAnyResponseIsANetworkFailure() throws IOException {
    FetchResult result = fetch(socket -> readRequestHead(socket.getInputStream()));

    Failure failure = assertInstanceOf(Failure.class, result);
    assertEquals(FailureKind.NETWORK, failure.kind(), failure.message());
  }

  @Test
  void resetMidBodyIsATruncatedResponse() throws IOException {
    FetchResult result = fetch(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      out.write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + "b".repeat(100)));
      out.flush();
      RawServer.reset(socket);
    });

    Response response = assertInstanceOf(Response.class, result);
    assertEquals(200, response.status());
    assertEquals(Optional.of(Truncation.CONNECTION_CLOSED), response.truncation());
    assertTrue(response.body().length <= 100);
  }

  @Test
  void shorterBodyThanContentLengthIsATruncatedResponse() throws IOException {
    FetchResult result = fetch(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      out.write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + "c".repeat(300)));
      out.flush();
      socket.shutdownOutput(); // an orderly close, 700 bytes early
    });

    Response response = assertInstanceOf(Response.class, result);
    assertEquals(Optional.of(Truncation.CONNECTION_CLOSED), response.truncation());
    assertEquals(300, response.body().length);
    assertEquals(300, response.rawBody().length);
  }

  @Test
  void garbageInsteadOfAStatusLineIsAProtocolFailure() throws IOException {
    FetchResult result = fetch(socket -> {
      readRequestHead(socket.getInputStream());
      socket.getOutputStream().write(ascii("SSH-2.0-OpenSSH_9.6\r\nthis is not http\r\n\r\n"));
      socket.getOutputStream().flush();
      socket.shutdownOutput();
    });

    Failure failure = assertInstanceOf(Failure.class, result);
    assertEquals(FailureKind.PROTOCOL, failure.kind(), failure.message());
  }

  @Test
  void headerCountCapIsInForceFiveThousandFieldsAreRefused() throws IOException {
    FetchResult result = fetch(socket -> {
      readRequestHead(socket.getInputStream());
      StringBuilder head = new StringBuilder("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n");
      for (int i = 0; i < 5_000; i++) head.append("X-Field-").append(i).append(": v\r\n");
      socket.getOutputStream().write(ascii(head.append("\r\nok").toString()));
    });

    Failure failure = assertInstanceOf(Failure.class, result);
    assertEquals(FailureKind.PROTOCOL, failure.kind(), failure.message());
  }

  @Test
  void endlessSixteenKilobyteHeaderLinesAreRefusedQuicklyWithBoundedMemory() throws Exception {
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      byte[] line = ascii("X-Endless: " + "e".repeat(16 * 1024 - 20) + "\r\n");
      out.write(ascii("HTTP/1.1 200 OK\r\n"));
      try {
        // "Endless" up to 64 MiB, so that a client without a cap fails this test instead of the JVM.
        for (int i = 0; i < 4096; i++) out.write(line);
      } catch (IOException e) {
        return; // the client hung up, as it should
      }
      new CountDownLatch(1).await(10, TimeUnit.SECONDS);
    });
    fetcher = new HttpFetcher(options(1 << 20, 100, true));
    fetcher.fetch(FetchRequest.of(server.url("/warm-up"))); // class loading is not the fetch's memory
    FetchResult[] result = new FetchResult[1];
    long start = System.nanoTime();
    long allocated = allocatedBy(() -> result[0] = fetcher.fetch(FetchRequest.of(server.url("/"))));
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    Failure failure = assertInstanceOf(Failure.class, result[0]);
    assertEquals(FailureKind.PROTOCOL, failure.kind(), failure.message());
    assertTrue(elapsedMillis < TIMEOUT.toMillis() / 2, "took " + elapsedMillis + " ms");
    assertTrue(allocated < 8L << 20, "allocated " + allocated + " bytes to refuse an endless head");
  }

  @Test
  void headOverTheTotalByteCapIsRefusedThoughEachLineAndTheCountAreWithinTheirCaps() throws IOException {
    String field = "X-Big: " + "b".repeat(8 * 1024) + "\r\n"; // 100 of them: 800 KiB in 100 fields
    FetchResult result = fetch(socket -> {
      readRequestHead(socket.getInputStream());
      socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
          + field.repeat(100) + "\r\nok"));
    });

    Failure failure = assertInstanceOf(Failure.class, result);
    assertEquals(FailureKind.PROTOCOL, failure.kind(), failure.message());
  }

  @Test
  void largeButReasonableHeadIsAccepted() throws IOException {
    // 200 fields, 200 KiB in all: what a page with big cookies and a long CSP may send.
    String field = "X-Big: " + "b".repeat(1000) + "\r\n";
    FetchResult result = fetch(socket -> {
      readRequestHead(socket.getInputStream());
      socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
          + field.repeat(200) + "\r\nok"));
    });

    Response response = assertInstanceOf(Response.class, result);
    assertEquals(200, response.headers("X-Big").size());
    assertEquals("ok", new String(response.body(), java.nio.charset.StandardCharsets.US_ASCII));
  }

  @Test
  void headOfExactlyTheByteCapIsTakenAndOneByteMoreIsNot() throws IOException {
    server = new RawServer(socket -> {
      String path = new String(readRequestHead(socket.getInputStream()), StandardCharsets.ISO_8859_1);
      int size = ResponseHeadLimits.MAX_HEAD_BYTES + (path.startsWith("GET /over") ? 1 : 0);
      socket.getOutputStream().write(ascii(headOf(size) + "ok"));
    });
    fetcher = new HttpFetcher(options(1 << 20, 100, true));

    assertInstanceOf(Response.class, fetcher.fetch(FetchRequest.of(server.url("/exact"))));
    Failure failure = assertInstanceOf(Failure.class, fetcher.fetch(FetchRequest.of(server.url("/over"))));
    assertEquals(FailureKind.PROTOCOL, failure.kind(), failure.message());
  }

  /** A response head of exactly {@code size} bytes, blank line included, for a 2-byte body. */
  private static String headOf(int size) {
    StringBuilder head = new StringBuilder("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n");
    String field = "X-F: " + "f".repeat(1293) + "\r\n"; // 1300 bytes
    while (size - head.length() - 2 >= 2 * field.length()) head.append(field);
    int last = size - head.length() - 2; // between 1300 and 2600: one more field of that size
    head.append("X-L: ").append("l".repeat(last - 7)).append("\r\n");
    return head.append("\r\n").toString();
  }

  @Test
  void oneMebibyteHeaderLineIsRefused() throws IOException {
    FetchResult result = fetch(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      try {
        out.write(ascii("HTTP/1.1 200 OK\r\nX-Huge: " + "h".repeat(1 << 20) + "\r\n\r\n"));
      } catch (IOException e) {
        // The client hung up early, as it may.
      }
    });

    Failure failure = assertInstanceOf(Failure.class, result);
    assertEquals(FailureKind.PROTOCOL, failure.kind(), failure.message());
  }

  @Test
  void loopbackIsRefusedUnlessPrivateAddressesAreAllowed() throws IOException {
    FetchResult result = fetch(socket -> {
      readRequestHead(socket.getInputStream());
      socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
    }, options(1 << 20, 100, false));
    FetchResult byName = fetcher.fetch(FetchRequest.of("http://localhost:" + server.port() + "/"));

    assertEquals(FailureKind.BLOCKED_BY_NETWORK_POLICY, assertInstanceOf(Failure.class, result).kind());
    assertEquals(FailureKind.BLOCKED_BY_NETWORK_POLICY, assertInstanceOf(Failure.class, byName).kind());
    assertEquals(0, server.connections());
  }

  @Test
  void unresolvableHostIsADnsFailure() {
    try (HttpFetcher policyFetcher = new HttpFetcher(options(1 << 20, 100, false))) {
      // RFC 6761 reserves .invalid: it never resolves.
      FetchResult result = policyFetcher.fetch(FetchRequest.of("http://no-such-host.invalid/"));

      Failure failure = assertInstanceOf(Failure.class, result);
      assertEquals(FailureKind.DNS, failure.kind(), failure.message());
    }
  }

  @Test
  void tlsHandshakeFailureIsANetworkFailure() throws IOException {
    server = new RawServer(socket -> {
      socket.getInputStream().read(new byte[512]); // a ClientHello, answered in plain text
      socket.getOutputStream().write(ascii("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"));
    });
    fetcher = new HttpFetcher(options(1 << 20, 100, true));

    FetchResult result = fetcher.fetch(FetchRequest.of("https://127.0.0.1:" + server.port() + "/"));

    Failure failure = assertInstanceOf(Failure.class, result);
    assertEquals(FailureKind.NETWORK, failure.kind(), failure.message());
  }

  @Test
  void connectionRefusedIsANetworkFailure() throws IOException {
    server = new RawServer(socket -> { });
    String url = server.url("/");
    server.close(); // nothing listens on that port any more
    fetcher = new HttpFetcher(options(1 << 20, 100, true));

    Failure failure = assertInstanceOf(Failure.class, fetcher.fetch(FetchRequest.of(url)));
    assertEquals(FailureKind.NETWORK, failure.kind(), failure.message());
  }

  /** Bytes allocated on the heap by this thread while running {@code action}. */
  private static long allocatedBy(Runnable action) {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    action.run();
    return threads.getCurrentThreadAllocatedBytes() - before;
  }
}
