package org.forager.crawl;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.forager.testweb.Compressed;
import org.forager.testweb.RawSite;
import org.forager.testweb.TestCrawl;
import org.forager.warc.Digests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

/**
 * A site whose pages come with transfer codings besides chunked, crawled into a store and WARC files on
 * disk: a page sent {@code Transfer-Encoding: gzip, chunked} was kept compressed, so its links were
 * never found, and stored so in the WARC record with nothing to tell a reader. Now its links are
 * crawled, its record holds the page as a reader and a replay need it, a coding nobody can undo is a
 * failure that names it, and a bomb sent as a transfer coding stops where one sent as a content coding
 * does.
 */
@Timeout(60)
class TransferCodingCrawlTest {

  private static final String HOME = "<html><body><a href=\"/a\">a</a> <a href=\"/deflated\">d</a>"
      + " <a href=\"/unknown\">u</a> <a href=\"/bomb-transfer\">t</a> <a href=\"/bomb-content\">c</a>"
      + "<p>" + "home ".repeat(2_000) + "</p></body></html>";
  private static final String DEFLATED = "<html><body><a href=\"/b\">b</a></body></html>";

  @TempDir Path tmp;

  @Test
  void pagesWithTransferCodingsAreDecodedStoredReadablyAndBoundedAsContentCodedOnes() throws Exception {
    byte[] bomb = Compressed.gzippedZeros(64 << 20);
    Map<String, byte[]> responses = new HashMap<>();
    responses.put("/robots.txt", ascii("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"));
    responses.put("/", RawSite.chunked("Transfer-Encoding: gzip, chunked", gzip(HOME.getBytes(UTF_8))));
    responses.put("/deflated", RawSite.chunked("Transfer-Encoding: deflate, chunked",
        Compressed.deflated(DEFLATED.getBytes(UTF_8), false)));
    responses.put("/unknown", RawSite.chunked("Transfer-Encoding: x-foo, chunked", ascii("<a href=\"/never\">n</a>")));
    responses.put("/bomb-transfer", RawSite.chunked("Transfer-Encoding: gzip, chunked", bomb));
    responses.put("/bomb-content", RawSite.chunked("Content-Encoding: gzip\r\nTransfer-Encoding: chunked", bomb));
    responses.put("/a", RawSite.html("<p>a</p>"));
    responses.put("/b", RawSite.html("<p>b</p>"));
    Path data = tmp.resolve("data");
    String origin;
    try (RawSite site = RawSite.start(responses)) {
      origin = site.origin();
      TestCrawl.run(TestCrawl.config(data, List.of(origin + "/"), "limits: { fetch_timeout: 5s, max_retries: 0 }"));
    }

    // The links of the gzip page, and of the deflate page it links to, were found and crawled.
    assertEquals("FETCHED", TestCrawl.lastOutcome(data, origin + "/"));
    assertEquals("FETCHED", TestCrawl.lastOutcome(data, origin + "/a"));
    assertEquals("FETCHED", TestCrawl.lastOutcome(data, origin + "/b"));
    JsonNode unknown = pageLine(data, origin + "/unknown");
    assertEquals("NETWORK_ERROR", unknown.get("outcome").asText());
    assertTrue(unknown.get("reason").asText().contains("unsupported transfer coding \"x-foo\""), unknown.toString());
    assertNull(TestCrawl.lastOutcome(data, origin + "/never"), "no garbage parsed for links");
    for (String bombPath : List.of("/bomb-transfer", "/bomb-content")) {
      JsonNode line = pageLine(data, origin + bombPath);
      assertEquals("TRUNCATED", line.get("outcome").asText(), bombPath);
      assertEquals("max_decompression_ratio", line.get("reason").asText(), bombPath);
    }

    TestCrawl.assertWarcFilesFinishedAndReadable(data);
    TestCrawl.assertIndexesAsReadBack(data);
    Map<String, WarcRead> records = responses(data);
    WarcRead home = records.get(origin + "/");
    assertArrayEquals(HOME.getBytes(UTF_8), home.payload(), "the record holds the page, transfer coding undone");
    assertArrayEquals(HOME.getBytes(UTF_8), home.replayed(), "a reader undoing what the head says gets the page");
    assertEquals(List.of(), home.http().headers().all("Transfer-Encoding"), "no coding left for a reader to undo");
    assertEquals(List.of(), home.http().headers().all("Content-Encoding"));
    assertEquals(List.of("gzip, chunked"), home.http().headers().all("X-Forager-Transfer-Encoding"), "kept, renamed");
    assertEquals(Digests.sha1Base32(home.payload()), home.payloadDigest());
    assertEquals(home.payloadDigest(), pageLine(data, origin + "/").get("digest").asText(),
        "no content coding: the crawl log's digest is the payload's");
    assertArrayEquals(DEFLATED.getBytes(UTF_8), records.get(origin + "/deflated").replayed());
    assertFalse(records.containsKey(origin + "/unknown"), "a failure has no response record");

    WarcRead asTransfer = records.get(origin + "/bomb-transfer");
    WarcRead asContent = records.get(origin + "/bomb-content");
    assertEquals(Optional.of("length"), asTransfer.truncated());
    assertEquals(Optional.of("length"), asContent.truncated());
    assertTrue(asTransfer.payload().length < 2 << 20, "cut by the ratio, not at the 2 MiB page cap");
    // Both stopped after the wire's first 8 KiB or less (zeros inflate a thousandfold): the one stored
    // decoded, the other as it came, its gzip stream cut there.
    assertTrue(asTransfer.payload().length <= 100L * (10 + 8192) + 8192, asTransfer.payload().length + " stored");
    assertTrue(asContent.payload().length <= 10 + 8192, asContent.payload().length + " stored");
  }

  /** A response record read back with jwarc, and where it is. */
  private record WarcRead(HttpResponse http, byte[] payload, String payloadDigest, Optional<String> truncated,
      Path file, long position) {

    /** The record's HTTP body as a reader serves it: transfer and content codings undone as its head says. */
    byte[] replayed() throws IOException {
      try (WarcReader reader = new WarcReader(file)) {
        reader.position(position);
        WarcResponse response = (WarcResponse) reader.next().orElseThrow();
        return response.http().bodyDecoded().stream().readAllBytes();
      }
    }
  }

  /** The response records of the crawl's WARC files, by URL; every record's block digest checked on the way. */

  private static Map<String, WarcRead> responses(Path data) throws IOException {
    Map<String, WarcRead> found = new HashMap<>();
    try (Stream<Path> files = Files.list(data.resolve("warc"))) {
      for (Path file : files.toList()) {
        try (WarcReader reader = new WarcReader(file)) {
          reader.calculateBlockDigest();
          reader.onWarning(w -> {
            throw new AssertionError("jwarc warning in " + file + ": " + w);
          });
          for (WarcRecord record : reader) {
            if (record instanceof WarcResponse response) {
              byte[] payload = response.http().body().stream().readAllBytes();
              found.put(response.target(), new WarcRead(response.http(), payload,
                  response.payloadDigest().orElseThrow().prefixedBase32(), response.headers().sole("WARC-Truncated"),
                  file, record.position()));
            }
            record.body().consume();
            assertEquals(record.blockDigest(), record.calculatedBlockDigest(), "block digest of " + record);
          }
        }
      }
    }
    return found;
  }

  private static JsonNode pageLine(Path data, String url) {
    return TestCrawl.log(data).stream()
        .filter(l -> l.get("kind").asText().equals("page") && l.get("url").asText().equals(url))
        .reduce((first, second) -> second).orElseThrow(() -> new AssertionError("no page line for " + url));
  }

  private static byte[] ascii(String text) {
    return text.getBytes(US_ASCII);
  }

  private static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    }
    return out.toByteArray();
  }
}
