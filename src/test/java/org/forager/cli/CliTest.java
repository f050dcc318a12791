package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.forager.testweb.CapturedConsole;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The command line as users call it: exit codes, messages, the summary and the export. */
@Timeout(60)
class CliTest {

  @TempDir Path tmp;

  @RegisterExtension final CapturedConsole console = new CapturedConsole();



  @Test
  void helpExplainsTheCommands() {
    assertEquals(0, Main.run("--help"));
    assertTrue(console.out().contains("crawl") && console.out().contains("export"), console.out());
    assertEquals(0, Main.run("crawl", "--help"));
    assertTrue(console.out().contains("--max-actions"));
  }

  @Test
  void noCommandNamesEveryCommand() {
    assertEquals(2, Main.run(new String[0]));
    assertTrue(console.err().startsWith("forager: missing command: crawl, export, audit, status or ctl"), console.err());
  }

  @Test
  void everyCommandSaysItsVersion() {
    assertEquals(0, Main.run("--version"));
    String version = console.out().strip();
    assertTrue(version.startsWith("forager "), version);
    for (String command : List.of("crawl", "export", "audit", "status", "ctl")) {
      assertEquals(0, Main.run(command, "--version"), command);
    }
    assertEquals(6, console.out().lines().filter(version::equals).count(), console.out());
  }

  /** A directory holding no crawl is bad usage for every reading command, one line saying what is missing. */
  @Test
  void statusAndExportOfADirectoryHoldingNoCrawlSaySoInOneLine() throws Exception {
    java.nio.file.Path empty = java.nio.file.Files.createDirectories(tmp.resolve("empty"));
    assertEquals(2, Main.run("status", "--data-dir", empty.toString()));
    assertEquals("forager: " + empty + " holds no crawl (no " + empty.resolve("store") + ")\n", console.err());
    java.nio.file.Files.createDirectories(empty.resolve("store")); // a crawl that died before its store began
    console.reset();
    assertEquals(2, Main.run("export", "--data-dir", empty.toString()));
    assertEquals("forager: " + empty + " holds no crawl (no " + empty.resolve("store/CURRENT") + ")\n", console.err());
  }

  /**
   * A crawl with URLs due and no origin active: status names the origins given up, which is why
   * (an operator's review, session 61).
   */
  @Test
  void statusNamesTheOriginsGivenUp() throws Exception {
    try (TestSite site = TestSite.start()) {
      String[] links = new String[10];
      for (int i = 0; i < links.length; i++) {
        links[i] = "/broken" + i;
        site.route(links[i], ex -> TestSite.respond(ex, 500, "text/plain", "boom"));
      }
      site.linking("/", links);
      java.nio.file.Path config = java.nio.file.Files.writeString(tmp.resolve("c.yaml"),
          "network: { allow_private_addresses: true }\npoliteness: { min_delay: 10ms, response_time_factor: 0 }\n"
              + "limits: { max_retries: 0 }\n");
      String data = tmp.resolve("d").toString();
      assertEquals(0, Main.run("crawl", "--config", config.toString(), "--seed", site.url("/"), "--data-dir", data,
          "--quiet"));
      console.reset();
      assertEquals(0, Main.run("status", "--data-dir", data));
      assertTrue(console.out().contains("\norigins given up             1 (in their last run: out of patience"),
          console.out());
      assertTrue(console.out().contains("\n  " + site.origin() + "\n"), console.out());
    }
  }

  @Test
  void aLoopbackSeedRefusedByTheNetworkPolicyNamesTheSettingThatAllowsIt() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.html("/", "<p>here</p>");
      assertEquals(0, Main.run("crawl", "--seed", site.url("/"), "--data-dir", tmp.resolve("d").toString()));
      // The origin's first request, its robots.txt, was refused: no page was asked for.
      assertTrue(console.out().contains("robots.txt                   1: 1 refused before the request\n"), console.out());
      assertTrue(console.out().contains("note: 1 URL not requested: its host resolves only to loopback, private or "
          + "other non-public addresses, which the network policy refuses (network.allow_private_addresses: true "
          + "allows them"), console.out());
      assertEquals(0, site.count("/robots.txt"), "nothing was sent");
    }
  }

  /**
   * A resume naming only the data directory runs with the last run's --config: with the defaults it sent
   * another user agent and, without the run's network.resolve, pushed every page back by its DNS failures.
   */
  @Test
  void aResumeNamingOnlyTheDataDirectoryUsesTheLastRunsConfig() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a", "/b").html("/a", "<p>a</p>").html("/b", "<p>b</p>");
      String seed = "http://pinned.test:" + site.port() + "/";
      Path config = Files.writeString(tmp.resolve("c.yaml"), "seeds: [ \"" + seed + "\" ]\nuser_agent: \"TestBot/1.0 (+https://example.org/bot)\"\n"
          + "network: { allow_private_addresses: true, resolve: { pinned.test: 127.0.0.1 } }\n"
          + "politeness: { min_delay: 10ms, response_time_factor: 0 }\nsitemaps: { default_location: false }\n");
      String data = tmp.resolve("d").toString();
      assertEquals(0, Main.run("crawl", "--config", config.toString(), "--data-dir", data, "--max-actions", "2", "--quiet"));
      assertEquals(List.of("/robots.txt", "/"), site.paths());
      console.reset();

      assertEquals(0, Main.run("crawl", "--data-dir", data, "--quiet"));
      assertEquals("forager: with the configuration of the crawl's last run, " + config.toAbsolutePath()
          + " (--config names another)\n", console.err());
      assertTrue(site.paths().containsAll(List.of("/a", "/b")), "resumed through the pinned name: " + site.paths());

      Files.move(config, tmp.resolve("moved.yaml"));
      console.reset();
      assertEquals(2, Main.run("crawl", "--data-dir", data, "--quiet"));
      assertEquals("forager: the last run of the crawl in " + data + " used --config " + config.toAbsolutePath()
          + ", which cannot be read now: give --config FILE to resume (or delete " + Path.of(data, "last-run-config.txt")
          + " to resume with the defaults)\n", console.err());
    }
  }

  /**
   * The audit judges the per-IP limits the crawl ran with (its last run's --config, or --config), not the
   * defaults: a crawl allowed two requests in flight per address is no violation at two.
   */
  @Test
  void auditTakesThePerIpLimitsFromTheCrawlsConfiguration() throws Exception {
    Path data = tmp.resolve("d");
    Files.createDirectories(data.resolve("logs"));
    String line = "{\"ts\":\"%s\",\"kind\":\"%s\",\"url\":\"%s\",\"outcome\":\"%s\",\"http_status\":%d,"
        + "\"duration_ms\":100,\"delay_ms\":10%s}";
    String sent = ",\"ip\":\"192.0.2.1\"";
    Files.write(data.resolve("logs/crawl.jsonl"), List.of(
        line.formatted("2026-11-21T00:00:00.000Z", "robots", "http://a.example/robots.txt", "FETCHED", 200, sent),
        line.formatted("2026-11-21T00:00:00.050Z", "robots", "http://b.example/robots.txt", "FETCHED", 200, sent),
        line.formatted("2026-11-21T00:00:01.000Z", "page", "http://a.example/", "FETCHED", 200, sent),
        line.formatted("2026-11-21T00:00:01.050Z", "page", "http://c.example/", "OUT_OF_SCOPE", 0, "")));
    Path config = Files.writeString(tmp.resolve("c.yaml"), "politeness: { per_ip: { max_in_flight: 2 } }\n");
    Files.writeString(data.resolve(LastRunConfig.FILE_NAME), config.toAbsolutePath() + "\n");

    assertEquals(0, Main.run("audit", "--data-dir", data.toString()), console.out());
    assertTrue(console.out().contains("POLITE: 3 requests to 2 origins in 4 log lines, 0 violations (per-IP limits: 2 in"
        + " flight, 0 ms apart)"), console.out());
    assertTrue(console.out().matches("(?s).*\\Rhttp://b\\.example +1 +1 +0 +- +1\\R.*"), "no gap to show: " + console.out());
    console.reset();
    assertEquals(3, Main.run("audit", "--data-dir", data.toString(), "--per-ip-max-in-flight", "1"), console.out());
    assertTrue(console.out().contains("NOT POLITE: 3 requests to 2 origins"), console.out());

    // The configuration gone: the audit says what it cannot check, the per-IP limits and the domain units.
    Files.delete(config);
    console.reset();
    assertEquals(3, Main.run("audit", "--data-dir", data.toString()), console.out());
    assertTrue(console.out().contains("note: the crawl's last run used --config " + config.toAbsolutePath()
        + ", which cannot be read now: the per-IP limits are the defaults unless given"), console.out());
    assertTrue(console.out().contains("domains its sites rules made one unit are not checked as one"), console.out());
  }

  @Test
  void badConfigExitsWithTwoAndOneLineNamingTheKey() throws Exception {
    Path config = tmp.resolve("bad.yaml");
    Files.writeString(config, "politeness:\n  min_delay: fast\n");
    assertEquals(2, Main.run("crawl", "--config", config.toString(), "--seed", "https://example.org/"));
    String message = console.err().strip();
    assertEquals(1, message.lines().count(), message);
    assertTrue(message.startsWith("forager: ") && message.contains("politeness.min_delay"), message);
  }

  /** A do_not_crawl_file that cannot serve is bad configuration: exit 2, one line, no data directory made. */
  @Test
  void aBadExclusionFileIsAUsageErrorBeforeTheDataDirectoryIsMade() throws Exception {
    Path missing = tmp.resolve("none.txt");
    Path data = tmp.resolve("d");
    Path config = Files.writeString(tmp.resolve("c.yaml"), "do_not_crawl_file: \"" + missing + "\"\n");
    assertEquals(2, Main.run("crawl", "--config", config.toString(), "--seed", "https://example.org/",
        "--data-dir", data.toString()));
    assertEquals("forager: do_not_crawl_file " + missing + " cannot be read: no such file or directory\n", console.err());
    Files.writeString(missing, "example.net\nhttp//bad line here\n");
    console.reset();
    assertEquals(2, Main.run("crawl", "--config", config.toString(), "--seed", "https://example.org/",
        "--data-dir", data.toString()));
    assertEquals("forager: do_not_crawl_file " + missing + " line 2: \"http//bad line here\" is not a host name, a domain"
        + " or an http(s) URL prefix\n", console.err());
    assertTrue(Files.notExists(data), "no data directory for a run that never started");
  }

  @Test
  void unknownOptionAndMissingSeedsAreUsageErrors() throws Exception {
    assertEquals(2, Main.run("crawl", "--no-such-flag"));
    assertEquals("forager: Unknown option: '--no-such-flag' (see 'forager crawl --help')\n", console.err(), "one line");
    console.reset();
    assertEquals(2, Main.run("crawl", "--seed-file", "seeds.txt"));
    assertTrue(console.err().contains("; did you mean ") && console.err().contains("--seeds-file"), console.err());
    assertEquals(1, console.err().lines().count(), console.err());
    console.reset();
    assertEquals(2, Main.run("crawl", "https://example.org/"));
    assertEquals("forager: Unmatched argument at index 1: 'https://example.org/'; a seed is given as --seed URL (or"
        + " --seeds-file FILE) (see 'forager crawl --help')\n", console.err(), "the way to give a seed");
    console.reset();
    Path file = Files.writeString(tmp.resolve("afile"), "");
    assertEquals(2, Main.run("crawl", "--seed", "https://example.org/", "--data-dir", file.toString()));
    assertEquals("forager: the data directory " + file + " is a file, not a directory (--data-dir, data_dir)\n",
        console.err());
    assertEquals(2, Main.run("crawl", "--data-dir", tmp.resolve("empty").toString()));
    assertTrue(console.err().contains("no seeds"), console.err());
    assertEquals(2, Main.run("crawl", "--seed", "ftp://example.org/", "--data-dir", tmp.resolve("d").toString()));
    assertEquals(2, Main.run("export", "--data-dir", tmp.resolve("nothing-here").toString()));
  }

  @Test
  void crawlPrintsASummaryAndExportWritesEveryKnownUrl() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\nDisallow: /no\n").linking("/", "/a", "/no").html("/a", "<p>a</p>");
      Path data = tmp.resolve("data");
      Path config = tmp.resolve("forager.yaml");
      Files.writeString(config, """
          politeness: { min_delay: 10ms }
          network: { allow_private_addresses: true }
          """);
      assertEquals(0, Main.run("crawl", "--config", config.toString(), "--seed", site.url("/"),
          "--data-dir", data.toString(), "--max-actions", "100"));
      assertTrue(console.out().contains("FETCHED"), console.out());
      assertTrue(console.out().contains("BLOCKED_BY_ROBOTS_TXT"), console.out());
      // No user_agent set: site owners' complaints would reach the project's page, not whoever crawls.
      assertTrue(console.err().contains("forager: warning: crawling as the default user agent \"ForagerBot/0.1"
          + " (+https://github.com/forager-crawler/forager)\": set user_agent to your crawler's name and a page or"
          + " address where site owners can reach you\n"), console.err());
      // The summary names what compressed the WARC (ISA-L, libdeflate or zlib, by what the system has).
      String engine = "\\((ISA-L igzip level 0, Huffman tables fitted to the records|libdeflate|the JDK's zlib)\\)";
      assertTrue(console.out().matches("(?s).*\\RWARC +gzip level 1 " + engine + "\\R.*"), console.out());

      Path export = tmp.resolve("export.jsonl");
      assertEquals(0, Main.run("export", "--data-dir", data.toString(), "--output", export.toString()));
      ObjectMapper json = new ObjectMapper();
      Map<String, JsonNode> byUrl = new HashMap<>();
      for (String line : Files.readAllLines(export)) {
        assertTrue(line.startsWith("{") && line.endsWith("}"), "one bare JSON object per line: " + line);
        JsonNode node = json.readTree(line);
        byUrl.put(node.get("url").asText(), node);
      }
      assertEquals(3, byUrl.size());
      JsonNode a = byUrl.get(site.url("/a"));
      for (String field : List.of("url", "origin", "state", "last_outcome", "http_status", "fetched_at",
          "content_type", "content_length", "digest", "redirect_to", "canonical", "noindex", "nofollow",
          "discovered_from", "depth", "next_fetch_at", "etag", "last_modified", "fetch_count", "duplicate_of",
          "near_duplicate_of", "change_count", "last_change")) {
        assertTrue(a.has(field), "export has " + field);
      }
      assertEquals("fetched", a.get("state").asText());
      assertEquals("FETCHED", a.get("last_outcome").asText());
      assertEquals(200, a.get("http_status").asInt());
      assertEquals(site.url("/"), a.get("discovered_from").asText());
      assertEquals(1, a.get("depth").asInt());
      assertEquals(site.origin(), a.get("origin").asText());
      assertTrue(a.get("digest").asText().startsWith("sha1:"));
      assertTrue(a.get("duplicate_of").isNull());
      assertTrue(a.get("near_duplicate_of").isNull());
      assertEquals(0, a.get("change_count").asInt(), "a first fetch is no change");
      assertTrue(a.get("last_change").isNull());
      assertEquals("blocked", byUrl.get(site.url("/no")).get("state").asText());

      assertEquals(0, Main.run("status", "--data-dir", data.toString()));
      assertTrue(console.out().matches("(?s).*known URLs +3\\R.*"), console.out());
      assertTrue(console.out().matches("(?s).*  blocked +1\\R.*  fetched +2\\R.*"), console.out());
      assertTrue(console.out().matches("(?s).*origins in scope +1 \\(1 of the seeds, 0 taken on while crawling\\)\\R.*"),
          console.out());
      assertTrue(console.out().contains("mode=origins"), console.out());

      assertEquals(0, Main.run("audit", "--data-dir", data.toString()));
      assertTrue(console.out().contains("POLITE: 4 requests to 1 origins"), console.out()); // robots.txt, /sitemap.xml, 2 pages
      Files.writeString(data.resolve("logs/crawl.jsonl"), Files.readString(data.resolve("logs/crawl.jsonl"))
          .replace("\"kind\":\"robots\"", "\"kind\":\"page\""));
      assertEquals(3, Main.run("audit", "--data-dir", data.toString()), "a page before robots.txt");
      assertTrue(console.out().contains("NOT POLITE"), console.out());
      assertEquals(0, byUrl.get(site.url("/")).get("depth").asInt());
    }
  }
}
