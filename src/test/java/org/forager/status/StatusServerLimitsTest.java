package org.forager.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.forager.config.CrawlConfig;
import org.forager.crawl.Crawler;
import org.forager.fetch.Outcome;
import org.forager.record.RunSummary;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status server's limits (issue 19, item 4): connections it will not hold, requests it will not
 * wait for, and a crawl that does not notice either.
 */
@Timeout(120)
class StatusServerLimitsTest {

  private static final int PAGES = 60;
  private static final int STALLED = 2_000;
  private static final BoundedHttpServer.Limits SHORT =
      new BoundedHttpServer.Limits(4, Duration.ofMillis(500), 8 * 1024);

  @TempDir Path tmp;

  @Test
  void twoThousandStalledConnectionsAreShedWhileTheCrawlCompletes() throws Exception {
    int stalledCount = stalledConnectionsThisProcessCanOpen();
    try (TestSite site = site(); StatusServer status = StatusServer.start("127.0.0.1", 0)) {
      CrawlConfig config = TestCrawl.config(tmp.resolve("data"), List.of(site.url("/")), "");
      List<Socket> stalled = new ArrayList<>();
      try {
        // Half a request line each, then nothing: what 18,000 of took a crawl down to 2 pages/s.
        for (int i = 0; i < stalledCount; i++) {
          Socket socket = RawClient.connect(status.uri());
          stalled.add(socket);
          socket.getOutputStream().write("GET /api/sta".getBytes(StandardCharsets.US_ASCII));
        }
        RunSummary summary;
        try (Crawler crawler = Crawler.open(config, status::timed).listener(status.listener()).quiet(true)) {
          summary = crawler.run();
        }
        assertEquals(PAGES + 1, summary.count(Outcome.FETCHED) - summary.robotsFetches(), summary.render(Duration.ZERO));
        TestCrawl.assertPolite(config.dataDir());
        awaitHeldAtMost(stalled, StatusServer.MAX_CONNECTIONS);
      } finally {
        for (Socket socket : stalled) socket.close();
      }
      // Once they go, the page answers.
      StatusClient client = new StatusClient(status.uri());
      assertEquals("finished", awaitAnswer(client).get("state").asText());
    }
  }

  @Test
  void aStalledRequestIsCutAtTheExchangeDeadline() throws Exception {
    try (StatusServer status = StatusServer.start("127.0.0.1", 0, List.of(), SHORT);
        Socket stalled = RawClient.connect(status.uri())) {
      stalled.getOutputStream().write("GET / HTTP/1.1\r\nHost: 127.0.0.1".getBytes(StandardCharsets.US_ASCII));
      assertTrue(RawClient.closedByServer(stalled, 20_000), "closed by the server at its deadline");
    }
  }

  @Test
  void aRequestDrippedAByteAtATimeIsCutAtTheExchangeDeadline() throws Exception {
    try (StatusServer status = StatusServer.start("127.0.0.1", 0, List.of(), SHORT);
        Socket drip = RawClient.connect(status.uri())) {
      // Each byte well within any idle timeout: only a deadline for the whole request ends this.
      Thread dripping = Thread.ofVirtual().start(() -> {
        try {
          drip.getOutputStream().write("GET / HTTP/1.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
          while (true) {
            drip.getOutputStream().write('a');
            Thread.sleep(50);
          }
        } catch (IOException | InterruptedException e) {
          // cut by the server, or the test is over
        }
      });
      try {
        assertTrue(RawClient.closedByServer(drip, 20_000), "closed by the server at its deadline");
      } finally {
        dripping.interrupt();
      }
    }
  }

  @Test
  void aRequestHeadOver8KiBIsRefused() throws Exception {
    try (StatusServer status = StatusServer.start("127.0.0.1", 0)) {
      String answer = RawClient.exchange(status.uri(), "GET / HTTP/1.1\nHost: 127.0.0.1:" + status.uri().getPort()
          + "\nX-Big: " + "a".repeat(9 * 1024) + "\n\n");
      assertEquals(431, RawClient.status(answer), answer);
    }
  }

  private static TestSite site() throws IOException {
    String[] pages = new String[PAGES];
    for (int i = 0; i < PAGES; i++) pages[i] = "/p" + i;
    TestSite site = TestSite.start().robots("User-agent: *\nAllow: /\n").linking("/", pages);
    for (String page : pages) site.linking(page);
    return site;
  }

  /** Each stalled connection costs this process two descriptors (client and, until shed, server side). */
  private static int stalledConnectionsThisProcessCanOpen() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os) {
      long spare = os.getMaxFileDescriptorCount() - os.getOpenFileDescriptorCount() - 500;
      int count = (int) Math.min(STALLED, spare / 2);
      Assumptions.assumeTrue(count >= 500, "too few file descriptors (ulimit -n) for the test: " + spare);
      return count;
    }
    return STALLED;
  }

  /** Waits until the server has closed all but {@code max} of the connections (fails after 30 s). */
  private static void awaitHeldAtMost(List<Socket> sockets, int max) throws IOException {
    List<Socket> open = new ArrayList<>(sockets);
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (open.size() > max) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the status server still holds " + open.size() + " stalled connections");
      }
      List<Socket> still = new ArrayList<>();
      for (Socket socket : open) {
        if (!RawClient.closedByServer(socket, 1)) still.add(socket);
      }
      open = still;
    }
  }

  private static com.fasterxml.jackson.databind.JsonNode awaitAnswer(StatusClient client) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (true) {
      try {
        return client.status();
      } catch (IOException e) {
        if (System.nanoTime() > deadline) throw new AssertionError("the page never answered again", e);
        Thread.sleep(20);
      }
    }
  }
}
