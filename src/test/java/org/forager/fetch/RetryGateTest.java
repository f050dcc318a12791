package org.forager.fetch;

import static org.forager.fetch.RawServer.ascii;
import static org.forager.fetch.RawServer.readRequestHead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.forager.fetch.FetchResult.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * when a request on a kept-alive connection is sent again on a new one (the server had closed
 * the idle connection), the new connection is made (DNS, TCP connect, TLS handshake) while the fetch
 * holds its place in the page gate: a server slow to accept holds a permit up to the fetch deadline.
 */
@Timeout(30)
class RetryGateTest {

  private static final class Gate implements ResponseGate {
    volatile boolean held;

    @Override
    public void enter() {
      held = true;
    }

    @Override
    public void leave() {
      held = false;
    }
  }

  @Test
  void aNewConnectionForARequestSentAgainIsNotMadeInsideTheGate() throws Exception {
    // One request a connection, then closed: the second fetch's kept-alive connection is dead.
    try (RawServer server = new RawServer(socket -> {
      readRequestHead(socket.getInputStream());
      socket.getOutputStream().write(ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
      socket.getOutputStream().flush();
    })) {
      Gate[] current = new Gate[1];
      List<Boolean> heldWhileConnecting = Collections.synchronizedList(new ArrayList<>());
      org.forager.dns.Resolver resolver = host -> {
        heldWhileConnecting.add(current[0].held);
        return List.of(InetAddress.getLoopbackAddress());
      };
      try (HttpFetcher fetcher = new HttpFetcher(new HttpFetcher.Options("ForagerTest/1.0", 1 << 20,
          Duration.ofSeconds(5), 100, true, 16, resolver, true))) {
        String url = "http://retry.test:" + server.port();
        current[0] = new Gate();
        assertInstanceOf(Response.class, fetcher.fetch(FetchRequest.of(url + "/1"), current[0]));
        current[0] = new Gate();
        FetchResult second = fetcher.fetch(FetchRequest.of(url + "/2"), current[0]);
        assertInstanceOf(Response.class, second, () -> ((FetchResult.Failure) second).message());
        assertEquals(2, server.connections(), "sent again on a new connection");
        assertEquals(List.of(false, false), heldWhileConnecting, "gate held while each connection was made");
      }
    }
  }
}
