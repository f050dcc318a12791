package org.forager.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.forager.cli.Main;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.forager.testweb.CapturedConsole;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code forager crawl --status-port N}: where the page is said to be, and a port already taken. */
@Timeout(60)
class StatusCommandLineTest {

  @TempDir Path tmp;

  @RegisterExtension final CapturedConsole console = new CapturedConsole();

  private Path config() throws java.io.IOException {
    return Files.writeString(tmp.resolve("forager.yaml"), """
        user_agent: "TestBot/1.0 (+https://example.org/bot)"
        politeness: { min_delay: 10ms, response_time_factor: 0 }
        network: { allow_private_addresses: true }
        """);
  }

  @Test
  void theCrawlSaysWhereItsStatusPageIs() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\n").linking("/", "/a").linking("/a");
      assertEquals(0, Main.run("crawl", "--config", config().toString(), "--seed", site.url("/"),
          "--data-dir", tmp.resolve("data").toString(), "--quiet", "--status-port", "0"));
      String err = console.err();
      assertTrue(err.matches("(?s).*forager: status page at http://127\\.0\\.0\\.1:\\d+/ \\(metrics at "
          + "http://127\\.0\\.0\\.1:\\d+/metrics\\).*"), err);
      assertTrue(console.out().contains("FETCHED"));
      assertFalse(err.contains("warning"), "loopback is not warned about: " + err);
    }
  }

  @Test
  void aStatusPageOnEveryInterfaceIsWarnedAboutInOneLine() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\n").linking("/");
      Path config = Files.writeString(tmp.resolve("open.yaml"), """
          user_agent: "TestBot/1.0 (+https://example.org/bot)"
          politeness: { min_delay: 10ms, response_time_factor: 0 }
          network: { allow_private_addresses: true }
          status: { bind: 0.0.0.0 }
          """);
      assertEquals(0, Main.run("crawl", "--config", config.toString(), "--seed", site.url("/"),
          "--data-dir", tmp.resolve("data").toString(), "--quiet", "--status-port", "0"));
      List<String> warnings = console.err().lines().filter(l -> l.startsWith("forager: warning: ")).toList();
      assertEquals(1, warnings.size(), console.err());
      assertTrue(warnings.get(0).matches("forager: warning: the status page listens on every network interface "
          + "\\(0\\.0\\.0\\.0\\), port \\d+, not on loopback: anyone who can reach that address can read the crawl's "
          + "URLs, errors and metrics \\(there is no authentication; see status.bind\\)"), warnings.get(0));
    }
  }

  @Test
  void aPortAlreadyTakenIsAUsageErrorBeforeAnythingIsFetched() throws Exception {
    try (TestSite site = TestSite.start(); StatusServer taken = StatusServer.start("127.0.0.1", 0)) {
      site.linking("/");
      int port = taken.uri().getPort();
      assertEquals(2, Main.run("crawl", "--config", config().toString(), "--seed", site.url("/"),
          "--data-dir", tmp.resolve("data").toString(), "--quiet", "--status-port", String.valueOf(port)));
      String err = console.err();
      assertTrue(err.startsWith("forager: cannot serve the status page on 127.0.0.1:" + port + ": "), err);
      assertEquals(0, site.requests().size(), "nothing fetched");
    }
  }
}
