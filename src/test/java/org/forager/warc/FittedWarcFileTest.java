package org.forager.warc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.forager.fetch.Header;
import org.forager.testweb.NodeTools;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcResponse;

/**
 * A WARC file written with the default compression where ISA-L is installed (gzip level 1: igzip's
 * level 0 with Huffman tables fitted to the records), long enough for both kinds of record to be
 * fitted: its later members are neither igzip level 1's nor level 0's with the built-in tables, and
 * jwarc (digests verified) and warcio (npm) read every record back. Skipped, with the reason, where
 * the system has no libisal (.ci/run installs it); the warcio half where Node tools are missing.
 */
@Timeout(120)
class FittedWarcFileTest {

  /** Fetches: enough small records (requests, short pages) and large ones for both kinds' first fit. */
  private static final int FETCHES = 2_400;

  @TempDir Path tmp;
  private Path file;
  private Path indexes;
  private final Map<String, byte[]> served = new TreeMap<>();

  @BeforeAll
  static void needsIsal() {
    assumeTrue(Isal.unavailable().isEmpty(), () -> "skipped: " + Isal.unavailable().get());
  }

  @BeforeEach
  void write() throws IOException {
    Path warcDir = tmp.resolve("warc");
    indexes = tmp.resolve("indexes");
    try (WarcRecorder recorder = WarcRecorder.open(warcDir, 1L << 30, RecordCompression.defaults(), "Forager/test",
        indexes)) {
      for (int i = 0; i < FETCHES; i++) {
        String url = "http://site" + i % 37 + ".example/page/" + i;
        byte[] body = page(i % 2 == 0 ? 30_000 : 1_000, i);
        served.put(url, body);
        recorder.write(Responses.response(url, 200, List.of(new Header("Content-Type", "text/html")), body, body,
            Optional.empty()));
      }
    }
    List<Path> files = WarcFiles.list(warcDir, ".warc.gz");
    assertEquals(1, files.size());
    file = files.get(0);
  }

  private static byte[] page(int bytes, long seed) {
    Random random = new Random(seed);
    String[] words = {"crawler ", "polite ", "archive ", "web ", "record ", "<a href=\"/page/", "\">link</a> ", "</p>\n<p>"};
    StringBuilder html = new StringBuilder("<!doctype html><title>Page</title><p>");
    while (html.length() < bytes) html.append(words[random.nextInt(words.length)]).append(random.nextInt(1000));
    return html.substring(0, bytes).getBytes(UTF_8);
  }

  @Test
  void theLastMembersOfEachKindWereMadeWithFittedTables() throws IOException {
    List<RecordSpan> spans = new ArrayList<>();
    try (InputStream in = Files.newInputStream(file)) {
      GzipMemberScan.scan(in, spans::add);
    }
    IsalGzipMembers levelOne = new IsalGzipMembers(1);
    IsalGzipMembers builtIn = new IsalGzipMembers(0);
    boolean small = false;
    boolean large = false;
    try (FileChannel channel = FileChannel.open(file)) {
      for (int i = spans.size() - 1; i >= spans.size() - 6; i--) {
        byte[] member = read(channel, spans.get(i));
        byte[] record = Members.inflate(member);
        assertFalse(Arrays.equals(levelOne.compress(record), member), "not igzip level 1's: record " + i);
        assertFalse(Arrays.equals(builtIn.compress(record), member), "not the built-in tables': record " + i);
        if (record.length <= HuffmanFit.SMALL_RECORD) small = true;
        else large = true;
      }
    }
    assertEquals(List.of(true, true), List.of(small, large), "both kinds among the last records");
  }

  @Test
  void jwarcReadsEveryRecordWithDigestsThatVerify() throws IOException {
    Map<String, byte[]> payloads = new TreeMap<>();
    for (WarcFiles.Read read : WarcFiles.read(file)) { // block digests checked as it reads
      if (read.record() instanceof WarcResponse response) {
        assertEquals(Digests.sha1Base32(read.payload()), response.payloadDigest().orElseThrow().prefixedBase32(),
            "payload digest of " + response.target());
        payloads.put(response.target(), read.payload());
      }
    }
    assertEquals(served.keySet(), payloads.keySet());
    for (Map.Entry<String, byte[]> body : served.entrySet()) {
      assertArrayEquals(body.getValue(), payloads.get(body.getKey()), body.getKey());
    }
  }

  @Test
  void warcioIndexesTheFileAsTheRecorderDid() throws Exception {
    var tools = NodeTools.find();
    assumeTrue(tools.isPresent(), NodeTools.notFound("read the fitted WARC with warcio"));
    NodeTools.Result result = tools.get().runBin(Duration.ofSeconds(90), "warcio", "cdx-index", file.toString());
    assertEquals(0, result.exitCode(), result.stderr());
    List<String> warcio = result.stdout().lines().filter(l -> !l.isBlank()).sorted().toList();
    assertEquals(warcio, Files.readAllLines(WarcIndexes.indexOf(indexes, file)));
  }

  private static byte[] read(FileChannel channel, RecordSpan span) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(span.length()));
    while (bytes.hasRemaining()) {
      if (channel.read(bytes, span.offset() + bytes.position()) < 0) throw new IOException("short file");
    }
    return bytes.array();
  }
}
