package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;

/** A WARC file torn by a kill is cut after its last complete record and finished. */
class WarcRepairTest {

  @TempDir Path tmp;

  /** The bytes of an unfinished WARC file holding warcinfo plus a request/response pair per URL. */
  private byte[] openFileWith(int fetches) throws Exception {
    Path dir = tmp.resolve("writer-" + fetches);
    WarcRecorder recorder = WarcRecorder.open(dir, WarcRecorder.DEFAULT_MAX_FILE_BYTES, "Forager/test");
    for (int i = 0; i < fetches; i++) recorder.write(Responses.plain("http://example.org/" + i, "page " + i));
    Path open;
    try (Stream<Path> files = Files.list(dir)) {
      open = files.filter(p -> p.toString().endsWith(".open")).findFirst().orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(open);
    recorder.close();
    return bytes;
  }

  private static List<String> targets(Path file) throws Exception {
    List<String> targets = new ArrayList<>();
    try (InputStream in = Files.newInputStream(file); WarcReader reader = new WarcReader(in)) {
      for (WarcRecord record : reader) targets.add(record.type() + " " + record.headers().first("WARC-Target-URI").orElse(""));
    }
    return targets;
  }

  @Test
  void aTornLastRecordIsCutAndTheFileFinished() throws Exception {
    byte[] two = openFileWith(2);
    byte[] three = openFileWith(3);
    Path dir = tmp.resolve("warc");
    Files.createDirectories(dir);
    // Three fetches, the last response torn in its middle.
    byte[] torn = Arrays.copyOf(three, three.length - 40);
    Files.write(dir.resolve("forager-x.warc.gz.open"), torn);

    List<WarcRepair.Repaired> repaired = WarcRepair.repair(dir);

    assertEquals(1, repaired.size());
    Path finished = dir.resolve("forager-x.warc.gz");
    assertTrue(Files.exists(finished));
    assertFalse(Files.exists(dir.resolve("forager-x.warc.gz.open")));
    List<String> records = targets(finished);
    assertEquals(List.of("warcinfo ", "request http://example.org/0", "response http://example.org/0",
        "request http://example.org/1", "response http://example.org/1", "request http://example.org/2"), records);
    assertTrue(repaired.get(0).keptBytes() > two.length, "complete records are kept, the torn one is cut");
  }

  @Test
  void aCompleteOpenFileIsKeptWholeAndAnEmptyOneRemoved() throws Exception {
    byte[] two = openFileWith(2);
    Path dir = tmp.resolve("warc");
    Files.createDirectories(dir);
    Files.write(dir.resolve("a.warc.gz.open"), two);
    Files.write(dir.resolve("b.warc.gz.open"), Arrays.copyOf(two, 10));

    WarcRepair.repair(dir);

    assertEquals(two.length, Files.size(dir.resolve("a.warc.gz")));
    assertEquals(5, targets(dir.resolve("a.warc.gz")).size());
    assertFalse(Files.exists(dir.resolve("b.warc.gz")), "no complete record: nothing to keep");
    assertFalse(Files.exists(dir.resolve("b.warc.gz.open")));
  }

  @Test
  void garbageAfterTheLastRecordIsCut() throws Exception {
    byte[] two = openFileWith(2);
    Path dir = tmp.resolve("warc");
    Files.createDirectories(dir);
    byte[] withGarbage = Arrays.copyOf(two, two.length + 100);
    Arrays.fill(withGarbage, two.length, withGarbage.length, (byte) 0x1f);
    Files.write(dir.resolve("c.warc.gz.open"), withGarbage);

    WarcRepair.repair(dir);

    assertEquals(two.length, Files.size(dir.resolve("c.warc.gz")));
  }
}
