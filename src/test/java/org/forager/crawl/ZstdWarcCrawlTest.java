package org.forager.crawl;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.forager.testweb.ZstdWarcs;
import org.forager.warc.Digests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcResponse;

/**
 * A crawl with {@code warc: { compression: zstd }}: finished {@code .warc.zst} files that jwarc reads
 * record by record, payload digests that verify, and the crawl log's digest equal to the payload
 * digest when the body came without content coding (one SHA-1 for both).
 */
@Timeout(60)
class ZstdWarcCrawlTest {

  @TempDir Path tmp;

  @Test
  void aZstdCrawlWritesWarcZstFilesThatJwarcReadsWithDigestsThatVerify() throws Exception {
    byte[] coded = "<html><p>compressed on the wire</p></html>".getBytes(UTF_8);
    try (TestSite site = TestSite.start()) {
      site.robots("User-agent: *\nAllow: /\n").linking("/", "/a", "/gz").html("/a", "<p>a</p>");
      site.route("/gz", ex -> {
        ex.getResponseHeaders().set("Content-Encoding", "gzip");
        TestSite.respond(ex, 200, "text/html", gzip(coded));
      });
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "warc: { compression: zstd, zstd_level: 3 }"));

      List<Path> files;
      try (Stream<Path> s = Files.list(data.resolve("warc"))) {
        files = s.toList();
      }
      assertFalse(files.isEmpty());
      Map<String, String> payloadDigests = new HashMap<>();
      for (Path file : files) {
        assertTrue(file.toString().endsWith(".warc.zst"), "finished and named for zstd: " + file);
        ZstdWarcs.eachRecord(file, (record, offset) -> {
          if (record instanceof WarcResponse r) {
            byte[] payload = r.http().body().stream().readAllBytes();
            String declared = r.payloadDigest().orElseThrow().prefixedBase32();
            assertEquals(Digests.sha1Base32(payload), declared, "payload digest of " + r.target());
            payloadDigests.put(r.target(), declared);
          }
          record.body().consume();
          assertEquals(record.blockDigest(), record.calculatedBlockDigest(), "block digest at " + offset);
          return record.type();
        });
      }
      assertEquals(List.of(site.url("/"), site.url("/a"), site.url("/gz"), site.url("/robots.txt")),
          payloadDigests.keySet().stream().sorted().toList());

      Map<String, String> logDigests = new HashMap<>();
      for (JsonNode line : TestCrawl.log(data)) {
        if (line.hasNonNull("digest")) logDigests.put(line.get("url").asText(), line.get("digest").asText());
      }
      assertEquals(payloadDigests.get(site.url("/a")), logDigests.get(site.url("/a")), "no coding: one digest");
      assertEquals(Digests.sha1Base32(coded), logDigests.get(site.url("/gz")), "the log digests the decoded body");
      assertNotEquals(payloadDigests.get(site.url("/gz")), logDigests.get(site.url("/gz")));
    }
  }

  private static byte[] gzip(byte[] data) throws java.io.IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    }
    return out.toByteArray();
  }
}
