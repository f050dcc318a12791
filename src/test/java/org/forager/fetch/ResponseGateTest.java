package org.forager.fetch;

import static org.forager.fetch.RawServer.ascii;
import static org.forager.fetch.RawServer.readRequestHead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.forager.fetch.FetchResult.Failure;
import org.forager.fetch.FetchResult.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link HttpFetcher#fetch(FetchRequest, ResponseGate)}: the gate (the crawl's page gate) is entered
 * with the request on the wire and before its response is read, left while a read waits for the
 * network, held when the fetch returns, and never entered when nothing was sent.
 */
@Timeout(20)
class ResponseGateTest {

  private RawServer server;
  private HttpFetcher fetcher;
  /** What happened, in order, on the server's threads and the fetch's. */
  private final List<String> events = Collections.synchronizedList(new ArrayList<>());

  /** Records when it is entered and left; held or not, as a page gate's pass is. */
  private class RecordingGate implements ResponseGate {
    boolean held;
    int entered;
    int left;

    @Override
    public void enter() {
      if (held) return;
      held = true;
      entered++;
      onEnter(entered);
    }

    @Override
    public void leave() {
      if (!held) return;
      held = false;
      left++;
      onLeave(left);
    }

    void onEnter(int times) {}

    void onLeave(int times) {}
  }

  @AfterEach
  void stop() throws IOException {
    if (fetcher != null) fetcher.close();
    if (server != null) server.close();
  }

  private HttpFetcher fetcher() {
    return new HttpFetcher(new HttpFetcher.Options("ForagerTest/1.0", 1 << 20, Duration.ofSeconds(5), 100, true, 16));
  }

  private static void await(CountDownLatch latch) {
    try {
      assertTrue(latch.await(10, TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void enteredWithTheRequestReceivedAndReturnsInside() throws Exception {
    CountDownLatch received = new CountDownLatch(1);
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      events.add("server received the request");
      received.countDown();
      answerOk(socket.getOutputStream());
    });
    fetcher = fetcher();
    RecordingGate gate = new RecordingGate() {
      @Override
      void onEnter(int times) {
        if (times == 1) {
          await(received); // the request is on the wire before the gate is entered
          events.add("entered");
        }
      }
    };

    FetchResult result = fetcher.fetch(FetchRequest.of(server.url("/")), gate);

    Response response = assertInstanceOf(Response.class, result, () -> ((Failure) result).message());
    assertEquals("ok", new String(response.body(), StandardCharsets.ISO_8859_1));
    assertEquals(List.of("server received the request", "entered"), events);
    assertTrue(gate.held, "the fetch returns inside the gate");
  }

  @Test
  void aReadThatWaitsForTheNetworkLeavesTheGateMeanwhile() throws Exception {
    CountDownLatch hasLeft = new CountDownLatch(1);
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      out.write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nok"));
      out.flush();
      // The rest of the body only once the fetch has left the gate: had it waited inside, holding its
      // place, the fetch would end at its deadline with half a body.
      hasLeft.await(10, TimeUnit.SECONDS);
      out.write(ascii("ok"));
      out.flush();
    });
    fetcher = fetcher();
    RecordingGate gate = new RecordingGate() {
      @Override
      void onLeave(int times) {
        hasLeft.countDown();
      }
    };

    FetchResult result = fetcher.fetch(FetchRequest.of(server.url("/")), gate);

    Response response = assertInstanceOf(Response.class, result, () -> ((Failure) result).message());
    assertEquals("okok", new String(response.body(), StandardCharsets.ISO_8859_1));
    assertFalse(response.truncated());
    assertTrue(gate.left >= 1, "left while the body's end was awaited");
    assertEquals(gate.left + 1, gate.entered, "entered again after each wait");
    assertTrue(gate.held);
  }

  @Test
  void aRequestSentAgainOnANewConnectionReturnsInsideTheGate() throws IOException {
    // Answers one request a connection, then closes it: the second fetch's request, sent on the
    // kept-alive connection, is sent again on a new one.
    server = new RawServer(socket -> {
      byte[] head = readRequestHead(socket.getInputStream());
      String path = new String(head, StandardCharsets.ISO_8859_1).split(" ")[1];
      socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Length: " + path.length() + "\r\n\r\n" + path));
      socket.getOutputStream().flush();
    });
    fetcher = fetcher();
    assertInstanceOf(Response.class, fetcher.fetch(FetchRequest.of(server.url("/1")), new RecordingGate()));
    RecordingGate gate = new RecordingGate();

    FetchResult second = fetcher.fetch(FetchRequest.of(server.url("/2")), gate);

    Response response = assertInstanceOf(Response.class, second, () -> ((Failure) second).message());
    assertEquals("/2", new String(response.body(), StandardCharsets.ISO_8859_1));
    assertEquals(2, server.connections(), "sent again on a new connection");
    assertTrue(gate.held);
    assertEquals(gate.left + 1, gate.entered);
  }

  @Test
  void neverEnteredWhenNoRequestCouldBeSent() throws IOException {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    fetcher = fetcher();
    RecordingGate gate = new RecordingGate();

    FetchResult result = fetcher.fetch(FetchRequest.of("http://127.0.0.1:" + closedPort + "/"), gate);

    assertInstanceOf(Failure.class, result);
    assertEquals(0, gate.entered);
  }

  @Test
  void theWaitForTheGateCountsAsTheFetchsTime() throws IOException {
    server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      answerOk(socket.getOutputStream());
    });
    fetcher = fetcher();
    long waitMillis = 300;
    RecordingGate gate = new RecordingGate() {
      @Override
      void onEnter(int times) {
        if (times > 1) return;
        try {
          Thread.sleep(waitMillis); // the wait for a place: what is measured, not a synchronization
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        }
      }
    };

    FetchResult result = fetcher.fetch(FetchRequest.of(server.url("/")), gate);

    assertInstanceOf(Response.class, result);
    assertTrue(result.durationMillis() >= waitMillis, "duration " + result.durationMillis() + " ms");
  }

  private static void answerOk(OutputStream out) throws IOException {
    out.write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
    out.flush();
  }
}
