package org.forager.warc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Header;
import org.forager.testweb.ZstdWarcs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.URIs;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;

/**
 * The CDXJ index of each finished WARC file, checked against what jwarc reads from the file on its
 * own: the offset and length of every record (jwarc's positions for gzip, zstd-jni's frame sizes
 * for zstd), its URL, date, status, type and payload digest.
 */
class WarcIndexesTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  @TempDir Path tmp;

  @Test
  void eachRotatedGzipFileGetsASortedIndexOfItsResponsesAndRevisitsAtJwarcsOffsets() throws IOException {
    Path warc = tmp.resolve("warc");
    Path indexes = tmp.resolve("indexes");
    try (WarcRecorder recorder = WarcRecorder.open(warc, 3_000, RecordCompression.gzip(1), "Forager/test", indexes)) {
      writeSome(recorder);
    }
    List<Path> files = WarcFiles.list(warc, ".warc.gz");
    assertTrue(files.size() > 1, "rotated: " + files);
    for (Path file : files) {
      List<String> index = Files.readAllLines(WarcIndexes.indexOf(indexes, file));
      assertEquals(expectedGzip(file), fields(index), file.toString());
      assertEquals(index.stream().sorted().toList(), index, "sorted");
    }
    assertEquals(files.size(), WarcFiles.list(indexes, ".cdxj").size(), "one index per file: " + WarcFiles.list(indexes, ""));
  }

  @Test
  void eachZstdFileGetsAnIndexAtTheOffsetsOfItsFrames() throws IOException {
    Path warc = tmp.resolve("warc");
    Path indexes = tmp.resolve("indexes");
    try (WarcRecorder recorder = WarcRecorder.open(warc, 3_000, RecordCompression.zstd(3), "Forager/test", indexes)) {
      writeSome(recorder);
    }
    List<Path> files = WarcFiles.list(warc, ".warc.zst");
    assertTrue(files.size() > 1, "rotated: " + files);
    for (Path file : files) {
      List<Long> frames = ZstdWarcs.frameOffsets(file);
      List<Expected> expected = new ArrayList<>(ZstdWarcs.eachRecord(file, (record, offset) -> {
        int i = frames.indexOf(offset);
        long end = i + 1 < frames.size() ? frames.get(i + 1) : Files.size(file);
        return Optional.ofNullable(expected(record, file, offset, end - offset));
      }).stream().flatMap(Optional::stream).toList());
      expected.sort(null);
      assertEquals(expected, fields(Files.readAllLines(WarcIndexes.indexOf(indexes, file))), file.toString());
    }
  }

  @Test
  void aMissingIndexIsBuiltFromTheFileAloneLineForLine() throws IOException {
    for (RecordCompression compression : List.of(RecordCompression.gzip(6), RecordCompression.zstd(1))) {
      Path warc = tmp.resolve("warc-" + compression.format());
      Path indexes = tmp.resolve("indexes-" + compression.format());
      try (WarcRecorder recorder = WarcRecorder.open(warc, 3_000, compression, "Forager/test", indexes)) {
        writeSome(recorder);
      }
      for (Path file : WarcFiles.list(warc, compression.format().suffix())) {
        Path index = WarcIndexes.indexOf(indexes, file);
        String written = Files.readString(index);
        Files.delete(index);
        assertEquals(index, WarcIndexes.ensure(indexes, file));
        assertEquals(written, Files.readString(index), "rebuilt " + index);
      }
    }
  }

  @Test
  void anIndexThatCannotBeWrittenCostsOnlyTheIndexNotTheWarcFile() throws IOException {
    Path warc = tmp.resolve("warc");
    Path notADirectory = Files.writeString(tmp.resolve("indexes"), "a file where the index directory should be");
    try (WarcRecorder recorder = WarcRecorder.open(warc, 3_000, RecordCompression.gzip(1), "Forager/test", notADirectory)) {
      writeSome(recorder);
    }
    List<Path> files = WarcFiles.list(warc, ".warc.gz");
    assertFalse(files.isEmpty());
    for (Path file : files) assertFalse(expectedGzip(file).isEmpty(), "readable " + file);
    assertEquals(List.of(), WarcFiles.list(warc, ".open"));
  }

  @Test
  void aRecorderWithoutAnIndexDirectoryWritesNoIndex() throws IOException {
    Path warc = tmp.resolve("warc");
    try (WarcRecorder recorder = WarcRecorder.open(warc, 3_000, "Forager/test")) {
      writeSome(recorder);
    }
    assertEquals(List.of("warc"), WarcFiles.list(tmp, "").stream().map(p -> p.getFileName().toString()).toList());
  }

  @Test
  void unreadableRecordsAreLeftOutAndNamedInTheLogFiveTimesAtMost() throws IOException {
    Path warc = tmp.resolve("warc");
    try (WarcRecorder recorder = WarcRecorder.open(warc, 1L << 30, RecordCompression.gzip(1), "Forager/test")) {
      writeSome(recorder);
    }
    Path file = WarcFiles.list(warc, ".warc.gz").getFirst();
    List<String> readable = WarcIndexes.lines(file);
    try (var out = Files.newOutputStream(file, java.nio.file.StandardOpenOption.APPEND)) {
      for (int i = 0; i < 9; i++) out.write(Responses.gzip("not a WARC record\r\n\r\n".getBytes(UTF_8)));
    }
    java.util.logging.Logger logger = java.util.logging.Logger.getLogger(WarcIndexes.class.getName());
    List<String> warnings = new ArrayList<>();
    java.util.logging.Handler handler = new java.util.logging.Handler() {
      @Override public void publish(java.util.logging.LogRecord r) {
        warnings.add(java.text.MessageFormat.format(r.getMessage(), r.getParameters()));
      }
      @Override public void flush() {}
      @Override public void close() {}
    };
    logger.addHandler(handler);
    try {
      assertEquals(readable, WarcIndexes.lines(file));
    } finally {
      logger.removeHandler(handler);
    }
    assertEquals(6, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("left out of its index"), warnings.get(0));
    assertTrue(warnings.get(5).startsWith("9 WARC records of "), warnings.get(5));
  }

  /** Responses (HTML, text, gzip-encoded, a redirect without Content-Type, headers past the head read) and a 304. */
  private static void writeSome(WarcRecorder recorder) {
    for (int i = 0; i < 4; i++) {
      byte[] html = ("<html><head><title>Page " + i + "</title></head><body>" + "x".repeat(500 * i) + "</body></html>")
          .getBytes(UTF_8);
      recorder.write(Responses.response("http://www.example.org/p/" + i + "?b=2&a=1", 200, List.of(
          new Header("Content-Type", "text/html; charset=utf-8")), html, html, Optional.empty()));
      recorder.write(Responses.plain("http://example.org/t" + i + ".txt", "text " + i));
    }
    byte[] raw = Responses.gzip("<html><body>zipped</body></html>".getBytes(UTF_8));
    recorder.write(Responses.response("http://example.org/zipped", 200, List.of(
        new Header("Content-Type", "text/html"), new Header("Content-Encoding", "gzip")), raw, raw, Optional.empty()));
    recorder.write(Responses.response("http://example.org/moved", 301, List.of(new Header("Location", "/p/0")),
        new byte[0], new byte[0], Optional.empty()));
    // HTTP headers longer than the head an index line is first read from: read again whole.
    recorder.write(Responses.response("http://example.org/long-headers", 200, List.of(
        new Header("X-Filler", "y".repeat(3 * RecordHeads.HEAD_BYTES)), new Header("Content-Type", "text/plain")),
        "long".getBytes(UTF_8), "long".getBytes(UTF_8), Optional.empty()));
    FetchResult.Response notModified = Responses.response("http://example.org/t0.txt", 304,
        List.of(new Header("ETag", "\"v1\"")), new byte[0], new byte[0], Optional.empty());
    recorder.write(notModified);
  }

  /** What an index line must say about one record, or null for a record without a line. */
  private record Expected(String key, String timestamp, String url, String mime, String status, String digest,
      long length, long offset, String filename) implements Comparable<Expected> {
    @Override
    public int compareTo(Expected o) {
      return (key + " " + timestamp + " " + url + " " + offset).compareTo(o.key + " " + o.timestamp + " " + o.url + " " + o.offset);
    }
  }

  /** The expected lines of a gzip file, from jwarc reading it from start to end. */
  private static List<Expected> expectedGzip(Path file) throws IOException {
    List<WarcFiles.Read> records = WarcFiles.read(file);
    List<Expected> expected = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      long offset = records.get(i).position();
      long end = i + 1 < records.size() ? records.get(i + 1).position() : Files.size(file);
      Expected e = expected(records.get(i).record(), records.get(i).response(), file, offset, end - offset);
      if (e != null) expected.add(e);
    }
    expected.sort(null);
    return expected;
  }

  private static Expected expected(org.netpreserve.jwarc.WarcRecord record, Path file, long offset, long length)
      throws IOException {
    Optional<org.netpreserve.jwarc.HttpResponse> http = Optional.empty();
    if (record instanceof WarcResponse r) http = Optional.of(r.http());
    if (record instanceof WarcRevisit r) http = Optional.of(r.http());
    return expected(record, http, file, offset, length);
  }

  private static Expected expected(org.netpreserve.jwarc.WarcRecord record, Optional<org.netpreserve.jwarc.HttpResponse> http,
      Path file, long offset, long length) {
    if (!(record instanceof WarcResponse || record instanceof WarcRevisit)) return null;
    WarcCaptureRecord capture = (WarcCaptureRecord) record;
    String mime = record instanceof WarcRevisit ? "warc/revisit"
        : http.get().headers().first("Content-Type").map(t -> t.split(";")[0].trim()).orElse(null);
    String digest = capture.payloadDigest().map(d -> d.base32()).orElse(null);
    return new Expected(URIs.toNormalizedSurt(capture.target()), TIMESTAMP.format(capture.date()), capture.target(),
        mime, String.valueOf(http.get().status()), digest, length, offset, file.getFileName().toString());
  }

  private static List<Expected> fields(List<String> lines) throws IOException {
    List<Expected> out = new ArrayList<>();
    for (String line : lines) {
      String[] parts = line.split(" ", 3);
      JsonNode json = JSON.readTree(parts[2]);
      out.add(new Expected(parts[0], parts[1], json.get("url").asText(), text(json, "mime"), text(json, "status"),
          text(json, "digest"), Long.parseLong(json.get("length").asText()), Long.parseLong(json.get("offset").asText()),
          json.get("filename").asText()));
    }
    return out;
  }

  private static String text(JsonNode json, String field) {
    return json.has(field) ? json.get(field).asText() : null;
  }
}
