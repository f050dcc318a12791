package org.forager.fetch;

import static org.forager.fetch.RawServer.ascii;
import static org.forager.fetch.RawServer.readRequestHead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.forager.fetch.FetchResult.Failure;
import org.forager.fetch.FetchResult.FailureKind;
import org.forager.fetch.FetchResult.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link HttpFetcher}'s reading of HTTP/1.1 messages (RFC 9112): how a body is framed, when a
 * connection carries a second request, heads that are odd but valid and heads that are not HTTP. Each
 * server answers every request on a connection the same way, and the test fetches twice: the number
 * of connections says whether the first was reused.
 */
@Timeout(20)
class Http1FramingTest {

  private RawServer server;
  private HttpFetcher fetcher;

  @AfterEach
  void stop() throws IOException {
    if (fetcher != null) fetcher.close();
    if (server != null) server.close();
    fetcher = null;
    server = null;
  }

  /** A server that answers every request on a connection with {@code response}. */
  private void serve(String response) throws IOException {
    server = new RawServer(socket -> {
      while (true) {
        try {
          readRequestHead(socket.getInputStream());
        } catch (IOException closed) {
          return;
        }
        OutputStream out = socket.getOutputStream();
        out.write(ascii(response));
        out.flush();
      }
    });
    fetcher = fetcher(Duration.ofSeconds(3));
  }

  /** A fetcher of this timeout, private addresses allowed (the server is on loopback). */
  private static HttpFetcher fetcher(Duration timeout) {
    return new HttpFetcher(new HttpFetcher.Options("ForagerTest/1.0", 1 << 20, timeout, 100, true, 16));
  }

  private FetchResult fetch(String path) {
    return fetcher.fetch(FetchRequest.of(server.url(path)));
  }

  private static Response response(FetchResult result) {
    return assertInstanceOf(Response.class, result, () -> result instanceof Failure f ? f.message() : "");
  }

  private static String body(FetchResult result) {
    Response response = response(result);
    assertFalse(response.truncated(), () -> "truncated: " + response.truncation());
    return new String(response.body(), StandardCharsets.ISO_8859_1);
  }

  @Test
  void aChunkedBodyWithExtensionsAndTrailersIsReadAndItsConnectionReused() throws IOException {
    serve("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "5;name=value\r\nhello\r\n7\r\n, world\r\nA \r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n");
    assertEquals("hello, world0123456789", body(fetch("/1")));
    assertEquals("hello, world0123456789", body(fetch("/2")));
    assertEquals(1, server.connections());
  }

  @Test
  void aBodyOfContentLengthReusesItsConnection() throws IOException {
    serve("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello");
    assertEquals("hello", body(fetch("/1")));
    assertEquals("hello", body(fetch("/2")));
    assertEquals(1, server.connections());
  }

  @Test
  void bothFramingsReadTheChunksAndTrustTheConnectionWithNothingMore() throws IOException {
    serve("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
    assertEquals("hello", body(fetch("/1")));
    assertEquals("hello", body(fetch("/2")));
    assertEquals(2, server.connections());
  }

  @Test
  void bytesAfterTheBodyKeepTheConnectionFromASecondRequest() throws IOException {
    serve("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nforge");
    assertEquals("hello", body(fetch("/1")));
    assertEquals("hello", body(fetch("/2")), "the second answer is the server's, not the bytes left over");
    assertEquals(2, server.connections());
  }

  @Test
  void connectionCloseAndHttp10WithoutKeepAliveEndTheConnection() throws IOException {
    serve("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok");
    body(fetch("/1"));
    body(fetch("/2"));
    assertEquals(2, server.connections());
    stop();
    serve("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok");
    assertEquals("HTTP/1.0", response(fetch("/1")).protocol());
    body(fetch("/2"));
    assertEquals(2, server.connections());
  }

  @Test
  void http10WithKeepAliveReusesItsConnection() throws IOException {
    serve("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok");
    body(fetch("/1"));
    body(fetch("/2"));
    assertEquals(1, server.connections());
  }

  @Test
  void aBodyWithoutLengthEndsWithTheConnection() throws IOException {
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\n\r\nuntil the end"));
    });
    fetcher = fetcher(Duration.ofSeconds(3));
    assertEquals("until the end", body(fetch("/1")));
  }

  @Test
  void interimResponsesAreDroppedAndFoldedFieldsJoined() throws IOException {
    serve("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n"
        + "HTTP/1.1 200 OK\r\nX-Folded: one\r\n  two\r\n\tthree\r\nContent-Length: 2\r\n\r\nok");
    Response response = response(fetch("/1"));
    assertEquals(200, response.status());
    assertEquals("OK", response.reason());
    assertEquals(List.of("one two three"), response.headers("X-Folded"));
    assertTrue(response.headers("Link").isEmpty(), "the interim response's fields are not the response's");
    assertEquals("ok", body(fetch("/2")));
    assertEquals(1, server.connections());
  }

  @Test
  void aStatusLineWithoutReasonAndBareLineFeedsAreTaken() throws IOException {
    serve("HTTP/1.1 204\n\n");
    Response response = response(fetch("/1"));
    assertEquals(204, response.status());
    assertEquals("", response.reason());
  }

  @Test
  void repeatedContentLengthsMustAgree() throws IOException {
    serve("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2, 2\r\n\r\nok");
    assertEquals("ok", body(fetch("/1")));
    stop();
    serve("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok!");
    Failure failure = assertInstanceOf(Failure.class, fetch("/1"));
    assertEquals(FailureKind.PROTOCOL, failure.kind(), failure.message());
  }

  @Test
  void malformedHeadsAreProtocolFailures() throws IOException {
    for (String head : List.of(
        "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n",
        "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
        "HTTP/1.1 200 OK\r\nName With Space: x\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nok",
        "HTTP/1.1 099 Odd\r\n\r\n",
        "HTTP/1.1 200 OK\r\n folded before any field\r\n\r\n",
        "HTTP/2.0 200 OK\r\n\r\n",
        "HTTP/1.1 2000 OK\r\n\r\n",
        "ICY 200 OK\r\n\r\n")) {
      serve(head);
      Failure failure = assertInstanceOf(Failure.class, fetch("/1"), head);
      assertEquals(FailureKind.PROTOCOL, failure.kind(), head + ": " + failure.message());
      stop();
    }
  }

  @Test
  void aChunkSizeThatIsNoNumberCutsTheBodyShort() throws IOException {
    serve("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n");
    Response response = response(fetch("/1"));
    assertTrue(response.truncated());
    assertEquals("hello", new String(response.body(), StandardCharsets.ISO_8859_1));
    fetch("/2");
    assertEquals(2, server.connections(), "the connection is not reused");
  }

  /**
   * One-byte chunks each with a 4,000-byte extension: a fetch read 6 GB of framing byte by byte for a
   * 1.5 MB page (19 s of CPU; an attacker's review, session 67). Framing out of proportion to the body
   * cuts it short; one-byte chunks without extensions (5 bytes of framing a byte) are a body like any.
   */
  @Test
  void chunkFramingOutOfProportionToItsBodyCutsTheBodyShort() throws IOException {
    StringBuilder hostile = new StringBuilder("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
    String extension = ";x=" + "e".repeat(3_990);
    for (int i = 0; i < 200; i++) hostile.append("1").append(extension).append("\r\nx\r\n");
    hostile.append("0\r\n\r\n");
    serve(hostile.toString());
    Response cut = response(fetch("/1"));
    assertTrue(cut.truncated(), "cut short");
    assertTrue(cut.body().length < 20, "a few bytes of body past 64 KiB of framing: " + cut.body().length);
    stop();

    StringBuilder small = new StringBuilder("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
    for (int i = 0; i < 100_000; i++) small.append("1\r\nx\r\n");
    small.append("0\r\n\r\n");
    serve(small.toString());
    assertEquals("x".repeat(100_000), body(fetch("/1")));
  }

  /** Bytes after a body that reach the kernel before the next request are no response to it. */
  @Test
  void bytesAfterTheBodyThatArriveLaterAreNoResponseToTheNextRequest() throws Exception {
    java.util.concurrent.CountDownLatch straySent = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.atomic.AtomicInteger connections = new java.util.concurrent.atomic.AtomicInteger();
    server = new RawServer(socket -> {
      OutputStream out = socket.getOutputStream();
      if (connections.incrementAndGet() == 1) {
        readRequestHead(socket.getInputStream());
        out.write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
        out.flush();
        out.write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nEVIL")); // a write of its own, later
        out.flush();
        straySent.countDown();
      }
      while (true) {
        try {
          readRequestHead(socket.getInputStream());
        } catch (IOException closed) {
          return;
        }
        out.write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nGOOD"));
        out.flush();
      }
    });
    fetcher = fetcher(Duration.ofSeconds(3));
    assertEquals("ok", body(fetch("/1")));
    assertTrue(straySent.await(5, java.util.concurrent.TimeUnit.SECONDS));
    assertEquals("GOOD", body(fetch("/2")));
    assertEquals(2, server.connections());
  }

  /** A large body is read straight into the page's array, so what follows it is still in the kernel. */
  @Test
  void bytesAfterALargeBodyInItsOwnWriteAreNoResponseToTheNextRequest() throws IOException {
    String big = "x".repeat(40_000);
    serve("HTTP/1.1 200 OK\r\nContent-Length: " + big.length() + "\r\n\r\n" + big
        + "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nEVIL");
    assertEquals(big, body(fetch("/1")));
    assertEquals(big, body(fetch("/2")), "the server's answer to /2, not the bytes left over");
    assertEquals(2, server.connections());
  }

  /** The connection ending where a field line would start ends the head (as HttpCore and browsers take it). */
  @Test
  void aHeadEndedByTheConnectionIsTakenWithAnEmptyBody() throws IOException {
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"));
    });
    fetcher = fetcher(Duration.ofSeconds(3));
    Response response = response(fetch("/1"));
    assertEquals(200, response.status());
    assertEquals(List.of("text/html"), response.headers("Content-Type"));
    assertEquals(0, response.body().length);
  }

  @Test
  void aTransferCodingListWithEmptyElementsEndsInChunked() throws IOException {
    serve("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, \r\n\r\n2\r\nok\r\n0\r\n\r\n");
    assertEquals("ok", body(fetch("/1")));
    assertEquals("ok", body(fetch("/2")));
    assertEquals(1, server.connections());
  }

  @Test
  void closingTheFetcherEndsAFetchInFlight() throws Exception {
    java.util.concurrent.CountDownLatch headSent = new java.util.concurrent.CountDownLatch(1);
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nsome"));
      socket.getOutputStream().flush();
      headSent.countDown();
      socket.getInputStream().read(); // holds the rest of the body back until the client closes
    });
    fetcher = fetcher(Duration.ofSeconds(60));
    var result = java.util.concurrent.CompletableFuture.supplyAsync(() -> fetch("/1"),
        r -> Thread.ofVirtual().start(r));
    assertTrue(headSent.await(5, java.util.concurrent.TimeUnit.SECONDS));
    fetcher.close();
    // Ended by the close, not left to its 60 s deadline. The server having sent the head does not
    // mean the client has read it: a close before that ends the fetch as a failure (the socket
    // closed), one after it as the part of the body read, truncated. Both are the close's doing.
    FetchResult ended = result.get(10, java.util.concurrent.TimeUnit.SECONDS);
    if (ended instanceof Failure failure) {
      assertTrue(failure.message().contains("closed"), failure.message());
    } else {
      assertTrue(response(ended).truncated(), "cut short by the close");
    }
  }
}
