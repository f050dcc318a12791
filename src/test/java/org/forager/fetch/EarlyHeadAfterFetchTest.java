package org.forager.fetch;

import static org.forager.fetch.RawServer.ascii;
import static org.forager.fetch.RawServer.readRequestHead;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.forager.fetch.FetchResult.Response;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * a batched head can be written after its fetch has ended and the connection went back to the
 * pool; it then rides in front of the next request on that connection, whose fetch reads the late
 * request's answer as its own.
 */
@Timeout(30)
class EarlyHeadAfterFetchTest {

  /** A pass as the page gate's: held or not. */
  private static final class Gate implements ResponseGate {
    boolean held;

    @Override
    public void enter() {
      held = true;
    }

    @Override
    public void leave() {
      held = false;
    }
  }

  private static void answer(OutputStream out, String body) throws java.io.IOException {
    out.write(ascii("HTTP/1.1 200 OK\r\nContent-Length: " + body.length() + "\r\n\r\n" + body));
    out.flush();
  }

  @RepeatedTest(5)
  void theNextFetchOnTheConnectionDoesNotReadTheLateRequestsAnswer() throws Exception {
    // Answers at once on a new connection (before any request: a server that greets, or a hostile
    // one), then answers each request it reads with its path.
    try (RawServer server = new RawServer(socket -> {
          answer(socket.getOutputStream(), "greeting");
          while (true) {
            String head = new String(readRequestHead(socket.getInputStream()), StandardCharsets.ISO_8859_1);
            answer(socket.getOutputStream(), head.split(" ")[1]);
          }
        });
        RawServer warm = new RawServer(socket -> {
          readRequestHead(socket.getInputStream());
          answer(socket.getOutputStream(), "warm");
        });
        HttpFetcher fetcher = new HttpFetcher(
            new HttpFetcher.Options("ForagerTest/1.0", 1 << 20, Duration.ofSeconds(5), 100, true, 16))) {
      fetcher.fetch(FetchRequest.of(warm.url("/")), new Gate()); // classes loaded

      FetchResult a = fetcher.fetch(FetchRequest.of(server.url("/a")), new Gate());
      assertInstanceOf(Response.class, a);
      FetchResult b = fetcher.fetch(FetchRequest.of(server.url("/b")), new Gate());

      Response rb = assertInstanceOf(Response.class, b, () -> ((FetchResult.Failure) b).message());
      assertNotEquals("/a", new String(rb.body(), StandardCharsets.ISO_8859_1),
          "/b was stored with the answer to /a, a request written after its fetch had ended");
    }
  }
}
