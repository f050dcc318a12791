package org.forager.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.forager.cli.Main;
import org.forager.testweb.CapturedConsole;
import org.forager.testweb.TestSite;
import org.forager.warc.WarcIndexes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;

/**
 * {@code forager export --format wacz} after a real crawl: the package's layout, manifest, index
 * and pages, read back with java.util.zip and jwarc.
 */
@Timeout(120)
class WaczExportTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension final CapturedConsole console = new CapturedConsole();
  @TempDir Path tmp;

  /** The archived site crawled (twice) into {@code data} under the temporary directory, with {@code extraYaml}. */
  private Path crawled(String extraYaml) throws Exception {
    Path data = tmp.resolve("data");
    try (TestSite site = TestSite.start()) {
      ArchivedSite.crawl(site, data, extraYaml);
    }
    return data;
  }

  @Test
  void thePackageHoldsTheWarcFilesStoredWithTheirMergedIndexPagesAndAManifestThatMatches() throws Exception {
    Path data = tmp.resolve("data");
    try (TestSite site = TestSite.start()) {
      ArchivedSite.crawl(site, data, "");
      Path wacz = tmp.resolve("crawl.wacz");
      assertEquals(0, Main.run("export", "--data-dir", data.toString(), "--format", "wacz", "--output", wacz.toString()),
          console.err());
      assertTrue(console.err().contains("forager: packaged 2 WARC files"), console.err());

      try (ZipFile zip = new ZipFile(wacz.toFile())) {
        List<Path> warcs = warcFiles(data);
        assertEquals(2, warcs.size(), "one WARC file per run");
        List<String> names = zip.stream().map(ZipEntry::getName).toList();
        List<String> expectedNames = new ArrayList<>(warcs.stream().map(w -> "archive/" + w.getFileName()).toList());
        expectedNames.addAll(List.of("indexes/index.cdx", "pages/pages.jsonl", "datapackage.json", "datapackage-digest.json"));
        assertEquals(expectedNames, names);
        for (Path warc : warcs) {
          ZipEntry entry = zip.getEntry("archive/" + warc.getFileName());
          assertEquals(ZipEntry.STORED, entry.getMethod(), "WARC files stored, for range reads");
          assertTrue(java.util.Arrays.equals(Files.readAllBytes(warc), zip.getInputStream(entry).readAllBytes()));
        }

        JsonNode manifest = JSON.readTree(zip.getInputStream(zip.getEntry("datapackage.json")));
        assertEquals("data-package", manifest.get("profile").asText());
        assertEquals("1.1.1", manifest.get("wacz_version").asText());
        assertTrue(manifest.get("software").asText().startsWith("Forager/"));
        assertEquals(site.url("/"), manifest.get("mainPageUrl").asText(), "the seed is the first page");
        Map<String, JsonNode> resources = new LinkedHashMap<>();
        for (JsonNode r : manifest.get("resources")) resources.put(r.get("path").asText(), r);
        assertEquals(expectedNames.subList(0, expectedNames.size() - 2), List.copyOf(resources.keySet()));
        for (JsonNode r : resources.values()) {
          byte[] content = zip.getInputStream(zip.getEntry(r.get("path").asText())).readAllBytes();
          assertEquals(content.length, r.get("bytes").asLong(), r.toString());
          assertEquals(sha256(content), r.get("hash").asText(), r.toString());
          assertEquals(r.get("path").asText().substring(r.get("path").asText().lastIndexOf('/') + 1), r.get("name").asText());
        }
        JsonNode digest = JSON.readTree(zip.getInputStream(zip.getEntry("datapackage-digest.json")));
        assertEquals("datapackage.json", digest.get("path").asText());
        assertEquals(sha256(zip.getInputStream(zip.getEntry("datapackage.json")).readAllBytes()), digest.get("hash").asText());

        List<String> index = lines(zip, "indexes/index.cdx");
        List<String> perFile = new ArrayList<>();
        for (Path warc : warcs) perFile.addAll(Files.readAllLines(WarcIndexes.indexOf(data.resolve("indexes"), warc)));
        assertEquals(perFile.stream().sorted().map(IndexMerge::forReplay).toList(), index,
            "the merge of the files' indexes, sorted, a 304's revisit without its status");
        assertEqualsEveryLinePointsAtItsRecordInThePackage(zip, index);
        assertTrue(index.stream().anyMatch(l -> l.contains("\"mime\":\"warc/revisit\",\"length\"") && l.contains("/etag")),
            "the second run's 304 is indexed as a revisit, without the status a replay would answer with");
        assertTrue(perFile.stream().anyMatch(l -> l.contains("\"mime\":\"warc/revisit\",\"status\":\"304\"")),
            "the WARC file's own index keeps it");

        List<String> pages = lines(zip, "pages/pages.jsonl");
        assertEquals(WaczPages.HEADER, pages.get(0));
        Map<String, String> titles = new LinkedHashMap<>();
        for (String line : pages.subList(1, pages.size())) {
          JsonNode page = JSON.readTree(line);
          assertTrue(page.get("ts").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z"), line);
          assertFalse(page.get("id").asText().isEmpty());
          titles.putIfAbsent(page.get("url").asText().substring(site.origin().length()),
              page.has("title") ? page.get("title").asText() : null);
        }
        assertEquals(Map.of("/", "/", "/a", "Page A", "/b", "Café B", "/zipped", "Zipped page", "/etag", "Tagged"), titles,
            "HTML pages that answered 200, with their titles; not robots.txt, the text file, the redirect, the 404");
        assertEquals(2 * titles.size() - 1, pages.size() - 1, "each page of both runs; /etag answered 304 the second time");
      }
    }
  }

  @Test
  void aRevisitOfA304IsIndexedForReplayWithoutItsStatus() {
    String revisit = "1,0,0,127)/etag 20261207202541 {\"url\":\"http://127.0.0.1/etag\",\"mime\":\"warc/revisit\","
        + "\"status\":\"304\",\"length\":\"412\",\"offset\":\"3673\",\"filename\":\"f.warc.gz\"}";
    assertEquals("1,0,0,127)/etag 20261207202541 {\"url\":\"http://127.0.0.1/etag\",\"mime\":\"warc/revisit\","
        + "\"length\":\"412\",\"offset\":\"3673\",\"filename\":\"f.warc.gz\"}", IndexMerge.forReplay(revisit));
    String response = "1,0,0,127)/etag 20261207202540 {\"url\":\"http://127.0.0.1/etag\",\"mime\":\"text/html\","
        + "\"status\":\"304\",\"length\":\"480\",\"offset\":\"4554\",\"filename\":\"f.warc.gz\"}";
    assertEquals(response, IndexMerge.forReplay(response), "only a revisit's");
    // A URL holding the text: its quotes are escaped in the JSON string, so it is not the field.
    String url = "1,0,0,127)/x 20261207202541 {\"url\":\"http://127.0.0.1/x?q=\\\",\\\"mime\\\":\\\"warc/revisit\\\",\\\"status"
        + "\\\":\\\"304\",\"mime\":\"text/html\",\"status\":\"200\",\"length\":\"1\",\"offset\":\"0\",\"filename\":\"f.warc.gz\"}";
    assertEquals(url, IndexMerge.forReplay(url));
  }

  @Test
  void warcFilesWithoutAnIndexGetOneAtExport() throws Exception {
    Path data = crawled("");
    Path indexes = data.resolve("indexes");
    Map<Path, String> written = new LinkedHashMap<>();
    for (Path warc : warcFiles(data)) {
      Path index = WarcIndexes.indexOf(indexes, warc);
      written.put(index, Files.readString(index));
      Files.delete(index);
    }
    Path wacz = tmp.resolve("crawl.wacz");
    assertEquals(0, Main.run("export", "--data-dir", data.toString(), "--format", "wacz", "--output", wacz.toString()),
        console.err());
    for (var e : written.entrySet()) assertEquals(e.getValue(), Files.readString(e.getKey()), "rebuilt " + e.getKey());
  }

  @Test
  void aZstdCrawlIsRefusedWithOneLineSayingWhyAndNoPackageIsLeft() throws Exception {
    Path data = crawled("warc: { compression: zstd }\n");
    Path wacz = tmp.resolve("crawl.wacz");
    assertEquals(1, Main.run("export", "--data-dir", data.toString(), "--format", "wacz", "--output", wacz.toString()));
    assertEquals(1, console.err().lines().count(), console.err());
    assertTrue(console.err().startsWith("forager: ") && console.err().contains("zstd-compressed WARC file")
        && console.err().contains("warc.compression: gzip"), console.err());
    try (Stream<Path> left = Files.list(tmp)) {
      assertEquals(List.of("data"), left.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".yaml")).toList());
    }
  }

  @Test
  void badUsageGetsOneLineAndExitStatus2() throws Exception {
    Path data = crawled("");
    assertEquals(2, Main.run("export", "--data-dir", data.toString(), "--format", "wacz"));
    assertEquals(2, Main.run("export", "--data-dir", data.toString(), "--format", "wacz", "--output", tmp.resolve("x.zip").toString()));
    assertEquals(2, Main.run("export", "--data-dir", data.toString(), "--format", "warc"));
    // JSON lines into a file named .wacz: refused (it once wrote them and said "exported 10 URLs").
    assertEquals(2, Main.run("export", "--data-dir", data.toString(), "--format", "jsonl", "--output", tmp.resolve("y.wacz").toString()));
    List<String> lines = console.err().lines().toList();
    assertEquals(List.of(
        "forager: --format wacz needs --output FILE.wacz (a WACZ file's name ends in .wacz)",
        "forager: --format wacz needs --output FILE.wacz (a WACZ file's name ends in .wacz)",
        "forager: --format warc is not supported (use jsonl or wacz)",
        "forager: --format jsonl writes JSON lines, which a file named y.wacz would not hold (a WACZ package is --format wacz)"),
        lines);
    assertFalse(java.nio.file.Files.exists(tmp.resolve("y.wacz")));
  }

  /**
   * A data directory whose only WARC file is still being written (a running crawl's first file): the
   * refusal names it and when it is finished, rather than only "no finished WARC file".
   */
  @Test
  void aWarcFileStillBeingWrittenIsNamedWhenNoneIsFinished() throws Exception {
    Path data = crawled("");
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(data.resolve("warc"))) {
      for (Path f : files.filter(f -> f.toString().endsWith(".warc.gz")).toList()) {
        java.nio.file.Files.move(f, f.resolveSibling(f.getFileName() + ".open"));
      }
    }
    assertEquals(1, Main.run("export", "--data-dir", data.toString(), "--output", tmp.resolve("x.wacz").toString()));
    assertTrue(console.err().contains("holds no finished WARC file to package: forager-"), console.err());
    assertTrue(console.err().contains(".warc.gz.open is still being written"), console.err());
  }

  /** An --output ending in .wacz without --format is a WACZ package, as its name says. */
  @Test
  void anOutputNamedWaczIsAWaczPackageWithoutFormat() throws Exception {
    Path data = crawled("");
    Path wacz = tmp.resolve("crawl.wacz");
    assertEquals(0, Main.run("export", "--data-dir", data.toString(), "--output", wacz.toString()), console.err());
    try (ZipFile zip = new ZipFile(wacz.toFile())) {
      assertTrue(zip.getEntry("datapackage.json") != null, "a WACZ package");
    }
  }

  /** Each line's offset and length, read from the WARC inside the package, give its record. */
  private static void assertEqualsEveryLinePointsAtItsRecordInThePackage(ZipFile zip, List<String> index) throws IOException {
    for (String line : index) {
      JsonNode fields = JSON.readTree(line.substring(line.indexOf('{')));
      byte[] warc = zip.getInputStream(zip.getEntry("archive/" + fields.get("filename").asText())).readAllBytes();
      int offset = Integer.parseInt(fields.get("offset").asText());
      int length = Integer.parseInt(fields.get("length").asText());
      try (WarcReader reader = new WarcReader(new ByteArrayInputStream(warc, offset, length))) {
        WarcRecord record = reader.next().orElseThrow();
        assertTrue(record instanceof WarcResponse || record instanceof WarcRevisit, line);
        assertEquals(fields.get("url").asText(), ((org.netpreserve.jwarc.WarcCaptureRecord) record).target());
        record.body().consume();
        assertTrue(reader.next().isEmpty(), "the span holds one record: " + line);
      }
    }
  }

  private static List<Path> warcFiles(Path data) throws IOException {
    try (Stream<Path> files = Files.list(data.resolve("warc"))) {
      return files.filter(p -> p.toString().endsWith(".warc.gz")).sorted().toList();
    }
  }

  private static List<String> lines(ZipFile zip, String name) throws IOException {
    return new String(zip.getInputStream(zip.getEntry(name)).readAllBytes(), StandardCharsets.UTF_8).lines().toList();
  }

  private static String sha256(byte[] content) throws Exception {
    return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
  }
}
