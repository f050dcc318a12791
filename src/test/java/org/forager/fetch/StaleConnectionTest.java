package org.forager.fetch;

import static org.forager.fetch.RawServer.ascii;
import static org.forager.fetch.RawServer.readRequestHead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.forager.fetch.FetchResult.Failure;
import org.forager.fetch.FetchResult.FailureKind;
import org.forager.fetch.FetchResult.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link HttpFetcher} against servers that close kept-alive connections as they are reused: the
 * request is sent once more on a new connection, and only then.
 */
@Timeout(20)
class StaleConnectionTest {

  private RawServer server;
  private HttpFetcher fetcher;
  private final AtomicInteger requests = new AtomicInteger();

  @AfterEach
  void stop() throws IOException {
    if (fetcher != null) fetcher.close();
    if (server != null) server.close();
  }

  /** Fetches /1 then /2 at once, the second on the first's kept-alive connection. */
  private FetchResult secondOfTwo(RawServer.Handler handler) throws IOException {
    server = new RawServer(handler);
    fetcher = new HttpFetcher(new HttpFetcher.Options("ForagerTest/1.0", 1 << 20, Duration.ofSeconds(2), 100,
        true, 16));
    Response first = assertInstanceOf(Response.class, fetcher.fetch(FetchRequest.of(server.url("/1"))));
    assertEquals(200, first.status());
    return fetcher.fetch(FetchRequest.of(server.url("/2")));
  }

  /** Reads a request and answers it with its own path as the body; the connection stays open. */
  private void answer(Socket socket) throws IOException {
    byte[] head = readRequestHead(socket.getInputStream());
    requests.incrementAndGet();
    String path = new String(head, StandardCharsets.ISO_8859_1).split(" ")[1];
    OutputStream out = socket.getOutputStream();
    out.write(ascii("HTTP/1.1 200 OK\r\nContent-Length: " + path.length() + "\r\n\r\n" + path));
    out.flush();
  }

  /** Reads a request and answers it 408, closing the connection. */
  private void answer408(Socket socket) throws IOException {
    readRequestHead(socket.getInputStream());
    requests.incrementAndGet();
    socket.getOutputStream().write(ascii("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
        + "Content-Length: 0\r\n\r\n"));
    socket.getOutputStream().flush();
  }

  private static void assertAnswered(String path, FetchResult result) {
    Response response = assertInstanceOf(Response.class, result,
        () -> result instanceof Failure f ? f.message() : "");
    assertEquals(path, new String(response.body(), StandardCharsets.ISO_8859_1));
  }

  @Test
  void requestOnAConnectionTheServerClosedWhileIdleIsSentAgainOnANewOne() throws IOException {
    FetchResult second = secondOfTwo(this::answer); // one answer, then the server closes

    assertAnswered("/2", second);
    assertEquals(2, server.connections());
  }

  /**
   * A server whose idle timeout fires as the request arrives answers 408 and closes: that was logged
   * as the page's HTTP_ERROR, where browsers send the request again.
   */
  @Test
  void a408OnAKeptAliveConnectionIsSentAgainOnANewOne() throws IOException {
    AtomicInteger connection = new AtomicInteger();
    FetchResult second = secondOfTwo(socket -> {
      if (connection.incrementAndGet() > 1) {
        answer(socket); // the new connection is answered
        return;
      }
      answer(socket);
      answer408(socket);
    });

    assertAnswered("/2", second);
    assertEquals(2, server.connections());
    assertEquals(3, requests.get(), "/1, /2 answered 408, /2 again");
  }

  /** A 408 on a new connection is the answer: not sent again here. */
  @Test
  void a408OnANewConnectionIsTheAnswer() throws IOException {
    server = new RawServer(this::answer408);
    fetcher = new HttpFetcher(new HttpFetcher.Options("ForagerTest/1.0", 1 << 20, Duration.ofSeconds(2), 100,
        true, 16));
    Response response = assertInstanceOf(Response.class, fetcher.fetch(FetchRequest.of(server.url("/1"))));
    assertEquals(408, response.status());
    assertEquals(1, requests.get());
  }

  @Test
  void requestOnAConnectionTheServerResetWhileIdleIsSentAgainOnANewOne() throws IOException {
    FetchResult second = secondOfTwo(socket -> {
      answer(socket);
      RawServer.reset(socket);
    });

    assertAnswered("/2", second);
    assertEquals(2, server.connections());
  }

  @Test
  void requestTheServerReadsAndClosesUnansweredOnAReusedConnectionIsSentAgain() throws IOException {
    FetchResult second = secondOfTwo(socket -> {
      answer(socket);
      readRequestHead(socket.getInputStream()); // the race a busy server loses: read, then closed
    });

    assertAnswered("/2", second);
    assertEquals(2, server.connections());
  }

  @Test
  void requestResetUnansweredOnAReusedConnectionIsSentAgain() throws IOException {
    FetchResult second = secondOfTwo(socket -> {
      answer(socket);
      readRequestHead(socket.getInputStream());
      RawServer.reset(socket);
    });

    assertAnswered("/2", second);
    assertEquals(2, server.connections());
  }

  @Test
  void failureOnTheNewConnectionIsNotRetriedAgain() throws IOException {
    FetchResult second = secondOfTwo(socket -> {
      if (requests.get() == 0) answer(socket); // only the very first request is ever answered
      readRequestHead(socket.getInputStream());
    });

    Failure failure = assertInstanceOf(Failure.class, second);
    assertEquals(FailureKind.NETWORK, failure.kind(), failure.message());
    assertEquals(2, server.connections());
  }

  @Test
  void failureOnAFreshConnectionIsNotRetried() throws IOException {
    server = new RawServer(socket -> readRequestHead(socket.getInputStream()));
    fetcher = new HttpFetcher(new HttpFetcher.Options("ForagerTest/1.0", 1 << 20, Duration.ofSeconds(2), 100,
        true, 16));

    Failure failure = assertInstanceOf(Failure.class, fetcher.fetch(FetchRequest.of(server.url("/"))));
    assertEquals(FailureKind.NETWORK, failure.kind(), failure.message());
    assertEquals(1, server.connections());
  }

  @Test
  void failureAfterPartOfAResponseOnAReusedConnectionIsNotRetried() throws IOException {
    FetchResult second = secondOfTwo(socket -> {
      answer(socket);
      readRequestHead(socket.getInputStream());
      socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Le"));
      socket.getOutputStream().flush();
      RawServer.reset(socket);
    });

    assertInstanceOf(Failure.class, second);
    assertEquals(1, server.connections());
  }
}
