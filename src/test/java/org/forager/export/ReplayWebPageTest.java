package org.forager.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipFile;
import org.forager.cli.Main;
import org.forager.testweb.Chromium;
import org.forager.testweb.NodeTools;
import org.forager.testweb.RawSite;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page of a test crawl, opened through the exported WACZ in ReplayWeb.page (its npm package's
 * {@code ui.js} and service worker {@code sw.js}) in headless Chromium driven by playwright-core,
 * all served from loopback, shows its text. The crawled site is shut down first: the text can
 * only come from the package. Chromium resolves no host name but loopback's, so the replay cannot
 * reach out. Skipped, with a line saying so, without Chromium or the npm tools.
 */
@Timeout(180)
class ReplayWebPageTest {

  @TempDir Path tmp;

  @Test
  void aCrawledPageReplaysFromTheWaczInReplayWebPage() throws Exception {
    replays("/a", ArchivedSite.PAGE_A_TEXT, false);
  }

  /**
   * A page the second crawl found unchanged (a 304: its latest capture a server-not-modified revisit)
   * replays, as that capture, with the body of the capture before it: ReplayWeb.page finds that
   * capture by the revisit's WARC-Refers-To-Target-URI, which the revisit once lacked ("Archived Page
   * Not Found"). The revisit's line in the package's index has no status: with the 304 there,
   * ReplayWeb.page answered the frame with an empty 304 and showed nothing. That passed unseen while
   * both captures fell in one second, the revisit then dropped as the response's duplicate
   * (ArchivedSite now runs the crawls in different seconds).
   */
  @Test
  void aPageRecrawledUnchangedReplaysThroughItsRevisit() throws Exception {
    replays("/etag", ArchivedSite.PAGE_ETAG_TEXT, true);
  }

  /**
   * A page its server sent {@code Transfer-Encoding: gzip, chunked} replays as the page: its record
   * holds it transfer-decoded, with no coding left in its head for a replay to undo (it was once kept
   * as gzip bytes, which a replay would have served as the page).
   */
  @Test
  void aPageSentWithAGzipTransferCodingReplaysAsThePage() throws Exception {
    String text = "A page its server sent gzipped as a transfer coding";
    String page = "<!doctype html><html><head><title>Transfer-coded</title></head><body><p>" + text + "</p></body></html>";
    Replay replay = replay("replay a transfer-coded page of the exported WACZ in ReplayWeb.page");
    Path data = tmp.resolve("data");
    String pageUrl;
    try (RawSite site = RawSite.start(Map.of(
        "/robots.txt", RawSite.html(""),
        "/", RawSite.chunked("Transfer-Encoding: gzip, chunked", gzip(page))))) {
      TestCrawl.run(TestCrawl.config(data, List.of(site.origin() + "/"), ""));
      pageUrl = site.origin() + "/";
    }
    shows(replay, data, pageUrl, "/", text, false);
  }

  /**
   * Crawls the archived site, exports its WACZ, and opens {@code path} in ReplayWeb.page: {@code text}
   * must show; with {@code asRevisit}, in the frame of the page's revisit capture (its timestamp).
   */
  private void replays(String path, String text, boolean asRevisit) throws Exception {
    Replay replay = replay("replay a page of the exported WACZ in ReplayWeb.page");
    Path data = tmp.resolve("data");
    String pageUrl;
    try (TestSite site = TestSite.start()) {
      ArchivedSite.crawl(site, data, "");
      pageUrl = site.url(path);
    }
    shows(replay, data, pageUrl, path, text, asRevisit);
  }

  /** Chromium and the npm tools; skips the test (saying what it would have done) without them. */
  private Replay replay(String why) {
    Optional<Path> chromium = Chromium.binary();
    Optional<NodeTools> tools = NodeTools.find();
    Optional<Path> replayWebPage = tools.flatMap(NodeTools::replayWebPage);
    if (chromium.isEmpty() || replayWebPage.isEmpty()) {
      String skip = chromium.isEmpty() ? Chromium.notFound(why) : NodeTools.notFound(why);
      System.err.println("ReplayWebPageTest skipped: " + skip);
      Assumptions.abort(skip);
    }
    return new Replay(chromium.get(), tools.get(), replayWebPage.get());
  }

  private record Replay(Path chromium, NodeTools tools, Path replayWebPage) {}

  /**
   * Exports the WACZ of the crawl in {@code data} and opens {@code pageUrl} in ReplayWeb.page: {@code
   * text} must show in the frame of {@code path}; with {@code asRevisit}, in the frame of the page's
   * revisit capture (its timestamp).
   */
  private void shows(Replay replay, Path data, String pageUrl, String path, String text, boolean asRevisit)
      throws Exception {
    Path wacz = tmp.resolve("crawl.wacz");
    assertEquals(0, Main.run("export", "--data-dir", data.toString(), "--format", "wacz", "--output", wacz.toString()));
    Path index = Files.writeString(tmp.resolve("index.html"), "<!doctype html><html><head><meta charset=\"utf-8\">"
        + "<script src=\"/ui.js\"></script></head><body><replay-web-page source=\"/crawl.wacz\" url=\"" + pageUrl
        + "\" replayBase=\"/replay/\" embed=\"replayonly\"></replay-web-page></body></html>");
    // The replay frame's page, as the service worker serves it once active: served here too, so a
    // frame that loads before the worker controls it finds it as well.
    Path app = Files.writeString(tmp.resolve("app.html"), "<!doctype html><html><head><script src=\"/ui.js\">"
        + "</script></head><body><replay-app-main></replay-app-main></body></html>");
    Path ui = replay.replayWebPage().resolve("ui.js");
    try (StaticFileServer server = StaticFileServer.start(Map.of("/", index, "/index.html", index, "/ui.js", ui,
        "/replay/", app, "/replay/index.html", app, "/replay/ui.js", ui,
        "/replay/sw.js", replay.replayWebPage().resolve("sw.js"), "/crawl.wacz", wacz))) {
      NodeTools.Result result = replay.tools().runScript(Duration.ofSeconds(120), "replay-check.mjs",
          replay.chromium().toString(), server.url("/"), text, "60000");
      assertEquals(0, result.exitCode(), "the replayed page shows its text:\n" + result.stdout() + result.stderr());
      assertTrue(result.stdout().contains("found in frame ") && result.stdout().contains(path), result.stdout());
      if (asRevisit) {
        // The frame's URL names the capture shown: the revisit's timestamp, not the response's.
        String revisit = captureTimestamp(wacz, pageUrl, true);
        assertTrue(!revisit.equals(captureTimestamp(wacz, pageUrl, false)), "the two captures in one second");
        assertTrue(result.stdout().contains("/" + revisit + "mp_/" + pageUrl), revisit + " " + result.stdout());
      }
      // The check itself can fail: a text the archive does not hold is not found.
      NodeTools.Result control = replay.tools().runScript(Duration.ofSeconds(60), "replay-check.mjs",
          replay.chromium().toString(), server.url("/"), "text that was never crawled", "3000");
      assertEquals(1, control.exitCode(), control.stdout() + control.stderr());
      assertTrue(control.stdout().startsWith("not found;"), control.stdout() + control.stderr());
    }
  }

  private static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }

  /** The CDXJ timestamp of {@code url}'s revisit line in the package's index, or of its other line. */
  private static String captureTimestamp(Path wacz, String url, boolean revisit) throws IOException {
    try (ZipFile zip = new ZipFile(wacz.toFile())) {
      String index = new String(zip.getInputStream(zip.getEntry("indexes/index.cdx")).readAllBytes(), StandardCharsets.UTF_8);
      List<String> lines = index.lines()
          .filter(l -> l.contains("{\"url\":\"" + url + "\",") && l.contains("\"mime\":\"warc/revisit\"") == revisit)
          .toList();
      assertEquals(1, lines.size(), index);
      return lines.get(0).split(" ")[1];
    }
  }
}
