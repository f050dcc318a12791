package org.forager.warc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.forager.fetch.Header;
import org.forager.store.Concurrently;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A WARC file's index lines kept in sorted runs on disk, not in the heap, and merged into its index. */
class IndexLinesTest {

  @TempDir Path tmp;

  @Test
  void linesInSeveralRunsMergeIntoTheSortedIndexAndTheRunsGo() throws IOException {
    Path indexes = tmp.resolve("indexes");
    Path warc = tmp.resolve("a.warc.gz");
    List<String> lines = new ArrayList<>();
    Random random = new Random(7);
    for (int i = 0; i < 1_000; i++) {
      // Equal lines, shared prefixes and non-ASCII text: the merge must order them as one sort does.
      lines.add("org,example)/p/" + random.nextInt(300) + (i % 7 == 0 ? " é" : "") + " {\"n\": " + (i % 50) + "}");
    }
    IndexLines kept = new IndexLines(indexes, warc.getFileName().toString(), 64);
    for (String line : lines) kept.add(line);
    assertEquals(1_000 / 64, kept.runs(), "full runs on disk, the rest in memory");
    assertEquals(1_000 / 64, runFiles(indexes).size());

    Path index = kept.writeIndex(warc);

    assertEquals(lines.stream().sorted().toList(), Files.readAllLines(index, UTF_8));
    assertEquals(List.of(index), runFilesAndIndexes(indexes), "only the index is left");
  }

  @Test
  void closingDeletesTheRunsAndStaleRunsAreRemovedButNothingElse() throws IOException {
    Path indexes = tmp.resolve("indexes");
    IndexLines kept = new IndexLines(indexes, "b.warc.gz", 2);
    for (int i = 0; i < 5; i++) kept.add("line " + i);
    assertEquals(2, runFiles(indexes).size());
    kept.close();
    assertEquals(List.of(), runFiles(indexes));

    IndexLines abandoned = new IndexLines(indexes, "c.warc.gz", 2);
    for (int i = 0; i < 4; i++) abandoned.add("line " + i); // a process that ended here leaves two runs
    Path otherIndex = Files.writeString(indexes.resolve("d.warc.gz.cdxj"), "x\n");
    Path indexBeingWritten = Files.writeString(indexes.resolve(".d.warc.gz.cdxj.1f2e.tmp"), "x\n");
    IndexLines.removeStale(indexes);
    assertEquals(List.of(), runFiles(indexes));
    assertTrue(Files.exists(otherIndex) && Files.exists(indexBeingWritten), "not runs: left alone");
    IndexLines.removeStale(tmp.resolve("absent")); // nothing to do
  }

  @Test
  void aRunThatCannotBeWrittenSaysSo() throws IOException {
    Path notADirectory = Files.writeString(tmp.resolve("indexes"), "a file");
    IndexLines kept = new IndexLines(notADirectory, "e.warc.gz", 1);
    assertThrows(IOException.class, () -> kept.add("line"));
    kept.close();
  }

  @Test
  void aFileWithMoreRecordsThanARunHoldsGetsTheIndexReadingItBackWouldBuild() throws IOException {
    Path warcDir = tmp.resolve("warc");
    Path indexes = tmp.resolve("indexes");
    int pages = IndexLines.RUN_LINES * 2 + 100;
    try (WarcRecorder recorder = WarcRecorder.open(warcDir, 1L << 30, RecordCompression.gzip(1), "Forager/test", indexes)) {
      writePages(recorder, pages);
      assertEquals(2, runFiles(indexes).size(), "two runs on disk while the file is written");
    }
    Path file = WarcFiles.list(warcDir, ".warc.gz").get(0);
    List<String> index = Files.readAllLines(WarcIndexes.indexOf(indexes, file), UTF_8);
    assertEquals(pages, index.size());
    assertEquals(WarcIndexes.lines(file), index, "byte for byte as built from the file");
    assertEquals(List.of(), runFiles(indexes), "runs deleted once the index is written");
  }

  @Test
  void linesThatCannotBeKeptCostTheIndexNotTheRecords() throws IOException {
    Path warcDir = tmp.resolve("warc");
    Path notADirectory = Files.writeString(tmp.resolve("indexes"), "a file");
    int pages = IndexLines.RUN_LINES + 10;
    try (WarcRecorder recorder = WarcRecorder.open(warcDir, 1L << 30, RecordCompression.gzip(1), "Forager/test",
        notADirectory)) {
      writePages(recorder, pages); // the first run fails: the file goes on without its lines
    }
    Path file = WarcFiles.list(warcDir, ".warc.gz").get(0);
    assertEquals(pages, WarcIndexes.lines(file).size(), "every record written");
    assertEquals("a file", Files.readString(notADirectory));
  }

  private static void writePages(WarcRecorder recorder, int pages) {
    for (int i = 0; i < pages; i++) {
      // Out of URL order, so that the runs and the merge have sorting to do.
      byte[] body = ("page " + i).getBytes(UTF_8);
      recorder.write(Responses.response("http://example.org/p/" + Integer.toString((i * 7919) % pages, 36), 200,
          List.of(new Header("Content-Type", "text/plain")), body, body, Optional.empty()));
    }
  }

  private static List<Path> runFiles(Path indexes) throws IOException {
    if (!Files.isDirectory(indexes)) return List.of();
    try (var files = Files.list(indexes)) {
      return files.filter(f -> f.getFileName().toString().contains(".cdxj.run-")).sorted().toList();
    }
  }

  private static List<Path> runFilesAndIndexes(Path indexes) throws IOException {
    try (var files = Files.list(indexes)) {
      return files.sorted().toList();
    }
  }

  @Test
  void anIndexBuiltFromTheFileGoesThroughRunsAndIsTheOneTheRecorderWrote() throws Exception {
    Path warcDir = tmp.resolve("warc");
    Path indexes = tmp.resolve("indexes");
    try (WarcRecorder recorder = WarcRecorder.open(warcDir, 1L << 30, RecordCompression.gzip(1), "Forager/test", indexes)) {
      writePages(recorder, 1_000);
    }
    Path file = WarcFiles.list(warcDir, ".warc.gz").get(0);
    Path index = WarcIndexes.indexOf(indexes, file);
    String written = Files.readString(index);
    Files.delete(index);
    // Two builds of the same index at once (an export and a replay, say), 15 runs each: their runs
    // must not meet.
    assertEquals(List.of(index, index), Concurrently.call(2, thread -> WarcIndexes.ensure(indexes, file, 64)));
    assertEquals(written, Files.readString(index), "byte for byte as the recorder wrote it");
    assertEquals(List.of(index), runFilesAndIndexes(indexes), "no run left");
  }

  @Test
  void aBuildsRunsAreRemovedAsStaleOnlyOnceADayOld() throws IOException {
    Path indexes = Files.createDirectories(tmp.resolve("indexes"));
    Path fresh = Files.writeString(indexes.resolve(".g.warc.gz.cdxj.build-1a.run-0.tmp"), "x\n");
    Path old = Files.writeString(indexes.resolve(".g.warc.gz.cdxj.build-2b.run-0.tmp"), "x\n");
    Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.from(
        java.time.Instant.now().minus(IndexLines.STALE_BUILD).minusSeconds(60)));
    IndexLines.removeStale(indexes);
    assertTrue(Files.exists(fresh), "perhaps another process's build under way");
    assertFalse(Files.exists(old));
  }

  @Test
  void aRunNeedsALine() {
    assertThrows(IllegalArgumentException.class, () -> new IndexLines(tmp, "f.warc.gz", 0));
    assertFalse(Files.exists(tmp.resolve(".f.warc.gz.cdxj.run-0.tmp")));
  }
}
