package org.forager.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.forager.cli.Main;
import org.forager.testweb.CapturedConsole;
import org.forager.testweb.NodeTools;
import org.forager.testweb.TestSite;
import org.forager.warc.WarcIndexes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forager's CDXJ indexes and WACZ package against independent implementations (npm packages
 * installed by {@code src/test/npm/install}; skipped with a line saying so without them): warcio's
 * {@code cdx-index} of the same WARC files must give the same lines, offsets included; js-wacz
 * packaging the same WARC files must find the same index lines (but for the status Forager's package
 * leaves out of a 304's revisit) and no page Forager does not list,
 * and must take Forager's pages file and index as they are (it checks a pages file's header and
 * entries, and skips one it finds wrong).
 */
@Timeout(180)
class WaczIndependentToolsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TOOL_TIME = Duration.ofSeconds(60);

  @RegisterExtension final CapturedConsole console = new CapturedConsole();
  @TempDir Path tmp;
  private static NodeTools tools;
  private Path data;
  private ZipFile ours;

  @BeforeAll
  static void findTools() {
    String why = NodeTools.notFound("check indexes and packages with warcio and js-wacz");
    var found = NodeTools.find();
    if (found.isEmpty()) System.err.println("WaczIndependentToolsTest skipped: " + why);
    Assumptions.assumeTrue(found.isPresent(), why);
    tools = found.get();
  }

  @BeforeEach
  void crawlAndPackage() throws Exception {
    data = tmp.resolve("data");
    try (TestSite site = TestSite.start()) {
      ArchivedSite.crawl(site, data, "");
    }
    Path wacz = tmp.resolve("forager.wacz");
    assertEquals(0, Main.run("export", "--data-dir", data.toString(), "--format", "wacz", "--output", wacz.toString()),
        console.err());
    ours = new ZipFile(wacz.toFile());
  }

  @AfterEach
  void closePackage() throws IOException {
    if (ours != null) ours.close();
  }

  @Test
  void warcioIndexesEachWarcFileLineForLineAsForagerDid() throws Exception {
    for (Path warc : warcFiles()) {
      NodeTools.Result result = tools.runBin(TOOL_TIME, "warcio", "cdx-index", warc.toString());
      assertEquals(0, result.exitCode(), result.stderr());
      List<String> warcio = result.stdout().lines().filter(l -> !l.isBlank()).sorted().toList();
      assertTrue(warcio.size() >= 5, result.stdout());
      assertEquals(warcio, Files.readAllLines(WarcIndexes.indexOf(data.resolve("indexes"), warc)), warc.toString());
    }
  }

  @Test
  void jsWaczFindsTheSameIndexLinesAndPagesInTheSameWarcFiles() throws Exception {
    Path theirs = tmp.resolve("js-wacz.wacz");
    NodeTools.Result result = tools.runBin(TOOL_TIME, "js-wacz", "create", "--log-level", "error",
        "-f", data.resolve("warc").toAbsolutePath() + "/*.warc.gz", "-o", theirs.toString());
    assertEquals(0, result.exitCode(), result.stdout() + result.stderr());
    try (ZipFile zip = new ZipFile(theirs.toFile())) {
      // The same lines but one: Forager's package leaves the 304's status out of its revisit's line
      // (IndexMerge.forReplay), for ReplayWeb.page to replay it.
      List<String> theirIndex = text(zip, "indexes/index.cdx").lines().sorted().toList();
      assertTrue(theirIndex.stream().anyMatch(l -> l.contains("\"mime\":\"warc/revisit\",\"status\":\"304\"")), theirIndex.toString());
      assertEquals(theirIndex.stream().map(IndexMerge::forReplay).toList(), text(ours, "indexes/index.cdx").lines().toList());
      // js-wacz's page detection is narrower (it skips documents whose body has no element):
      // every page it finds must be listed by Forager too, with the same title.
      Map<String, String> theirPages = pages(text(zip, "pages/pages.jsonl"));
      Map<String, String> ourPages = pages(text(ours, "pages/pages.jsonl"));
      assertTrue(theirPages.size() >= 3, theirPages.toString());
      for (var page : theirPages.entrySet()) assertEquals(page.getValue(), ourPages.get(page.getKey()), page.getKey());
    }
  }

  @Test
  void jsWaczTakesForagersPagesFileAndIndexAsTheyAre() throws Exception {
    Path pagesDir = Files.createDirectories(tmp.resolve("pages"));
    Path cdxjDir = Files.createDirectories(tmp.resolve("cdxj"));
    Files.writeString(pagesDir.resolve("pages.jsonl"), text(ours, "pages/pages.jsonl"));
    Files.writeString(cdxjDir.resolve("index.cdxj"), text(ours, "indexes/index.cdx"));
    Path theirs = tmp.resolve("js-wacz.wacz");
    NodeTools.Result result = tools.runBin(TOOL_TIME, "js-wacz", "create", "--log-level", "warn",
        "-f", data.resolve("warc").toAbsolutePath() + "/*.warc.gz", "-o", theirs.toString(),
        "--pages", pagesDir.toString(), "--cdxj", cdxjDir.toString());
    assertEquals(0, result.exitCode(), result.stdout() + result.stderr());
    assertTrue(!result.stdout().contains("Skipping") && !result.stderr().contains("Skipping"), result.stdout() + result.stderr());
    try (ZipFile zip = new ZipFile(theirs.toFile())) {
      assertEquals(text(ours, "pages/pages.jsonl"), text(zip, "pages/pages.jsonl"));
      assertEquals(text(ours, "indexes/index.cdx").lines().toList(), text(zip, "indexes/index.cdx").lines().toList());
    }
  }

  /** Page URL and time (as an instant: the two spell milliseconds differently) to title, or URL when none. */
  private static Map<String, String> pages(String jsonl) throws IOException {
    Map<String, String> pages = new TreeMap<>();
    for (String line : jsonl.lines().skip(1).toList()) {
      JsonNode page = JSON.readTree(line);
      String url = page.get("url").asText();
      // js-wacz gives a page without a title its URL as title.
      String title = page.has("title") ? page.get("title").asText() : url;
      pages.put(url + " " + Instant.parse(page.get("ts").asText()), title);
    }
    return pages;
  }

  private List<Path> warcFiles() throws IOException {
    try (Stream<Path> files = Files.list(data.resolve("warc"))) {
      return new ArrayList<>(files.sorted().toList());
    }
  }

  private static String text(ZipFile zip, String name) throws IOException {
    return new String(zip.getInputStream(zip.getEntry(name)).readAllBytes(), StandardCharsets.UTF_8);
  }
}
