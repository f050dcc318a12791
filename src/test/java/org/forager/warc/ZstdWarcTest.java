package org.forager.warc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.Header;
import org.forager.testweb.ZstdWarcs;
import org.forager.warc.WarcFiles.Read;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcResponse;

/** {@code warc.compression: zstd}: one zstd frame per record in {@code .warc.zst} files, read back by jwarc. */
@Timeout(30)
class ZstdWarcTest {

  private static final long BIG = WarcRecorder.DEFAULT_MAX_FILE_BYTES;
  private static final byte[] ZSTD_MAGIC = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD};

  @TempDir Path dir;

  private Path writeTwoFetches(int level) {
    byte[] decoded = "<p>coded</p>".repeat(200).getBytes(UTF_8);
    try (WarcRecorder recorder = WarcRecorder.open(dir, BIG, RecordCompression.zstd(level), "Forager/test")) {
      recorder.write(Responses.plain("http://example.org/a", "page a ".repeat(500)));
      recorder.write(Responses.response("http://example.org/gz", 200,
          List.of(new Header("Content-Encoding", "gzip")), Responses.gzip(decoded), decoded, Optional.empty()));
    }
    List<Path> files = WarcFiles.list(dir, "");
    assertEquals(1, files.size(), "one finished file, nothing left .open: " + files);
    return files.get(0);
  }

  @Test
  void everyRecordReadsBackWithJwarcAndItsDigestsVerify() throws IOException {
    Path file = writeTwoFetches(3);
    assertEquals(true, file.getFileName().toString().endsWith(".warc.zst"), file.toString());
    assertArrayEquals(ZSTD_MAGIC, Arrays.copyOf(Files.readAllBytes(file), 4), "starts with a zstd frame");
    try (WarcReader reader = new WarcReader(file)) {
      reader.next();
      assertEquals(WarcCompression.ZSTD, reader.compression());
    }

    List<Read> records = read(file);
    assertEquals(List.of("warcinfo", "request", "response", "request", "response"), WarcRecorderTest.types(records));
    WarcRecorderTest.assertPayloadDigestVerifies(records.get(2));
    WarcRecorderTest.assertPayloadDigestVerifies(records.get(4));
    assertEquals("page a ".repeat(500), new String(records.get(2).payload(), UTF_8));
  }

  /**
   * Every record, each read by jwarc from its own frame's offset (see {@link ZstdWarcs} for why not
   * one reader over the file). Fails on any jwarc warning and on a block digest that does not verify.
   */
  static List<Read> read(Path file) {
    return ZstdWarcs.eachRecord(file, (record, offset) -> {
      Read read = WarcFiles.readOne(record, offset);
      assertEquals(record.blockDigest(), record.calculatedBlockDigest(), "block digest of " + record);
      return read;
    });
  }

  @Test
  void eachRecordIsItsOwnFrame() throws IOException {
    Path file = writeTwoFetches(1);
    assertEquals(5, ZstdWarcs.frameOffsets(file).size(), "warcinfo and two request/response pairs");
    assertEquals(List.of("warcinfo", "request", "response", "request", "response"),
        WarcRecorderTest.types(read(file)));
  }

  @Test
  void plainZstdDecompressesTheFileIntoAnUncompressedWarc() throws IOException {
    // Without a dictionary the file is an ordinary zstd stream: `zstd -d` then any WARC reader.
    Path file = writeTwoFetches(1);
    byte[] warc;
    try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(Files.readAllBytes(file)))) {
      warc = in.readAllBytes();
    }
    Path plain = dir.resolve("plain.warc");
    Files.write(plain, warc);
    List<Read> records = WarcFiles.read(plain);
    assertEquals(List.of("warcinfo", "request", "response", "request", "response"), WarcRecorderTest.types(records));
  }

  @Test
  void aResponseThatWasGzipEncodedKeepsItsWireBytesAsPayload() throws IOException {
    List<Read> records = read(writeTwoFetches(1));
    WarcResponse response = (WarcResponse) records.get(4).record();
    assertEquals("http://example.org/gz", response.target());
    assertArrayEquals("<p>coded</p>".repeat(200).getBytes(UTF_8), WarcRecorderTest.gunzip(records.get(4).payload()));
  }

  @Test
  void levelsOutOfRangeAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> RecordCompression.zstd(0));
    assertThrows(IllegalArgumentException.class, () -> RecordCompression.zstd(20));
    assertThrows(IllegalArgumentException.class, () -> RecordCompression.gzip(10));
  }
}
