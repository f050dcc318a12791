package org.forager.bench.web;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class SyntheticWebServerTest {

  @Test
  void servesPagesRobotsTxtAndNotFound() throws IOException {
    try (SyntheticWebServer server = Servers.start(2, 10, Duration.ZERO);
        RawHttp http = new RawHttp(1, server.config().port())) {
      RawHttp.Response root = http.fetch("/");
      assertEquals(200, root.status());
      assertEquals("text/html; charset=utf-8", root.headers().get("content-type"));
      assertEquals(String.valueOf(root.body().length), root.headers().get("content-length"));
      assertEquals("keep-alive", root.headers().get("connection"));
      assertTrue(!root.headers().containsKey("content-encoding"));
      assertArrayEquals(new PageRenderer(server.config()).page(1, 0), root.body());

      RawHttp.Response robots = http.fetch("/robots.txt");
      assertEquals(200, robots.status());
      assertEquals("User-agent: *\nDisallow: /private/\n", robots.text());
      assertTrue(robots.headers().get("content-type").startsWith("text/plain"));

      for (String missing : new String[] {"/p/0.html", "/p/10.html", "/p/01.html", "/p/3.html?x=1",
          "/private/account/3.html", "/media/3-1.jpg", "/docs/report-3.pdf", "/index.html", "/p/"}) {
        assertEquals(404, http.fetch(missing).status(), missing);
      }
      assertEquals(200, http.fetch("/p/9.html").status());
    }
  }

  @Test
  void keepsTheConnectionAliveAcrossRequestsAndAnswersPipelinedOnesInOrder() throws IOException {
    try (SyntheticWebServer server = Servers.start(1, 20, Duration.ZERO);
        RawHttp http = new RawHttp(0, server.config().port())) {
      PageRenderer renderer = new PageRenderer(server.config());
      for (int page = 1; page <= 5; page++) {
        assertArrayEquals(renderer.page(0, page), http.fetch("/p/" + page + ".html").body());
      }
      http.send(http.get("/p/6.html") + http.get("/robots.txt") + http.get("/p/7.html"));
      assertArrayEquals(renderer.page(0, 6), http.read(false).body());
      assertEquals(Responses.ROBOTS_TXT.length, http.read(false).body().length);
      assertArrayEquals(renderer.page(0, 7), http.read(false).body());

      Audit audit = server.audit();
      assertEquals(8, audit.requests());
      assertEquals(1, audit.connections(), "one socket carried every request");
    }
  }

  @Test
  void headGetsTheHeaderOnlyAndConnectionCloseClosesAfterTheResponse() throws IOException {
    try (SyntheticWebServer server = Servers.start(1, 5, Duration.ZERO);
        RawHttp http = new RawHttp(0, server.config().port())) {
      http.send("HEAD /p/2.html HTTP/1.1\r\nHost: x\r\n\r\n");
      RawHttp.Response head = http.read(true);
      assertEquals(200, head.status());
      assertEquals(new PageRenderer(server.config()).page(0, 2).length,
          Integer.parseInt(head.headers().get("content-length")));
      http.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      RawHttp.Response last = http.read(false);
      assertEquals("close", last.headers().get("connection"));
      assertTrue(http.closedByServer());
    }
  }

  @Test
  void refusesOtherMethodsAndRequestBodies() throws IOException {
    try (SyntheticWebServer server = Servers.start(1, 5, Duration.ZERO);
        RawHttp http = new RawHttp(0, server.config().port())) {
      http.send("DELETE / HTTP/1.1\r\nHost: x\r\n\r\n");
      assertEquals(405, http.read(false).status());
      http.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc");
      assertEquals(400, http.read(false).status());
      assertTrue(http.closedByServer());
    }
  }

  @Test
  void eachLoopbackAddressIsItsOwnHostAndNothingElseIsBound() throws IOException {
    try (SyntheticWebServer server = Servers.start(2, 5, Duration.ZERO)) {
      int port = server.config().port();
      try (RawHttp first = new RawHttp(0, port); RawHttp second = new RawHttp(1, port)) {
        assertTrue(first.fetch("/").text().contains("<p class=\"site\">Site 0</p>"));
        assertTrue(second.fetch("/").text().contains("<p class=\"site\">Site 1</p>"));
        assertTrue(second.fetch("/p/1.html").text().contains(server.config().origin(1) + "/"));
      }
      // Not the wildcard address: 127.0.0.1 and the third address are not served.
      for (String address : new String[] {"127.0.0.1", "127.1.0.3"}) {
        assertThrows(ConnectException.class, () -> {
          try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getByName(address), port), 2000);
          }
        });
      }
      Audit audit = server.audit();
      assertEquals(2, audit.hostsRequested());
      assertEquals(1, audit.hosts().get(0).requests());
      assertEquals(2, audit.hosts().get(1).requests());
    }
  }

  @Test
  void aTakenPortIsReportedWithItsAddress() throws IOException {
    try (SyntheticWebServer server = Servers.start(1, 5, Duration.ZERO)) {
      IOException e = assertThrows(IOException.class,
          () -> SyntheticWebServer.start(new WebConfig(2, 5, server.config().port(), Duration.ZERO)));
      assertTrue(e.getMessage().contains("127.1.0.1:" + server.config().port()), e.getMessage());
    }
  }
}
