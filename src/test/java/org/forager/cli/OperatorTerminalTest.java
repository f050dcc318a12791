package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.forager.store.postgres.TestPostgres;
import org.forager.testweb.ChildCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Site content never reaches the operator's terminal raw (issue 19 item 8): what libraries log goes to
 * {@code logs/library.log}, escaped and rate-limited, and the terminal gets only Forager's own lines.
 * A child process, because logging is set up once per process by {@code main}.
 */
@Timeout(120)
class OperatorTerminalTest {

  private static final String HOSTILE = "\u001b]0;pwned\u0007\u001b[31m\u009b2J";

  @TempDir Path tmp;

  private record Run(int exit, String out, String err, Path data) {}

  private Run crawl(TestSite site) throws Exception {
    return crawl(site, "");
  }

  private Run crawl(TestSite site, String extraYaml) throws Exception {
    Path data = tmp.resolve("data");
    Path config = tmp.resolve("forager.yaml");
    Files.writeString(config, extraYaml + "\ndata_dir: \"" + data + "\"\nseeds: [ \"" + site.url("/") + "\" ]\n"
        + "user_agent: \"TestBot/1.0 (+https://example.org/bot)\"\n"
        + "politeness: { min_delay: 10ms, response_time_factor: 0 }\n"
        + "limits: { max_page_bytes: 16MiB }\n"
        + "network: { allow_private_addresses: true }\nsitemaps: { default_location: false }\n");
    Path out = tmp.resolve("out.txt");
    Path err = tmp.resolve("err.txt");
    Process child = ChildCrawl.builder(config, "--quiet").redirectErrorStream(false)
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertTrue(child.waitFor(90, TimeUnit.SECONDS), "the crawl ended");
    return new Run(child.exitValue(), Files.readString(out), Files.readString(err), data);
  }

  /** No C0 control but newline, no DEL, no C1 control: nothing a terminal would act on. */
  private static void assertPrintable(String what, String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean control = (c < 0x20 && c != '\n') || (c >= 0x7f && c <= 0x9f);
      assertTrue(!control, what + " has control character U+" + Integer.toHexString(c) + " at " + i + ": "
          + text.substring(Math.max(0, i - 40), Math.min(text.length(), i + 40)).replace('\u001b', '~'));
    }
  }

  @Test
  void escapeSequencesInRobotsTxtAndASitemapNeverReachTheTerminal() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\n" + HOSTILE + "retitle: the terminal\nDisallow: /private " + HOSTILE + "\n"
              + "Sitemap: " + site.url("/sitemap.txt") + "\n")
          .route("/sitemap.txt", ex -> TestSite.respond(ex, 200, "text/plain",
              HOSTILE + "not a URL\n" + site.url("/listed") + "\n" + HOSTILE + "\n"))
          .linking("/", "/a").html("/a", "<p>a</p>").html("/listed", "<p>listed</p>");
      Run run = crawl(site);
      assertEquals(0, run.exit(), run.err());
      assertEquals(1, site.count("/listed"), "the sitemap was read");
      assertPrintable("stderr", run.err());
      assertPrintable("stdout", run.out());
      Path libraryLog = run.data().resolve("logs/library.log");
      String logged = Files.readString(libraryLog);
      assertPrintable("logs/library.log", logged);
      // (Lines are trimmed by the parser, so a leading ESC is gone before anyone logs it.)
      assertTrue(logged.contains("Unknown line") && logged.contains("pwned\\x07\\x1b[31m\\x9b2J"),
          "the library's warnings are kept, escaped: " + logged);
    }
  }

  /**
   * Once 49,999 lines on the terminal (crawler-commons' warnings); the streaming sitemap reader now
   * skips bad lines without a word, so the library log has nothing of them either.
   */
  @Test
  void aTextSitemapOf200000BadLinesPrintsNothingAndLogsABoundedNumberOfLines() throws Exception {
    StringBuilder sitemap = new StringBuilder();
    for (int i = 0; i < 200_000; i++) sitemap.append(HOSTILE).append(i).append('\n');
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\nSitemap: " + site.url("/sitemap.txt") + "\n")
          .route("/sitemap.txt", ex -> TestSite.respond(ex, 200, "text/plain", sitemap.toString()))
          .html("/", "<p>home</p>");
      Run run = crawl(site);
      assertEquals(0, run.exit(), run.err());
      assertEquals(1, site.count("/sitemap.txt"));
      assertPrintable("stderr", run.err());
      assertTrue(run.err().lines().count() <= 5, "a few lines of Forager's own at most:\n" + run.err());
      Path libraryLog = run.data().resolve("logs/library.log");
      String logged = Files.exists(libraryLog) ? Files.readString(libraryLog) : "";
      assertPrintable("logs/library.log", logged);
      assertTrue(logged.lines().count() <= 200, logged.lines().count() + " lines in " + libraryLog);
    }
  }

  @Test
  void theConnectionPoolsInfoLinesOfAPostgresRunStayOffTheTerminal() throws Exception {
    try (TestPostgres postgres = TestPostgres.start(tmp.resolve("pg")); TestSite site = TestSite.start()) {
      site.linking("/", "/a").html("/a", "<p>a</p>");
      Run run = crawl(site, "store: { kind: postgres, url: \"" + postgres.freshSchema() + "\" }");
      assertEquals(0, run.exit(), run.err());
      assertEquals(1, site.count("/a"));
      assertEquals("", run.err(), "nothing but Forager's own lines, and it had none to say");
      String logged = Files.readString(run.data().resolve("logs/library.log"));
      assertTrue(logged.contains("INFO com.zaxxer.hikari"), logged);
    }
  }
}
