package org.forager.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.zip.ZipFile;
import org.forager.cli.Main;
import org.forager.testweb.CapturedConsole;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Review 6: defects of the WACZ export found by reading it as a hostile site would. */
@Timeout(120)
class Review6WaczDefectsTest {

  @RegisterExtension final CapturedConsole console = new CapturedConsole();
  @TempDir Path tmp;

  /**
   * WaczPages.addFrom finds a line's JSON at its first '{' (line.indexOf('{')), but the SURT before it
   * may hold one: jwarc's SURT decodes %7B, so a link to /p{1} (crawled as /p%7B1%7D) gives the key
   * "...)/p{1} TIMESTAMP {json}". The JSON parse of "{1} ..." then fails and the whole export with it:
   * one link on a hostile page and no crawl can be packaged.
   */
  @Test
  void aCrawledUrlWithABraceInItsPathDoesNotBreakTheWaczExport() throws Exception {
    Path data = tmp.resolve("data");
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a", "/p{1}");
      site.html("/a", "<html><head><title>A</title></head><body>a</body></html>");
      site.html("/p%7B1%7D", "<html><head><title>Brace</title></head><body>brace</body></html>");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));
      assertEquals(1, site.count("/p%7B1%7D"), "the page was crawled: " + site.paths());
    }
    Path wacz = tmp.resolve("crawl.wacz");
    int status = Main.run("export", "--data-dir", data.toString(), "--format", "wacz", "--output", wacz.toString());
    assertEquals(0, status, console.err());
    try (ZipFile zip = new ZipFile(wacz.toFile())) {
      String pages = new String(zip.getInputStream(zip.getEntry("pages/pages.jsonl")).readAllBytes());
      assertTrue(pages.contains("p%7B1%7D"), pages);
    }
    assertTrue(Files.exists(wacz));
  }

  /**
   * WaczExporter.export and WarcIndexes.write both write through Files.createTempFile, which creates
   * the file with mode 0600, and rename it into place: the .wacz to be handed to a web server for
   * ReplayWeb.page, and the indexes/ pywb is told to serve beside warc/, are unreadable to any other
   * user (the web server's), while the WARC files beside them carry the umask's mode.
   */
  @Test
  void theWaczAndTheIndexesAreAsReadableAsTheWarcFiles() throws Exception {
    Path data = tmp.resolve("data");
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a");
      site.html("/a", "<html><head><title>A</title></head><body>a</body></html>");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), ""));
    }
    Path wacz = tmp.resolve("crawl.wacz");
    assertEquals(0, Main.run("export", "--data-dir", data.toString(), "--format", "wacz", "--output", wacz.toString()),
        console.err());
    Path warc;
    try (var files = Files.list(data.resolve("warc"))) {
      warc = files.filter(f -> f.toString().endsWith(".warc.gz")).findFirst().orElseThrow();
    }
    var warcMode = PosixFilePermissions.toString(Files.getPosixFilePermissions(warc));
    Path index = org.forager.warc.WarcIndexes.indexOf(data.resolve("indexes"), warc);
    assertEquals(warcMode, PosixFilePermissions.toString(Files.getPosixFilePermissions(index)), "the index " + index);
    assertEquals(warcMode, PosixFilePermissions.toString(Files.getPosixFilePermissions(wacz)), "the package");
  }
}
