package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.forager.crawl.Crawler;
import org.forager.status.ControlFile;
import org.forager.status.ControlServer;
import org.forager.status.ControlToken;
import org.forager.testweb.CapturedConsole;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code forager ctl} against a running {@code forager crawl}, and without one (issue 17 item 1). */
@Timeout(90)
class CtlCommandTest {

  @TempDir Path tmp;

  @RegisterExtension final CapturedConsole console = new CapturedConsole();

  @Test
  void ordersFromTheCommandLineReachTheRunningCrawlAndItsLog() throws Exception {
    CountDownLatch arrived = new CountDownLatch(1);
    CountDownLatch open = new CountDownLatch(1);
    Path data = tmp.resolve("data");
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\n").linking("/p0").linking("/extra").route("/hold", ex -> {
        arrived.countDown();
        try {
          open.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        TestSite.respond(ex, 200, "text/html", "<a href=\"/p0\">p0</a>");
      });
      Path config = Files.writeString(tmp.resolve("forager.yaml"), """
          politeness: { min_delay: 10ms, response_time_factor: 0 }
          network: { allow_private_addresses: true }
          limits: { fetch_timeout: 30s }
          """);
      CompletableFuture<Integer> crawl = CompletableFuture.supplyAsync(() -> Main.run("crawl", "--config",
          config.toString(), "--seed", site.url("/hold"), "--data-dir", data.toString(), "--quiet"));
      assertTrue(arrived.await(20, TimeUnit.SECONDS), "the crawl reached the held page");
      assertTrue(Files.exists(ControlFile.in(data)), "the crawl said where its control API is");

      assertEquals(0, ctl(data, "pause"));
      assertEquals(0, ctl(data, "block", "Blocked.Example:8080"));
      assertEquals(0, ctl(data, "block", "blocked.example"), "again: said so");
      assertEquals(0, ctl(data, "set-delay", site.origin(), "5ms"));
      assertEquals(0, ctl(data, "set-delay", site.origin(), "30ms"));
      assertEquals(0, ctl(data, "pause", "https://typo.example"), "kept: the origin may come in later");
      assertEquals(1, ctl(data, "add-seed", site.url("/extra"), "ftp://example.org/"),
          "one URL refused: the order was not carried out whole (the other is added all the same)");
      assertEquals(2, ctl(data, "set-delay", site.origin(), "soon"), "a bad duration is bad usage");
      assertEquals(2, ctl(data, "launch"), "an unknown order is bad usage");
      assertEquals(0, ctl(data, "resume"));
      open.countDown();
      assertEquals(0, ctl(data, "stop"));
      assertEquals(4, crawl.get(30, TimeUnit.SECONDS), "stopped before it finished");

      String out = console.out();
      assertTrue(out.contains("paused: no new request starts"), out);
      assertTrue(out.contains("blocked blocked.example and every host under it"), out);
      assertTrue(out.contains("blocked blocked.example and every host under it (it was blocked already): no further"), out);
      assertTrue(out.contains("delay of " + site.origin() + " set to 5ms (never below its robots.txt Crawl-delay); below"
          + " the configured min_delay of 10ms: its server sees requests that much closer\n"), out);
      assertTrue(out.contains("delay of " + site.origin() + " set to 30ms (never below its robots.txt Crawl-delay)\n"),
          out);
      assertTrue(out.contains("paused https://typo.example: it sends no further request until resumed (note: "
          + "https://typo.example is not an origin of this crawl so far; the order holds if it comes in: check the "
          + "scheme, host and port)"), out);
      assertTrue(out.contains(site.url("/extra") + ": added"), out);
      assertTrue(out.contains("ftp://example.org/: refused: not an http(s) URL"), out);
      assertTrue(console.err().contains("forager: \"soon\" is not a duration"), console.err());
      assertFalse(Files.exists(ControlFile.in(data)), "removed at the crawl's clean exit");
      // The block outlives the run, and status shows it: why the site is not crawled any more.
      assertEquals(0, Main.run("status", "--data-dir", data.toString()));
      assertTrue(console.out().matches("(?s).*\\Rblocked hosts +1\\R  blocked\\.example +since \\S+, by cli\\R.*"),
          console.out());

      List<String> orders = TestCrawl.log(data).stream().filter(l -> l.get("kind").asText().equals("control"))
          .map(l -> l.get("action").asText() + " by " + l.get("by").asText()).toList();
      assertEquals(List.of("pause by cli", "block by cli", "block by cli", "set-delay by cli", "set-delay by cli",
          "pause-origin by cli", "add-seed by cli",
          "add-seed by cli", "resume by cli", "stop by cli"), orders);
      JsonNode block = TestCrawl.log(data).stream().filter(l -> l.path("action").asText().equals("block"))
          .findFirst().orElseThrow();
      assertEquals("blocked.example", block.get("target").asText());
      assertTrue(Instant.parse(block.get("ts").asText()).isAfter(Instant.now().minusSeconds(60)));
    }
    try (Crawler reopened = Crawler.open(TestCrawl.config(data, List.of(), ""))) {
      assertEquals("blocked.example", reopened.control().state().blocks().get(0).host(), "kept in the store");
    }
    console.reset();
    assertEquals(1, ctl(data, "pause"));
    assertEquals("forager: no crawl is running on " + data + " (no " + ControlFile.in(data) + ")\n", console.err());
    // A block is lifted between runs too, in the database itself, and logged as an order given in a run is.
    assertEquals(0, ctl(data, "unblock", "blocked.example"));
    assertTrue(console.out().contains("unblocked blocked.example (no crawl is running: written to its database)"),
        console.out());
    assertEquals(0, Main.run("status", "--data-dir", data.toString()));
    assertTrue(console.out().matches("(?s).*\\Rblocked hosts +0\\R.*"), console.out());
    assertEquals("unblock", TestCrawl.log(data).getLast().path("action").asText());
  }

  @Test
  void aControlFileLeftByAKilledCrawlOrWithAnotherTokenIsOneClearLine() throws Exception {
    Path data = Files.createDirectories(tmp.resolve("data"));
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    new ControlFile(URI.create("http://127.0.0.1:" + closedPort + "/"), "stale", 1, Instant.EPOCH, Optional.empty())
        .write(data);
    assertEquals(1, ctl(data, "pause"));
    String err = console.err();
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.startsWith("forager: no crawl is running on " + data + ": nothing answers at"), err);
    // A block after a crash is what matters most: with nothing answering, it goes to the database.
    try (Crawler crawled = Crawler.open(TestCrawl.config(data, List.of(), ""))) {
      assertTrue(crawled.control().state().blocks().isEmpty()); // a store for the block to go to
    }
    console.reset();
    assertEquals(0, ctl(data, "block", "example.org"), console.err());
    assertTrue(console.out().contains("blocked example.org and every host under it: no request of any kind from "
        + "the next run on (no crawl is running: written to its database)"), console.out());
    console.reset();
    // A '*' is a host character to the URL parser: "*.example.org" was blocked, and blocked nothing.
    assertEquals(2, ctl(data, "block", "*.example.org"));
    assertTrue(console.err().contains("\"*.example.org\" has a wildcard: write the domain alone, like example.org, which"
        + " covers every host under it"), console.err());
    assertEquals(0, ctl(data, "block", "127.0.0.2"), console.err());
    assertTrue(console.out().contains("blocked 127.0.0.2: no request of any kind"), "an address covers itself only: "
        + console.out());

    try (Crawler crawler = Crawler.open(TestCrawl.config(data, List.of(), ""));
        ControlServer server = ControlServer.start(crawler.control(), ControlToken.generate())) {
      new ControlFile(server.uri(), ControlToken.generate().value(), 1, Instant.EPOCH, Optional.empty()).write(data);
      console.reset();
      assertEquals(1, ctl(data, "pause"));
      assertTrue(console.err().startsWith("forager: the crawl at " + server.uri() + " refused the token in "),
          console.err());
      assertFalse(crawler.control().state().paused());
    }
  }

  /**
   * An order given with no crawl running leaves the WARC files a killed run left open to the next run:
   * `ctl block` printed that it had finished and indexed them, as if it were a crawl.
   */
  @Test
  void anOrderWithoutACrawlLeavesAKilledRunsWarcFilesToTheNextRun() throws Exception {
    Path data = tmp.resolve("data");
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\n").linking("/");
      org.forager.testweb.TestCrawl.run(org.forager.testweb.TestCrawl.config(data, List.of(site.url("/")), ""));
    }
    Path finished;
    try (var files = Files.list(data.resolve("warc"))) {
      finished = files.filter(p -> p.toString().endsWith(".warc.gz")).findFirst().orElseThrow();
    }
    Path open = finished.resolveSibling(finished.getFileName() + ".open"); // as a kill leaves it
    Files.move(finished, open);
    console.reset();
    assertEquals(0, ctl(data, "block", "example.org"), console.err());
    assertEquals("", console.err());
    assertTrue(Files.exists(open), "left open for the next run");
    Crawler.open(TestCrawl.config(data, List.of(), "")).close(); // the next run's opening
    assertTrue(Files.exists(finished), "the next run finishes it");
    assertTrue(console.err().contains("left open by an interrupted run"), console.err());
  }

  /** A mistyped data directory is named as such, and an order kept in the database makes no new one. */
  @Test
  void aDataDirectoryThatDoesNotExistIsSaidSoAndNotMade() throws Exception {
    Path missing = tmp.resolve("no-such-crawl");
    assertEquals(1, ctl(missing, "pause"));
    assertEquals("forager: no data directory " + missing + " (--data-dir names the crawl's data_dir)\n", console.err());
    console.reset();
    assertEquals(1, ctl(missing, "block", "example.org"));
    assertTrue(Files.notExists(missing), "not made by the order");
  }

  /** A negative delay was picocli's "Unknown option: '-1s'"; it is the order's own error now, said without a crawl. */
  @Test
  void aBadDelayIsSaidAsSuchWithoutACrawlToAsk() throws Exception {
    Path data = Files.createDirectories(tmp.resolve("data"));
    assertEquals(2, ctl(data, "set-delay", "https://example.org", "-1s"));
    assertEquals("forager: \"-1s\" is negative; a duration must be ≥ 0\n", console.err());
    console.reset();
    assertEquals(2, ctl(data, "set-delay", "https://example.org", "5x"));
    assertTrue(console.err().startsWith("forager: \"5x\" has an unknown unit \"x\""), console.err());
    console.reset();
    assertEquals(2, ctl(data, "--bogus", "pause"));
    assertTrue(console.err().startsWith("forager: unknown option '--bogus'"), console.err());
    console.reset();
    assertEquals(1, ctl(data, "set-delay", "https://example.org", "default"), "valid: on to the crawl, none runs");
    assertTrue(console.err().startsWith("forager: no crawl is running on "), console.err());
  }

  /**
   * A copy of a running crawl's data directory (a backup) carried its control file: ctl on the copy
   * paused the crawl itself, and status called the copy running (review of session 61).
   */
  @Test
  void aCopyOfARunningCrawlsDataDirectoryNeitherControlsNorPassesForIt() throws Exception {
    Path data = Files.createDirectories(tmp.resolve("data"));
    Path copy = Files.createDirectories(tmp.resolve("copy"));
    ControlToken token = ControlToken.generate();
    try (Crawler crawler = Crawler.open(TestCrawl.config(data, List.of(), ""));
        ControlServer server = ControlServer.start(crawler.control(), token)) {
      ControlFile file = new ControlFile(server.uri(), token.value(), ProcessHandle.current().pid(),
          Instant.EPOCH, Optional.empty());
      file.write(data);
      Files.copy(ControlFile.in(data), ControlFile.in(copy));
      assertEquals(1, ctl(copy, "pause"));
      assertEquals("forager: " + ControlFile.in(copy) + " was written by a crawl of " + data.toRealPath() + ", not of "
          + copy + " (a copy of its data directory?): no crawl runs here\n", console.err());
      assertFalse(crawler.control().state().paused(), "the crawl itself was not paused");
      console.reset();
      assertEquals(0, ctl(data, "pause"), console.err());
      assertTrue(crawler.control().state().paused(), "its own directory still steers it");

      // A crawl whose directory is not in view here (a container's, a mount's under another path) is
      // taken at its word: the file names a directory this machine does not have.
      String moved = Files.readString(ControlFile.in(copy)).replace(data.toRealPath().toString(), "/nonexistent/data");
      Files.writeString(ControlFile.in(copy), moved);
      console.reset();
      assertEquals(0, ctl(copy, "resume"), console.err());
      assertFalse(crawler.control().state().paused());
      // status does not call a crawl running whose process is not the one that wrote the file: one
      // started after the crawl did (its number taken again after a crash) is another process.
      new ControlFile(server.uri(), token.value(), ProcessHandle.current().pid(), Instant.EPOCH, Optional.empty())
          .write(data);
      console.reset();
      assertEquals(0, Main.run("status", "--data-dir", data.toString()), console.err());
      assertFalse(console.out().contains("running"), console.out());
    }
  }

  /**
   * A page failing at the first run (a 500): it waits 2 weeks (the failure back-off) and the next run,
   * the page mended, finds nothing due. {@code ctl retry-failed} makes it due now, between runs (on the
   * database); a host given limits it to that host and those under it.
   */
  @Test
  void retryFailedMakesTheUrlsWhoseRequestFailedDueNow() throws Exception {
    Path data = tmp.resolve("data");
    java.util.concurrent.atomic.AtomicBoolean mended = new java.util.concurrent.atomic.AtomicBoolean();
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\n").route("/", ex -> TestSite.respond(ex, mended.get() ? 200 : 500, "text/html",
          "<p>home</p>"));
      String seed = site.url("/");
      Path config = Files.writeString(tmp.resolve("forager.yaml"), """
          politeness: { min_delay: 10ms, response_time_factor: 0 }
          network: { allow_private_addresses: true }
          limits: { fetch_timeout: 2s, max_retries: 0 }
          """);
      String[] crawl = {"crawl", "--config", config.toString(), "--seed", seed, "--data-dir", data.toString(), "--quiet"};
      Main.run(crawl);
      assertEquals("HTTP_ERROR", TestCrawl.lastOutcome(data, seed));
      mended.set(true);
      Main.run(crawl);
      assertEquals(1, site.count("/"), "the page waits out its back-off");
      console.reset();
      assertEquals(0, ctl(data, "retry-failed", "other.example"), console.err());
      assertTrue(console.out().contains("no URL whose last request failed was waiting out its back-off (of other.example"
          + " and the hosts under it): none made due (no crawl is running: written to its database)"), console.out());
      assertEquals(0, ctl(data, "retry-failed", "127.0.0.1"), console.err());
      assertTrue(console.out().contains("1 URL whose last request failed made due now (of 127.0.0.1"), console.out());
      Main.run(crawl);
      assertEquals(2, site.count("/"), "fetched again");
      assertEquals("FETCHED", TestCrawl.log(data).stream().filter(l -> l.path("url").asText().equals(seed))
          .toList().getLast().get("outcome").asText());
      List<String> orders = TestCrawl.log(data).stream().filter(l -> l.get("kind").asText().equals("control"))
          .map(l -> l.get("action").asText() + " " + l.path("target").asText("-") + " " + l.path("result").asText())
          .toList();
      assertEquals(List.of("retry-failed other.example 0 URLs due now", "retry-failed 127.0.0.1 1 URLs due now"), orders);
    }
  }

  /**
   * A crawl whose pages are not due for a week: {@code ctl recrawl}, between runs, makes every crawled
   * URL due now (of a host when given), and the next run fetches them again, conditionally.
   */
  @Test
  void recrawlMakesEveryCrawledUrlDueNow() throws Exception {
    Path data = tmp.resolve("data");
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\n").linking("/", "/a").html("/a", "<p>a</p>");
      Path config = Files.writeString(tmp.resolve("forager.yaml"), """
          politeness: { min_delay: 10ms, response_time_factor: 0 }
          network: { allow_private_addresses: true }
          recrawl: { interval: 7d }
          sitemaps: { enabled: false }
          """);
      String[] crawl = {"crawl", "--config", config.toString(), "--seed", site.url("/"), "--data-dir", data.toString(), "--quiet"};
      Main.run(crawl);
      Main.run(crawl);
      assertEquals(1, site.count("/a"), "not due for a week");
      console.reset();
      assertEquals(0, ctl(data, "recrawl", "other.example"), console.err());
      assertTrue(console.out().contains("0 crawled URLs made due now (of other.example and the hosts under it)"),
          console.out());
      assertEquals(0, ctl(data, "recrawl"), console.err());
      assertTrue(console.out().contains("2 crawled URLs made due now (no crawl is running: written to its database)"),
          console.out());
      Main.run(crawl);
      assertEquals(2, site.count("/"), "fetched again");
      assertEquals(2, site.count("/a"), "fetched again");
      assertEquals("recrawl", TestCrawl.log(data).stream().filter(l -> l.get("kind").asText().equals("control"))
          .toList().getLast().get("action").asText());
    }
  }

  private static int ctl(Path data, String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "ctl";
    all[1] = "--data-dir";
    all[2] = data.toString();
    System.arraycopy(args, 0, all, 3, args.length);
    return Main.run(all);
  }
}
