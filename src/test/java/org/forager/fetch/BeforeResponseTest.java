package org.forager.fetch;

import static org.forager.fetch.RawServer.ascii;
import static org.forager.fetch.RawServer.readRequestHead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.forager.fetch.FetchResult.Failure;
import org.forager.fetch.FetchResult.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link HttpFetcher#fetch(FetchRequest, Runnable)}: the caller's wait (the crawl's page gate) runs with
 * the request on the wire and before its response is read, once a fetch, and not when nothing was sent.
 */
@Timeout(20)
class BeforeResponseTest {

  private RawServer server;
  private HttpFetcher fetcher;
  /** What happened, in order, on the server's threads and the fetch's. */
  private final List<String> events = Collections.synchronizedList(new ArrayList<>());

  @AfterEach
  void stop() throws IOException {
    if (fetcher != null) fetcher.close();
    if (server != null) server.close();
  }

  private HttpFetcher fetcher() {
    return new HttpFetcher(new HttpFetcher.Options("ForagerTest/1.0", 1 << 20, Duration.ofSeconds(5), 100, true, 16));
  }

  @Test
  void waitsWithTheRequestReceivedAndItsResponseUnread() throws Exception {
    CountDownLatch received = new CountDownLatch(1);
    CountDownLatch waited = new CountDownLatch(1);
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      events.add("server received the request");
      received.countDown();
      // The response is held back until the caller's wait has run: had the fetcher read before it,
      // the fetch would hang here and the test time out.
      if (!waited.await(10, TimeUnit.SECONDS)) throw new IOException("the wait never ran");
      socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
      socket.getOutputStream().flush();
    });
    fetcher = fetcher();

    FetchResult result = fetcher.fetch(FetchRequest.of(server.url("/")), () -> {
      try {
        assertTrue(received.await(10, TimeUnit.SECONDS), "the request was on the wire before the wait");
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
      events.add("waited");
      waited.countDown();
    });

    Response response = assertInstanceOf(Response.class, result, () -> ((Failure) result).message());
    assertEquals("ok", new String(response.body(), StandardCharsets.ISO_8859_1));
    assertEquals(List.of("server received the request", "waited"), events);
  }

  @Test
  void aRequestSentAgainOnANewConnectionDoesNotWaitAgain() throws IOException {
    AtomicInteger requests = new AtomicInteger();
    // Answers one request a connection, then closes it: the second fetch's request, sent on the
    // kept-alive connection, is sent again on a new one.
    server = new RawServer(socket -> {
      byte[] head = readRequestHead(socket.getInputStream());
      requests.incrementAndGet();
      String path = new String(head, StandardCharsets.ISO_8859_1).split(" ")[1];
      socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Length: " + path.length() + "\r\n\r\n" + path));
      socket.getOutputStream().flush();
    });
    fetcher = fetcher();
    AtomicInteger waits = new AtomicInteger();
    assertInstanceOf(Response.class, fetcher.fetch(FetchRequest.of(server.url("/1")), waits::incrementAndGet));

    FetchResult second = fetcher.fetch(FetchRequest.of(server.url("/2")), waits::incrementAndGet);

    Response response = assertInstanceOf(Response.class, second, () -> ((Failure) second).message());
    assertEquals("/2", new String(response.body(), StandardCharsets.ISO_8859_1));
    assertEquals(2, server.connections(), "sent again on a new connection");
    assertEquals(2, waits.get(), "one wait a fetch");
  }

  @Test
  void noWaitWhenNoRequestCouldBeSent() throws IOException {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    fetcher = fetcher();
    AtomicInteger waits = new AtomicInteger();

    FetchResult result = fetcher.fetch(FetchRequest.of("http://127.0.0.1:" + closedPort + "/"), waits::incrementAndGet);

    assertInstanceOf(Failure.class, result);
    assertEquals(0, waits.get());
  }

  @Test
  void theWaitCountsAsTheFetchsTime() throws IOException {
    server = new RawServer(BeforeResponseTest::answerOk);
    fetcher = fetcher();
    long waitMillis = 300;

    FetchResult result = fetcher.fetch(FetchRequest.of(server.url("/")), () -> {
      try {
        Thread.sleep(waitMillis); // the caller's wait: what is measured, not a synchronization
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    });

    assertInstanceOf(Response.class, result);
    assertTrue(result.durationMillis() >= waitMillis, "duration " + result.durationMillis() + " ms");
  }

  private static void answerOk(Socket socket) throws IOException {
    readRequestHead(socket.getInputStream());
    socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
    socket.getOutputStream().flush();
  }
}
