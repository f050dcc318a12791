package org.forager.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code Host} check against DNS rebinding (issue 19, item 4): a browser that was made to resolve
 * a hostile name to the status server still sends that name, and gets nothing.
 */
@Timeout(30)
class StatusServerHostTest {

  private static final List<String> PATHS = List.of("/", "/index.html", "/api/status", "/metrics", "/nothing");

  @Test
  void aRebindingHostIsRefusedOnEveryEndpoint() throws Exception {
    try (StatusServer status = StatusServer.start("127.0.0.1", 0)) {
      int port = status.uri().getPort();
      for (String path : PATHS) {
        for (String host : List.of("rebind.example:" + port, "rebind.example", "127.0.0.1.rebind.example:" + port,
            "localhost.rebind.example:" + port)) {
          String answer = get(status, path, "Host: " + host);
          assertEquals(421, RawClient.status(answer), path + " with Host " + host + ":\n" + answer);
          assertFalse(answer.contains("\"state\"") || answer.contains("forager_"), "no crawl data: " + answer);
        }
      }
    }
  }

  @Test
  void loopbackNamesAndTheBoundAddressAreAnswered() throws Exception {
    try (StatusServer status = StatusServer.start("127.0.0.1", 0)) {
      int port = status.uri().getPort();
      for (String host : List.of("127.0.0.1:" + port, "localhost:" + port, "LocalHost.:" + port, "[::1]:" + port,
          "[0:0:0:0:0:0:0:1]:" + port)) {
        assertEquals(200, RawClient.status(get(status, "/api/status", "Host: " + host)), host);
        assertEquals(200, RawClient.status(get(status, "/metrics", "Host: " + host)), host);
      }
    }
  }

  @Test
  void aWrongPortNoHostOrTwoHostsAreRefused() throws Exception {
    try (StatusServer status = StatusServer.start("127.0.0.1", 0)) {
      int port = status.uri().getPort();
      assertEquals(421, RawClient.status(get(status, "/api/status", "Host: 127.0.0.1:" + (port == 1 ? 2 : 1))));
      assertEquals(421, RawClient.status(get(status, "/api/status", "Host: 127.0.0.1")), "no port but not on 80");
      assertEquals(400, RawClient.status(RawClient.exchange(status.uri(), "GET /api/status HTTP/1.0\n\n")));
      assertEquals(400, RawClient.status(get(status, "/api/status",
          "Host: 127.0.0.1:" + port + "\nHost: rebind.example:" + port)));
    }
  }

  @Test
  void allowedHostsAreAnsweredToo() throws Exception {
    try (StatusServer status = StatusServer.start("127.0.0.1", 0, List.of("crawler.internal", "[fd00::5]"),
        BoundedHttpServer.Limits.DEFAULT)) {
      int port = status.uri().getPort();
      assertEquals(200, RawClient.status(get(status, "/", "Host: crawler.internal:" + port)));
      assertEquals(200, RawClient.status(get(status, "/", "Host: [fd00:0::5]:" + port)));
      assertEquals(421, RawClient.status(get(status, "/", "Host: crawler.internal.rebind.example:" + port)));
    }
  }

  @Test
  void aNonLoopbackBindIsWarnedAbout() throws Exception {
    String warning = StatusServer.exposureWarning(new InetSocketAddress("0.0.0.0", 8090)).orElseThrow();
    assertTrue(warning.contains("every network interface") && warning.contains("anyone who can reach"), warning);
    assertTrue(StatusServer.exposureWarning(new InetSocketAddress("10.1.2.3", 8090)).orElseThrow()
        .contains("10.1.2.3, port 8090, not on loopback"));
    assertTrue(StatusServer.exposureWarning(new InetSocketAddress("::", 8090)).isPresent());
    assertTrue(StatusServer.exposureWarning(new InetSocketAddress("127.0.0.1", 8090)).isEmpty());
    assertTrue(StatusServer.exposureWarning(new InetSocketAddress("::1", 8090)).isEmpty());
    try (StatusServer status = StatusServer.start("127.0.0.1", 0)) {
      assertTrue(status.exposureWarning().isEmpty());
    }
  }

  private static String get(StatusServer status, String path, String hostLines) throws Exception {
    return RawClient.exchange(status.uri(), "GET " + path + " HTTP/1.1\n" + hostLines + "\n\n");
  }
}
