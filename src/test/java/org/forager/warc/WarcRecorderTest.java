package org.forager.warc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Header;
import org.forager.warc.WarcFiles.Read;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.WarcTargetRecord;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.Warcinfo;

/** Writes with {@link WarcRecorder} into a temporary directory and reads back with jwarc. */
class WarcRecorderTest {

  private static final long BIG = WarcRecorder.DEFAULT_MAX_FILE_BYTES;

  @TempDir Path dir;

  @Test
  void gzipEncodedResponseIsStoredAsReceivedAndReadsBack() throws IOException {
    byte[] html = "<html><body>hello, archive</body></html>".repeat(50).getBytes(UTF_8);
    byte[] raw = Responses.gzip(html);
    FetchResult.Response r = Responses.response("http://example.org/page", 200, List.of(
        new Header("Content-Type", "text/html; charset=utf-8"),
        new Header("Content-Encoding", "gzip"),
        new Header("Content-Length", String.valueOf(raw.length)),
        new Header("Set-Cookie", "a=1"),
        new Header("Set-Cookie", "b=2")), raw, html, Optional.empty());

    try (WarcRecorder recorder = WarcRecorder.open(dir, BIG, "Forager/test")) {
      recorder.write(r);
    }

    List<Path> files = WarcFiles.list(dir, ".warc.gz");
    assertEquals(1, files.size());
    List<Read> records = WarcFiles.read(files.get(0));
    assertEquals(List.of("warcinfo", "request", "response"), types(records));

    Read request = records.get(1);
    Read response = records.get(2);
    for (Read rec : List.of(request, response)) {
      WarcCaptureRecord c = (WarcCaptureRecord) rec.record();
      assertEquals(MessageVersion.WARC_1_1, c.version());
      assertEquals("http://example.org/page", c.target());
      assertEquals(Responses.STARTED, c.date());
      assertEquals("127.0.0.1", c.ipAddress().orElseThrow().getHostAddress());
    }
    assertEquals(List.of(response.record().id()), ((WarcCaptureRecord) request.record()).concurrentTo());
    assertEquals(List.of(request.record().id()), ((WarcCaptureRecord) response.record()).concurrentTo());

    assertEquals(MediaType.HTTP_REQUEST, request.record().contentType());
    assertEquals("GET", request.request().orElseThrow().method());
    assertEquals("/page", request.request().orElseThrow().target());

    assertEquals(MediaType.HTTP_RESPONSE, response.record().contentType());
    HttpResponse http = response.response().orElseThrow();
    assertEquals(200, http.status());
    assertEquals("OK", http.reason());
    assertEquals(Optional.of("gzip"), http.headers().first("Content-Encoding"));
    assertEquals(List.of("a=1", "b=2"), http.headers().all("Set-Cookie"));
    assertArrayEquals(raw, response.payload());
    assertArrayEquals(html, gunzip(response.payload()));
    assertPayloadDigestVerifies(response);
    assertEquals(WarcTruncationReason.NOT_TRUNCATED, response.record().truncated());
  }

  @ParameterizedTest(name = "{0} -> WARC-Truncated: {1}")
  @CsvSource({"MAX_PAGE_BYTES, length", "MAX_DECOMPRESSION_RATIO, length", "DEADLINE, time",
      "CONNECTION_CLOSED, disconnect", "UNDECODABLE, unspecified"})
  void truncatedResponseSaysWhyAndItsDigestCoversWhatWasKept(FetchResult.Truncation why, String field)
      throws IOException {
    byte[] kept = "0123456789".repeat(100).getBytes(UTF_8);
    FetchResult.Response r = Responses.response("http://example.org/big", 200, List.of(
        new Header("Content-Type", "application/octet-stream"),
        new Header("Content-Length", "1000000")), kept, kept, Optional.of(why));

    try (WarcRecorder recorder = WarcRecorder.open(dir, BIG, "Forager/test")) {
      recorder.write(r);
    }

    Read response = WarcFiles.read(WarcFiles.list(dir, ".warc.gz").get(0)).get(2);
    assertEquals(Optional.of(field), response.record().headers().sole("WARC-Truncated"));
    assertEquals(WarcTruncationReason.valueOf(field.toUpperCase(java.util.Locale.ROOT)),
        response.record().truncated());
    assertArrayEquals(kept, response.payload());
    assertPayloadDigestVerifies(response);
  }

  @Test
  void notModifiedIsARevisitWithHeadersOnly() throws IOException {
    FetchResult.Response r = Responses.response("http://example.org/same", 304, List.of(
        new Header("ETag", "\"v1\""),
        new Header("Date", "Sun, 01 Mar 2026 12:34:57 GMT")), new byte[0], new byte[0], Optional.empty());

    try (WarcRecorder recorder = WarcRecorder.open(dir, BIG, "Forager/test")) {
      recorder.write(r);
    }

    List<Read> records = WarcFiles.read(WarcFiles.list(dir, ".warc.gz").get(0));
    assertEquals(List.of("warcinfo", "request", "revisit"), types(records));
    WarcRevisit revisit = assertInstanceOf(WarcRevisit.class, records.get(2).record());
    assertEquals(URI.create("http://netpreserve.org/warc/1.1/revisit/server-not-modified"), revisit.profile());
    assertEquals("http://example.org/same", revisit.target());
    assertEquals(Responses.STARTED, revisit.date());
    assertEquals(List.of(records.get(1).record().id()), revisit.concurrentTo());
    assertEquals(Optional.empty(), revisit.payloadDigest());
    // What pywb and wabac.js look the original capture up by: without it neither can replay the 304.
    assertEquals(Optional.of("http://example.org/same"), revisit.headers().first("WARC-Refers-To-Target-URI"));
    HttpResponse http = records.get(2).response().orElseThrow();
    assertEquals(304, http.status());
    assertEquals(Optional.of("\"v1\""), http.headers().first("ETag"));
  }

  @Test
  void transferEncodingIsRenamedBecauseTheStoredBodyIsNotChunked() throws IOException {
    byte[] body = "not chunked any more\n".repeat(10).getBytes(UTF_8);
    FetchResult.Response r = Responses.response("http://example.org/chunked", 200, List.of(
        new Header("Content-Type", "text/plain"),
        new Header("Transfer-Encoding", "chunked")), body, body, Optional.empty());

    try (WarcRecorder recorder = WarcRecorder.open(dir, BIG, "Forager/test")) {
      recorder.write(r);
    }

    Read response = WarcFiles.read(WarcFiles.list(dir, ".warc.gz").get(0)).get(2);
    HttpResponse http = response.response().orElseThrow();
    assertEquals(Optional.empty(), http.headers().first("Transfer-Encoding"));
    assertEquals(Optional.of("chunked"), http.headers().first("X-Forager-Transfer-Encoding"));
    assertArrayEquals(body, response.payload());
    assertPayloadDigestVerifies(response);
  }

  @Test
  void warcinfoStartsTheFileAndNamesIt() throws IOException {
    try (WarcRecorder recorder = WarcRecorder.open(dir, BIG, "Forager/0.1.0")) {
      recorder.write(Responses.plain("http://example.org/", "hi"));
    }

    Path file = WarcFiles.list(dir, ".warc.gz").get(0);
    assertTrue(file.getFileName().toString().matches("forager-\\d{17}-00000-[0-9a-f]{8}\\.warc\\.gz"), file.toString());
    Read first = WarcFiles.read(file).get(0);
    Warcinfo info = assertInstanceOf(Warcinfo.class, first.record());
    assertEquals(MessageVersion.WARC_1_1, info.version());
    assertEquals(Optional.of(file.getFileName().toString()), info.filename());
    assertEquals(Optional.of("Forager/0.1.0"), first.warcinfoFields().orElseThrow().sole("software"));
    assertEquals(Optional.of("WARC File Format 1.1"), first.warcinfoFields().orElseThrow().sole("format"));
  }

  @Test
  void everyRecordIsItsOwnGzipMember() throws IOException {
    try (WarcRecorder recorder = WarcRecorder.open(dir, BIG, "Forager/test")) {
      recorder.write(Responses.plain("http://example.org/a", "a"));
      recorder.write(Responses.plain("http://example.org/b", "b"));
    }

    Path file = WarcFiles.list(dir, ".warc.gz").get(0);
    List<Read> records = WarcFiles.read(file);
    assertEquals(5, records.size());
    Set<Long> positions = new HashSet<>();
    for (Read rec : records) {
      assertTrue(positions.add(rec.position()));
      // A reader starting at the member's first byte finds exactly this record there.
      try (FileChannel ch = FileChannel.open(file).position(rec.position());
          WarcReader reader = new WarcReader(ch)) {
        assertEquals(rec.record().id(), reader.next().orElseThrow().id());
      }
    }
    byte[] bytes = Files.readAllBytes(file);
    for (long p : positions) {
      assertEquals(0x1f, bytes[(int) p] & 0xff);
      assertEquals(0x8b, bytes[(int) p + 1] & 0xff);
    }
  }

  @Test
  void fileIsWrittenUnderOpenNameAndRenamedOnClose() throws IOException {
    WarcRecorder recorder = WarcRecorder.open(dir, BIG, "Forager/test");
    assertEquals(List.of(), WarcFiles.list(dir, ""), "no file before the first write");

    recorder.write(Responses.plain("http://example.org/", "x"));
    List<Path> open = WarcFiles.list(dir, ".warc.gz.open");
    assertEquals(1, open.size());
    assertEquals(1, WarcFiles.list(dir, "").size());

    recorder.close();
    recorder.close();
    assertEquals(List.of(), WarcFiles.list(dir, ".open"));
    List<Path> done = WarcFiles.list(dir, ".warc.gz");
    assertEquals(List.of(dir.resolve(open.get(0).getFileName().toString().replace(".open", ""))), done);
    assertEquals(3, WarcFiles.read(done.get(0)).size());
    assertThrows(IllegalStateException.class, () -> recorder.write(Responses.plain("http://example.org/", "y")));
  }

  @Test
  void rotationMakesSeveralWholeFilesAndKeepsPairsTogether() throws IOException {
    try (WarcRecorder recorder = WarcRecorder.open(dir, 2_000, "Forager/test")) {
      for (int i = 0; i < 20; i++) {
        recorder.write(Responses.plain("http://example.org/" + i, ("page " + i + " ").repeat(100)));
      }
      assertTrue(WarcFiles.list(dir, ".warc.gz.open").size() <= 1);
    }

    List<Path> files = WarcFiles.list(dir, ".warc.gz");
    assertTrue(files.size() > 2, "files: " + files);
    assertEquals(List.of(), WarcFiles.list(dir, ".open"));
    List<String> urls = new ArrayList<>();
    for (int f = 0; f < files.size(); f++) {
      Path file = files.get(f);
      assertTrue(file.getFileName().toString().contains(String.format("-%05d-", f)), file.toString());
      List<Read> records = WarcFiles.read(file);
      assertEquals(Optional.of(file.getFileName().toString()), ((Warcinfo) records.get(0).record()).filename());
      assertEquals(1, records.size() % 2, "warcinfo then whole pairs");
      for (int i = 1; i < records.size(); i += 2) {
        assertEquals("request", records.get(i).record().type());
        assertEquals("response", records.get(i + 1).record().type());
        assertEquals(target(records.get(i)), target(records.get(i + 1)));
        urls.add(target(records.get(i + 1)));
      }
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 20; i++) expected.add("http://example.org/" + i);
    assertEquals(expected, urls);
  }

  /**
   * A continuous crawl of a few small sites never fills a gigabyte: without an age, its captures stayed
   * in one open file, unindexed and unpackaged, for ever (review of session 61). A file is finished at
   * its first write once it is max_file_age old; here every write finds its file old enough.
   */
  @Test
  void aFileIsFinishedAtItsFirstWriteOnceItIsMaxFileAgeOldWhateverItsSize() throws IOException {
    try (WarcRecorder recorder = WarcRecorder.open(dir, BIG, "Forager/test").maxFileAge(java.time.Duration.ofNanos(1))) {
      for (int i = 0; i < 3; i++) recorder.write(Responses.plain("http://example.org/" + i, "page " + i));
      assertEquals(List.of(), WarcFiles.list(dir, ".open"), "each finished at its write");
    }
    assertEquals(3, WarcFiles.list(dir, ".warc.gz").size());
    try (WarcRecorder recorder = WarcRecorder.open(dir.resolve("young"), BIG, "Forager/test")
        .maxFileAge(java.time.Duration.ofDays(1))) {
      for (int i = 0; i < 3; i++) recorder.write(Responses.plain("http://example.org/" + i, "page " + i));
      assertEquals(1, WarcFiles.list(dir.resolve("young"), ".open").size(), "a young file goes on");
    }
    assertThrows(IllegalArgumentException.class, () -> WarcRecorder.open(dir, BIG, "x").maxFileAge(java.time.Duration.ZERO));
  }

  @Test
  void missingDirectoryIsReportedWithTheFileName() throws IOException {
    WarcRecorder recorder = WarcRecorder.open(dir.resolve("warc"), BIG, "Forager/test");
    Files.delete(dir.resolve("warc"));

    UncheckedIOException e = assertThrows(UncheckedIOException.class,
        () -> recorder.write(Responses.plain("http://example.org/", "x")));
    assertTrue(e.getMessage().contains(dir.resolve("warc").toString()), e.getMessage());
    assertTrue(e.getMessage().contains(".warc.gz.open"), e.getMessage());
    recorder.close();
  }

  @Test
  void fileThatCannotBeRenamedIsReportedOnClose() throws IOException {
    Path warcDir = dir.resolve("warc");
    WarcRecorder recorder = WarcRecorder.open(warcDir, BIG, "Forager/test");
    recorder.write(Responses.plain("http://example.org/", "x"));
    Path open = WarcFiles.list(warcDir, ".open").get(0);
    Files.delete(open);
    Files.delete(warcDir);

    UncheckedIOException e = assertThrows(UncheckedIOException.class, recorder::close);
    assertTrue(e.getMessage().contains(open.toString()), e.getMessage());
  }

  @Test
  void openRejectsANonPositiveSize() {
    assertThrows(IllegalArgumentException.class, () -> WarcRecorder.open(dir, 0, "Forager/test"));
  }

  static List<String> types(List<Read> records) {
    return records.stream().map(r -> r.record().type()).toList();
  }

  static String target(Read read) {
    return ((WarcTargetRecord) read.record()).target();
  }

  static void assertPayloadDigestVerifies(Read response) {
    WarcRecord record = response.record();
    assertInstanceOf(WarcResponse.class, record);
    String declared = ((WarcResponse) record).payloadDigest().orElseThrow().prefixedBase32();
    assertEquals(Digests.sha1Base32(response.payload()), declared);
  }

  static byte[] gunzip(byte[] data) throws IOException {
    try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(data))) {
      return in.readAllBytes();
    }
  }

  @Test
  void requestRecordIsLeftOutWithoutARequestHead() throws IOException {
    FetchResult.Response plain = Responses.plain("http://example.org/", "x");
    FetchResult.Response noHead = new FetchResult.Response(plain.url(), plain.startedAt(), 1, new byte[0],
        Optional.empty(), "HTTP/1.1", 200, "OK", plain.headers(), plain.rawBody(), plain.body(), Optional.empty());
    try (WarcRecorder recorder = WarcRecorder.open(dir, BIG, "Forager/test")) {
      recorder.write(noHead);
    }
    List<Read> records = WarcFiles.read(WarcFiles.list(dir, ".warc.gz").get(0));
    assertEquals(List.of("warcinfo", "response"), types(records));
    WarcResponse response = (WarcResponse) records.get(1).record();
    assertEquals(List.of(), response.concurrentTo());
    assertFalse(response.ipAddress().isPresent());
  }
}
