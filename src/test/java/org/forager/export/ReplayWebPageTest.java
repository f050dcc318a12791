package org.forager.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.forager.cli.Main;
import org.forager.testweb.Chromium;
import org.forager.testweb.NodeTools;
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
    replays("/a", ArchivedSite.PAGE_A_TEXT);
  }

  /** Crawls the archived site, exports its WACZ, and opens {@code path} in ReplayWeb.page: {@code text} must show. */
  private void replays(String path, String text) throws Exception {
    String why = "replay a page of the exported WACZ in ReplayWeb.page";
    Optional<Path> chromium = Chromium.binary();
    Optional<NodeTools> tools = NodeTools.find();
    Optional<Path> replayWebPage = tools.flatMap(NodeTools::replayWebPage);
    if (chromium.isEmpty() || replayWebPage.isEmpty()) {
      String skip = chromium.isEmpty() ? Chromium.notFound(why) : NodeTools.notFound(why);
      System.err.println("ReplayWebPageTest skipped: " + skip);
      Assumptions.abort(skip);
    }

    Path data = tmp.resolve("data");
    String pageUrl;
    try (TestSite site = TestSite.start()) {
      ArchivedSite.crawl(site, data, "");
      pageUrl = site.url(path);
    }
    Path wacz = tmp.resolve("crawl.wacz");
    assertEquals(0, Main.run("export", "--data-dir", data.toString(), "--format", "wacz", "--output", wacz.toString()));
    Path index = Files.writeString(tmp.resolve("index.html"), "<!doctype html><html><head><meta charset=\"utf-8\">"
        + "<script src=\"/ui.js\"></script></head><body><replay-web-page source=\"/crawl.wacz\" url=\"" + pageUrl
        + "\" replayBase=\"/replay/\" embed=\"replayonly\"></replay-web-page></body></html>");
    // The replay frame's page, as the service worker serves it once active: served here too, so a
    // frame that loads before the worker controls it finds it as well.
    Path app = Files.writeString(tmp.resolve("app.html"), "<!doctype html><html><head><script src=\"/ui.js\">"
        + "</script></head><body><replay-app-main></replay-app-main></body></html>");
    Path ui = replayWebPage.get().resolve("ui.js");
    try (StaticFileServer server = StaticFileServer.start(Map.of("/", index, "/index.html", index, "/ui.js", ui,
        "/replay/", app, "/replay/index.html", app, "/replay/ui.js", ui,
        "/replay/sw.js", replayWebPage.get().resolve("sw.js"), "/crawl.wacz", wacz))) {
      NodeTools.Result result = tools.get().runScript(Duration.ofSeconds(120), "replay-check.mjs",
          chromium.get().toString(), server.url("/"), text, "60000");
      assertEquals(0, result.exitCode(), "the replayed page shows its text:\n" + result.stdout() + result.stderr());
      assertTrue(result.stdout().contains("found in frame ") && result.stdout().contains(path), result.stdout());
      // The check itself can fail: a text the archive does not hold is not found.
      NodeTools.Result control = tools.get().runScript(Duration.ofSeconds(60), "replay-check.mjs",
          chromium.get().toString(), server.url("/"), "text that was never crawled", "3000");
      assertEquals(1, control.exitCode(), control.stdout() + control.stderr());
      assertTrue(control.stdout().startsWith("not found;"), control.stdout() + control.stderr());
    }
  }
}
