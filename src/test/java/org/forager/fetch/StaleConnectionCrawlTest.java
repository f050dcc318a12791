package org.forager.fetch;

import static org.forager.fetch.RawServer.ascii;
import static org.forager.fetch.RawServer.readRequestHead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.forager.testweb.TestCrawl;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A whole crawl of a site whose server closes kept-alive connections the way real ones do (idle
 * timeout with FIN or RST, or reading the next request and closing unanswered), with the crawl's
 * delay shorter and longer than the server's idle timeout: every page is fetched, none is logged
 * as a network error first, and the crawl log passes the politeness audit.
 */
@Timeout(60)
class StaleConnectionCrawlTest {

  static final int PAGES = 20;
  static final int IDLE_TIMEOUT_MILLIS = 100;

  enum Closing { IDLE_CLOSE, IDLE_RESET, SECOND_REQUEST_UNANSWERED }

  @TempDir Path tmp;

  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private final AtomicInteger received = new AtomicInteger();

  @ParameterizedTest(name = "{0}, min_delay {1}")
  @CsvSource({
      "IDLE_CLOSE, 20ms", "IDLE_CLOSE, 150ms",
      "IDLE_RESET, 20ms", "IDLE_RESET, 150ms",
      "SECOND_REQUEST_UNANSWERED, 20ms", "SECOND_REQUEST_UNANSWERED, 150ms"})
  void serverClosingKeptAliveConnectionsCostsNoPageAndLogsNoNetworkError(Closing closing, String minDelay)
      throws Exception {
    try (RawServer server = new RawServer(socket -> serve(socket, closing))) {
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(server.url("/")),
          "politeness: { min_delay: " + minDelay + ", max_delay: 2s, response_time_factor: 0 }"));

      List<JsonNode> log = TestCrawl.log(data);
      Set<String> fetched = log.stream()
          .filter(line -> line.get("kind").asText().equals("page") && line.get("outcome").asText().equals("FETCHED"))
          .map(line -> line.get("url").asText()).collect(Collectors.toCollection(TreeSet::new));
      assertEquals(PAGES, fetched.size(), () -> "fetched " + fetched + "; log " + log);
      assertTrue(log.stream().noneMatch(line -> line.get("outcome").asText().equals("NETWORK_ERROR")),
          () -> "a network error was logged: " + log);
      assertEquals(1, maxInFlight.get(), "requests in flight at once, seen by the server");
      if (closing == Closing.SECOND_REQUEST_UNANSWERED) {
        // Each request it closed unanswered was sent again on a new connection: after a few, the crawl
        // stops reusing its connections, so that it does not get every request twice (the attacker review).
        assertTrue(received.get() <= PAGES + 1 + ConnectionPool.UNANSWERED_REUSES,
            "requests the server read: " + received.get());
      }
    }
  }

  /** Serves one connection: keep-alive answers until the server's way of closing it. */
  private void serve(Socket socket, Closing closing) throws IOException {
    for (int answered = 0; ; answered++) {
      if (answered > 0) socket.setSoTimeout(IDLE_TIMEOUT_MILLIS);
      byte[] head;
      try {
        head = readRequestHead(socket.getInputStream());
      } catch (SocketTimeoutException idle) {
        if (closing == Closing.IDLE_RESET) RawServer.reset(socket);
        return; // closed (FIN) when the handler returns
      } catch (IOException clientClosed) {
        return;
      }
      received.incrementAndGet();
      int now = inFlight.incrementAndGet();
      maxInFlight.accumulateAndGet(now, Math::max);
      if (closing == Closing.SECOND_REQUEST_UNANSWERED && answered == 1) {
        inFlight.decrementAndGet();
        return;
      }
      String path = new String(head, StandardCharsets.ISO_8859_1).split(" ")[1];
      byte[] body = ascii(page(path));
      OutputStream out = socket.getOutputStream();
      inFlight.decrementAndGet(); // before the answer: the client may send its next request once it has it
      out.write(ascii((path.equals("/robots.txt") ? "HTTP/1.1 404 Not Found" : "HTTP/1.1 200 OK")
          + "\r\nContent-Type: text/html\r\nContent-Length: " + body.length + "\r\n\r\n"));
      out.write(body);
      out.flush();
    }
  }

  private static String page(String path) {
    if (path.equals("/robots.txt")) return "";
    if (!path.equals("/")) return "<p>page " + path + "</p>";
    return IntStream.range(1, PAGES).mapToObj(i -> "<a href=\"/p" + i + "\">" + i + "</a>")
        .collect(Collectors.joining("\n"));
  }
}
