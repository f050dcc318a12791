package org.forager.warc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.forager.testweb.NodeTools;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcResponse;

/**
 * A crawl whose gzip members ISA-L made in its fastest mode ({@code warc: { gzip_engine: isal,
 * gzip_level: fastest }}: igzip's level 0; the engine refuses to run without the library; level 1,
 * the default, is what the other crawl tests write where ISA-L is installed): jwarc reads every record of the finished files with block and payload digests that
 * verify and the bodies the site served, and warcio (npm) indexes the files as the crawl did.
 * Skipped, with the reason, where the system has no libisal (.ci/run installs it).
 */
@Timeout(120)
class IsalWarcCrawlTest {

  @TempDir Path tmp;
  private Path data;
  private final Map<String, byte[]> served = new TreeMap<>();

  @BeforeAll
  static void needsIsal() {
    assumeTrue(Isal.unavailable().isEmpty(), () -> "skipped: " + Isal.unavailable().get());
  }

  @BeforeEach
  void crawl() throws Exception {
    data = tmp.resolve("data");
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\nAllow: /\n").linking("/", "/empty", "/tiny", "/page", "/noise");
      site.route("/empty", ex -> TestSite.respond(ex, 200, "text/plain", serve(site, "/empty", new byte[0])));
      site.route("/tiny", ex -> TestSite.respond(ex, 200, "text/plain", serve(site, "/tiny", new byte[] {'x'})));
      site.route("/page", ex -> TestSite.respond(ex, 200, "text/html", serve(site, "/page", page(30_000))));
      byte[] noise = new byte[1 << 20];
      new Random(2).nextBytes(noise);
      site.route("/noise", ex -> TestSite.respond(ex, 200, "application/octet-stream", serve(site, "/noise", noise)));
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "warc: { gzip_engine: isal, gzip_level: fastest }\n"
          + "limits: { fetch_timeout: 10s, max_retries: 2 }"));
    }
  }

  /** About {@code bytes} of HTML prose without links (links would make the crawl longer, not the test better). */
  private static byte[] page(int bytes) {
    Random random = new Random(1);
    String[] words = {"crawler ", "polite ", "archive ", "web ", "record ", "member ", "</p>\n<p>"};
    StringBuilder html = new StringBuilder("<!doctype html><title>Page</title><p>");
    while (html.length() < bytes) html.append(words[random.nextInt(words.length)]).append(random.nextInt(1000));
    return html.append("</p>").toString().getBytes(UTF_8);
  }

  private byte[] serve(TestSite site, String path, byte[] body) {
    served.put(site.url(path), body);
    return body;
  }

  @Test
  void jwarcReadsEveryRecordWithDigestsThatVerify() throws IOException {
    List<Path> files = WarcFiles.list(data.resolve("warc"), ".warc.gz");
    assertFalse(files.isEmpty());
    Map<String, byte[]> payloads = new TreeMap<>();
    for (Path file : files) {
      for (WarcFiles.Read read : WarcFiles.read(file)) { // block digests checked as it reads
        if (read.record() instanceof WarcResponse response) {
          assertEquals(Digests.sha1Base32(read.payload()), response.payloadDigest().orElseThrow().prefixedBase32(),
              "payload digest of " + response.target());
          payloads.put(response.target(), read.payload());
        }
      }
    }
    for (Map.Entry<String, byte[]> body : served.entrySet()) {
      assertArrayEquals(body.getValue(), payloads.get(body.getKey()), body.getKey());
    }
    assertEquals(served.size() + 2, payloads.size(), "and the home page and robots.txt: " + payloads.keySet());
    TestCrawl.assertWarcFilesFinishedAndReadable(data);
  }

  @Test
  void warcioIndexesTheFilesAsTheCrawlDid() throws Exception {
    var tools = NodeTools.find();
    assumeTrue(tools.isPresent(), NodeTools.notFound("read the ISA-L WARC with warcio"));
    for (Path warc : WarcFiles.list(data.resolve("warc"), ".warc.gz")) {
      NodeTools.Result result = tools.get().runBin(Duration.ofSeconds(60), "warcio", "cdx-index", warc.toString());
      assertEquals(0, result.exitCode(), result.stderr());
      List<String> warcio = result.stdout().lines().filter(l -> !l.isBlank()).sorted().toList();
      assertEquals(warcio, Files.readAllLines(WarcIndexes.indexOf(data.resolve(WarcIndexes.DIRECTORY), warc)),
          warc.toString());
    }
  }
}
