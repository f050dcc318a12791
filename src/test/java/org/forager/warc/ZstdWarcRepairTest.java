package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.forager.testweb.ZstdWarcs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A {@code .warc.zst} file torn by a kill is cut after its last complete frame and finished, as gzip files are. */
@Timeout(30)
class ZstdWarcRepairTest {

  @TempDir Path tmp;

  /** The bytes of an unfinished zstd WARC file holding warcinfo plus a request/response pair per URL. */
  private byte[] openFileWith(int fetches) throws Exception {
    Path dir = tmp.resolve("writer-" + fetches);
    WarcRecorder recorder = WarcRecorder.open(dir, WarcRecorder.DEFAULT_MAX_FILE_BYTES, RecordCompression.zstd(3),
        "Forager/test");
    for (int i = 0; i < fetches; i++) recorder.write(Responses.plain("http://example.org/" + i, "page " + i));
    Path open;
    try (Stream<Path> files = Files.list(dir)) {
      open = files.filter(p -> p.toString().endsWith(".warc.zst.open")).findFirst().orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(open);
    recorder.close();
    return bytes;
  }

  private static List<String> targets(Path file) {
    return ZstdWarcs.eachRecord(file,
        (record, offset) -> record.type() + " " + record.headers().first("WARC-Target-URI").orElse(""));
  }

  private Path warcDir() throws Exception {
    return Files.createDirectories(tmp.resolve("warc"));
  }

  @Test
  void aTornLastRecordIsCutAndTheFileFinished() throws Exception {
    byte[] two = openFileWith(2);
    byte[] three = openFileWith(3);
    Path dir = warcDir();
    Files.write(dir.resolve("forager-x.warc.zst.open"), Arrays.copyOf(three, three.length - 20));

    List<WarcRepair.Repaired> repaired = WarcRepair.repair(dir);

    assertEquals(1, repaired.size());
    Path finished = dir.resolve("forager-x.warc.zst");
    assertTrue(Files.exists(finished));
    assertFalse(Files.exists(dir.resolve("forager-x.warc.zst.open")));
    assertEquals(List.of("warcinfo ", "request http://example.org/0", "response http://example.org/0",
        "request http://example.org/1", "response http://example.org/1", "request http://example.org/2"),
        targets(finished));
    assertTrue(repaired.get(0).keptBytes() > two.length, "complete records are kept, the torn one is cut");
    assertEquals(three.length - 20, repaired.get(0).keptBytes() + repaired.get(0).cutBytes());
  }

  @Test
  void aCompleteOpenFileIsKeptWholeAndAnEmptyOneRemoved() throws Exception {
    byte[] two = openFileWith(2);
    Path dir = warcDir();
    Files.write(dir.resolve("a.warc.zst.open"), two);
    Files.write(dir.resolve("b.warc.zst.open"), Arrays.copyOf(two, 10));

    WarcRepair.repair(dir);

    assertEquals(two.length, Files.size(dir.resolve("a.warc.zst")));
    assertEquals(5, targets(dir.resolve("a.warc.zst")).size());
    assertFalse(Files.exists(dir.resolve("b.warc.zst")), "no complete record: nothing to keep");
    assertFalse(Files.exists(dir.resolve("b.warc.zst.open")));
  }

  @Test
  void zerosOrGarbageAfterTheLastRecordAreCut() throws Exception {
    byte[] two = openFileWith(2);
    Path dir = warcDir();
    // A crash after the file grew but before its blocks were written leaves zeros.
    Files.write(dir.resolve("zeros.warc.zst.open"), Arrays.copyOf(two, two.length + 4096));
    byte[] garbage = Arrays.copyOf(two, two.length + 100);
    Arrays.fill(garbage, two.length, garbage.length, (byte) 0x28);
    Files.write(dir.resolve("garbage.warc.zst.open"), garbage);

    WarcRepair.repair(dir);

    assertEquals(two.length, Files.size(dir.resolve("zeros.warc.zst")));
    assertEquals(two.length, Files.size(dir.resolve("garbage.warc.zst")));
  }

  @Test
  void aLastFrameWhoseChecksumFailsIsCut() throws Exception {
    byte[] two = openFileWith(2);
    byte[] three = openFileWith(3);
    Path dir = warcDir();
    byte[] corrupt = three.clone();
    corrupt[corrupt.length - 1] ^= 0x55; // the last byte of the last frame: its content checksum
    Files.write(dir.resolve("c.warc.zst.open"), corrupt);

    List<WarcRepair.Repaired> repaired = WarcRepair.repair(dir);

    long kept = repaired.get(0).keptBytes();
    assertTrue(kept > two.length && kept < three.length, "only the corrupt response is cut: " + kept);
    assertEquals(List.of("warcinfo ", "request http://example.org/0", "response http://example.org/0",
        "request http://example.org/1", "response http://example.org/1", "request http://example.org/2"),
        targets(dir.resolve("c.warc.zst")));
  }

  @Test
  void gzipFilesAreStillRepairedAsGzip() throws Exception {
    Path writer = tmp.resolve("gzip-writer");
    WarcRecorder recorder = WarcRecorder.open(writer, WarcRecorder.DEFAULT_MAX_FILE_BYTES, "Forager/test");
    recorder.write(Responses.plain("http://example.org/0", "page 0"));
    Path open;
    try (Stream<Path> files = Files.list(writer)) {
      open = files.filter(p -> p.toString().endsWith(".warc.gz.open")).findFirst().orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(open);
    recorder.close();
    Path dir = warcDir();
    Files.write(dir.resolve("g.warc.gz.open"), Arrays.copyOf(bytes, bytes.length + 10));

    WarcRepair.repair(dir);

    assertEquals(bytes.length, Files.size(dir.resolve("g.warc.gz")));
  }
}
