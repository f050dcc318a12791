package org.forager.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.forager.crawl.Crawler;
import org.forager.testweb.TestCrawl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may give the crawl an order (issue 17 item 1): only a client with the crawl's token, never a
 * browser page of another site, never through a rebound name. Each refusal changes nothing.
 */
@Timeout(30)
class ControlApiSecurityTest {

  @TempDir Path tmp;

  private Crawler crawler;
  private ControlToken token;
  private ControlServer server;
  private URI base;
  private int port;

  @BeforeEach
  void start() throws Exception {
    crawler = Crawler.open(TestCrawl.config(tmp.resolve("data"), List.of(), ""));
    token = ControlToken.generate();
    server = ControlServer.start(crawler.control(), token);
    base = server.uri();
    port = base.getPort();
  }

  @AfterEach
  void stop() {
    server.close();
    crawler.close();
  }

  private String pause(String... headers) throws Exception {
    return RawClient.exchange(base, "POST /api/control/pause HTTP/1.1\nHost: 127.0.0.1:" + port + "\n"
        + String.join("", List.of(headers).stream().map(h -> h + "\n").toList())
        + "Content-Type: application/json\nContent-Length: 2\n\n{}");
  }

  private String bearer() {
    return "Authorization: Bearer " + token.value();
  }

  @Test
  void anOrderWithoutATokenIsRefused401() throws Exception {
    String answer = pause();
    assertEquals(401, RawClient.status(answer), answer);
    assertTrue(answer.contains("WWW-Authenticate: Bearer"), answer);
    assertFalse(crawler.control().state().paused());
  }

  @Test
  void anOrderWithAWrongTokenIsRefused401() throws Exception {
    String wrong = ControlToken.generate().value();
    for (String header : List.of("Authorization: Bearer " + wrong, "Authorization: Bearer " + token.value() + "x",
        "Authorization: Basic " + token.value(), "Authorization: Bearer")) {
      String answer = pause(header);
      assertEquals(401, RawClient.status(answer), header + "\n" + answer);
    }
    assertFalse(crawler.control().state().paused());
  }

  @Test
  void anOrderFromAnotherSitesPageIsRefused403EvenWithTheToken() throws Exception {
    for (String origin : List.of("Origin: http://evil.example", "Origin: null", "Origin: http://127.0.0.1:" + (port + 1),
        "Origin: https://127.0.0.1:" + port)) {
      String answer = pause(bearer(), origin);
      assertEquals(403, RawClient.status(answer), origin + "\n" + answer);
    }
    assertEquals(403, RawClient.status(pause(bearer(), "Sec-Fetch-Site: cross-site")));
    assertFalse(crawler.control().state().paused());
  }

  @Test
  void anOrderThroughAForeignHostIsRefused421EvenWithTheToken() throws Exception {
    String answer = RawClient.exchange(base, "POST /api/control/pause HTTP/1.1\nHost: rebind.example:" + port + "\n"
        + bearer() + "\nContent-Type: application/json\nContent-Length: 2\n\n{}");
    assertEquals(421, RawClient.status(answer), answer);
    assertFalse(crawler.control().state().paused());
  }

  @Test
  void aGetOfAControlUrlIs405() throws Exception {
    String answer = RawClient.exchange(base, "GET /api/control/pause HTTP/1.1\nHost: 127.0.0.1:" + port + "\n"
        + bearer() + "\n\n");
    assertEquals(405, RawClient.status(answer), answer);
    assertTrue(answer.contains("Allow: POST"), answer);
    assertFalse(crawler.control().state().paused());
  }

  @Test
  void theTokenFromThisServersOwnPageOrACommandLineClientIsObeyedAndLogged() throws Exception {
    String answer = pause(bearer(), "Origin: http://127.0.0.1:" + port, "Sec-Fetch-Site: same-origin",
        "X-Forager-Client: page");
    assertEquals(200, RawClient.status(answer), answer);
    assertTrue(crawler.control().state().paused());
    answer = RawClient.exchange(base, "POST /api/control/resume HTTP/1.1\nHost: localhost:" + port + "\n" + bearer()
        + "\nX-Forager-Client: cli\n\n");
    assertEquals(200, RawClient.status(answer), answer);
    assertFalse(crawler.control().state().paused());
    crawler.close();
    List<JsonNode> log = TestCrawl.log(tmp.resolve("data"));
    assertEquals(List.of("pause page", "resume cli"), log.stream()
        .map(l -> l.get("kind").asText() + ":" + l.get("action").asText() + " " + l.get("by").asText())
        .map(s -> s.substring("control:".length())).toList());
  }

  @Test
  void retryFailedIsAnOrderOfTheApiAnsweredAtOnceItsCountLoggedWhenDone() throws Exception {
    String body = "{\"host\": \"Example.ORG\"}";
    String answer = RawClient.exchange(base, "POST /api/control/retry-failed HTTP/1.1\nHost: 127.0.0.1:" + port + "\n"
        + bearer() + "\nContent-Type: application/json\nContent-Length: " + body.length() + "\n\n" + body);
    assertEquals(200, RawClient.status(answer), answer);
    assertTrue(answer.contains("making the URLs whose last request failed due now (of example.org and the hosts under"
        + " it)"), answer);
    String bad = "{\"host\": \"exa mple.org\"}";
    answer = RawClient.exchange(base, "POST /api/control/retry-failed HTTP/1.1\nHost: 127.0.0.1:" + port + "\n"
        + bearer() + "\nContent-Type: application/json\nContent-Length: " + bad.length() + "\n\n" + bad);
    assertEquals(400, RawClient.status(answer), answer);
  }

  @Test
  void bodiesAreSmallJsonObjects() throws Exception {
    String big = "{\"host\":\"" + "a".repeat(20_000) + "\"}";
    String answer = RawClient.exchange(base, "POST /api/control/block HTTP/1.1\nHost: 127.0.0.1:" + port + "\n"
        + bearer() + "\nContent-Type: application/json\nContent-Length: " + big.length() + "\n\n" + big);
    assertEquals(413, RawClient.status(answer), answer);
    answer = RawClient.exchange(base, "POST /api/control/block HTTP/1.1\nHost: 127.0.0.1:" + port + "\n"
        + bearer() + "\nContent-Type: text/plain\nContent-Length: 22\n\n{\"host\":\"example.org\"}");
    assertEquals(415, RawClient.status(answer), answer);
    answer = RawClient.exchange(base, "POST /api/control/block HTTP/1.1\nHost: 127.0.0.1:" + port + "\n"
        + bearer() + "\nContent-Type: application/json\nContent-Length: 3\n\n[1]");
    assertEquals(400, RawClient.status(answer), answer);
    answer = RawClient.exchange(base, "POST /api/control/launch HTTP/1.1\nHost: 127.0.0.1:" + port + "\n"
        + bearer() + "\n\n");
    assertEquals(404, RawClient.status(answer), answer);
    assertEquals(List.of(), crawler.control().state().blocks());
  }

  @Test
  void theControlFileIsReadableByItsOwnerOnlyAndHoldsTheAddressAndToken() throws Exception {
    Path dir = tmp.resolve("data");
    new ControlFile(base, token.value(), 42, Instant.EPOCH, Optional.empty()).write(dir);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(ControlFile.in(dir))));
    ControlFile read = ControlFile.read(dir).orElseThrow();
    assertEquals(base, read.url());
    assertEquals(token.value(), read.token());
    assertFalse(read.toString().contains(token.value()), "the token is never printed by accident");
    read.remove(dir);
    assertFalse(Files.exists(ControlFile.in(dir)));
  }
}
