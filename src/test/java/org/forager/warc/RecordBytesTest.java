package org.forager.warc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.zip.GZIPInputStream;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Header;
import org.forager.store.Concurrently;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;

/**
 * Records serialized into pooled buffers are byte for byte what jwarc's {@code WarcWriter} writes
 * for the same record built by jwarc's builders (which is how every record was built and
 * serialized before the pool and {@link CaptureRecords}' own fields), with the same IDs: each kind of
 * record, a non-ASCII URL, a record larger than a kept buffer followed by small ones (a reused
 * buffer holds the old record's bytes past the new one's end), many threads sharing one pool; and
 * a recorder's file written by many threads holds, member by member, exactly those bytes.
 */
@Timeout(120)
class RecordBytesTest {

  @TempDir Path dir;

  private static byte[] html(int bytes, long seed) {
    Random random = new Random(seed);
    String[] words = {"<p>", "crawler ", "polite ", "<a href=\"/page/", "\">link</a> ", "archive ", "web ", "\n"};
    StringBuilder page = new StringBuilder(bytes + 32);
    while (page.length() < bytes) page.append(words[random.nextInt(words.length)]).append(random.nextInt(100));
    return page.substring(0, bytes).getBytes(UTF_8);
  }

  private static FetchResult.Response page(String url, int status, byte[] body, Optional<FetchResult.Truncation> cut) {
    return Responses.response(url, status, List.of(new Header("Content-Type", "text/html; charset=utf-8"),
        new Header("Transfer-Encoding", "chunked"), new Header("X-Note", "café")), body, body, cut);
  }

  /** A record to write and the same record as jwarc's builders make it. */
  private record Case(RecordToWrite record, WarcRecord jwarc) {}

  /** The records of several fetches and a warcinfo: every kind the recorder writes. */
  private static List<Case> records(long seed, int bodyBytes) {
    List<Case> records = new ArrayList<>();
    byte[] info = WarcinfoRecord.block("Forager/test", Optional.of("host"));
    WarcRecord warcinfo = WarcinfoRecord.record("forager-x.warc.gz", info, Instant.EPOCH);
    records.add(new Case(RecordToWrite.of(warcinfo, List.of(info)), warcinfo));
    List<FetchResult.Response> fetches = List.of(
        page("https://example.org/a", 200, html(bodyBytes, seed), Optional.empty()),
        page("https://example.org/b", 200, new byte[0], Optional.empty()),
        page("https://example.org/c", 200, html(1000, seed), Optional.of(FetchResult.Truncation.MAX_PAGE_BYTES)),
        page("https://example.org/d", 304, new byte[0], Optional.empty()),
        page("https://例え.jp/página?q=ü", 404, html(50, seed), Optional.empty()));
    Random ids = new Random(seed);
    for (FetchResult.Response r : fetches) {
      UUID requestId = new UUID(ids.nextLong(), ids.nextLong());
      UUID responseId = new UUID(ids.nextLong(), ids.nextLong());
      List<CaptureRecords.Entry> entries = CaptureRecords.of(r, BodyDigests.of(r), JwarcCaptures.id(requestId),
          JwarcCaptures.id(responseId));
      List<WarcRecord> references = JwarcCaptures.of(r, requestId, responseId);
      assertEquals(references.size(), entries.size());
      for (int i = 0; i < entries.size(); i++) records.add(new Case(entries.get(i).record(), references.get(i)));
    }
    return records;
  }

  /** What jwarc writes for the record, uncompressed: how RecordBytes serialized before the pool. */
  private static byte[] jwarc(WarcRecord record) {
    return JwarcCaptures.written(record);
  }

  private static byte[] pooled(RecordBytes bytes, RecordToWrite record) {
    try (RecordBytes.Serialized s = bytes.serialize(record)) {
      return Arrays.copyOf(s.bytes(), s.length());
    }
  }

  @Test
  void everyKindOfRecordIsWhatJwarcWrites() {
    RecordBytes bytes = new RecordBytes();
    for (Case c : records(1, 30_000)) {
      byte[] expected = jwarc(c.jwarc()); // reads the record's body channel, which the pool never does
      assertArrayEquals(expected, pooled(bytes, c.record()), c.jwarc().type() + " " + c.jwarc().id());
    }
  }

  @Test
  void aRecordLargerThanAKeptBufferThenSmallOnesAreEachWhatJwarcWrites() {
    RecordBytes bytes = new RecordBytes();
    for (int round = 0; round < 3; round++) {
      for (Case c : records(round, 2 * RecordBytes.KEEP_BUFFER_BYTES + round)) {
        assertArrayEquals(jwarc(c.jwarc()), pooled(bytes, c.record()), "round " + round);
      }
      for (Case c : records(round, 300)) {
        assertArrayEquals(jwarc(c.jwarc()), pooled(bytes, c.record()), "round " + round + ", small");
      }
    }
  }

  @Test
  void aJwarcRecordWithABlockOfAnotherLengthThanItsContentLengthIsRefused() {
    WarcRecord record = records(1, 100).get(2).jwarc();
    assertThrows(IllegalArgumentException.class, () -> RecordToWrite.of(record, List.of()));
  }

  @Test
  void threadsSharingThePoolEachGetTheirOwnRecord() throws Exception {
    RecordBytes bytes = new RecordBytes();
    Concurrently.run(16, seed -> {
      for (int i = 0; i < 40; i++) {
        int size = i % 10 == 9 ? RecordBytes.KEEP_BUFFER_BYTES + 1 : 500 + (int) (seed * 997L + i * 131) % 60_000;
        for (Case c : records(seed * 1000L + i, size)) {
          assertArrayEquals(jwarc(c.jwarc()), pooled(bytes, c.record()));
        }
      }
    });
  }

  @Test
  void aFileWrittenByManyThreadsHoldsJwarcsBytesMemberByMember() throws Exception {
    int threads = 8;
    int fetches = threads * 25;
    try (WarcRecorder recorder = WarcRecorder.open(dir, WarcRecorder.DEFAULT_MAX_FILE_BYTES, "Forager/test")) {
      Concurrently.run(threads, seed -> {
        for (int i = 0; i < 25; i++) {
          int size = i == 7 ? 2 * RecordBytes.KEEP_BUFFER_BYTES : 100 + (int) (seed * 7919L + i * 613) % 40_000;
          recorder.write(page("https://example.org/" + seed + "/" + i, i == 3 ? 304 : 200, html(size, i),
              Optional.empty()));
        }
      });
    }
    Path file = WarcFiles.list(dir, ".warc.gz").getFirst();
    byte[] all = Files.readAllBytes(file);
    List<Long> starts = new ArrayList<>();
    try (WarcReader reader = new WarcReader(file)) {
      for (WarcRecord r; (r = reader.next().orElse(null)) != null; ) starts.add(reader.position());
    }
    starts.add((long) all.length);
    assertEquals(1 + 2 * fetches, starts.size() - 1, "warcinfo, then a request and a response or revisit a fetch");
    for (int i = 0; i + 1 < starts.size(); i++) {
      byte[] plain = gunzip(Arrays.copyOfRange(all, Math.toIntExact(starts.get(i)), Math.toIntExact(starts.get(i + 1))));
      WarcRecord parsed = new WarcReader(new ByteArrayInputStream(plain)).next().orElseThrow();
      assertArrayEquals(jwarc(parsed), plain, "member " + i);
    }
    assertTrue(starts.size() > 2);
  }

  private static byte[] gunzip(byte[] member) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(member))) {
      return in.readAllBytes();
    }
  }
}
