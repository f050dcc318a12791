package org.forager.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.Outcome;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CrawlLogTest {

  @TempDir Path tmp;

  /** A fetched page's action, the same for every test of the log. */
  static CrawlAction action(String url) {
    return new CrawlAction(Instant.parse("2026-11-21T00:00:00Z"), CrawlAction.Kind.PAGE, url, Outcome.FETCHED, 200,
        Optional.of("text/html"), 10, 5, Optional.empty(), Optional.of("sha1:X"), 1, 1000, Optional.empty());
  }

  /** The log's live file as a link to {@code /dev/full} (Linux: every write fails with ENOSPC, from the kernel). */
  private Path fileOnAFullDisk() throws Exception {
    Path full = Path.of("/dev/full");
    Assumptions.assumeTrue(Files.isWritable(full), "needs /dev/full");
    Path file = Files.createDirectories(tmp.resolve("logs")).resolve("crawl.jsonl");
    Files.createSymbolicLink(file, full);
    return file;
  }

  @Test
  void anUnfinishedLastLineLeftByAKillIsCutOnOpen() throws Exception {
    Path file = tmp.resolve("logs/crawl.jsonl");
    try (CrawlLog log = CrawlLog.open(file)) {
      log.write(action("http://a.example/1"));
    }
    Files.writeString(file, "{\"ts\":\"2026-11-21T00:", StandardOpenOption.APPEND);
    try (CrawlLog log = CrawlLog.open(file)) {
      log.write(action("http://a.example/2"));
    }
    List<String> lines = Files.readAllLines(file);
    assertEquals(2, lines.size());
    assertTrue(lines.get(0).contains("\"url\":\"http://a.example/1\""));
    assertTrue(lines.get(1).startsWith("{\"ts\":\"2026-11-21T00:00:00Z\"") && lines.get(1).contains("a.example/2"));
  }

  @Test
  void aFullDiskFailsEveryWriteNamingTheFileAndCloseWritesNoMore() throws Exception {
    Path file = fileOnAFullDisk();
    CrawlLog log = CrawlLog.open(file);
    String expected = "cannot write crawl log " + file + ": No space left on device";
    assertEquals(expected, assertThrows(UncheckedIOException.class, () -> log.write(action("http://a.example/1")))
        .getMessage());
    assertEquals(expected, assertThrows(UncheckedIOException.class, () -> log.write(action("http://a.example/2")))
        .getMessage(), "a later write fails the same way, without writing");
    log.close(); // quietly: the failure was reported once, by the write
  }

  /**
   * Issue 15: appended lines reach the file together (staged: its tail), at the hand-over or with the
   * next write; after a kill they are in the file. Staged or not, the same.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void appendedLinesReachTheFileAtTheHandOverOrTheNextWrite(boolean staged) throws Exception {
    Path file = tmp.resolve("logs/crawl.jsonl");
    try (CrawlLog log = CrawlLog.open(file, Optional.empty(), Clock.systemUTC(), staged,
        Duration.ofMillis(CrawlLog.FLUSH_MILLIS))) {
      log.append(action("http://a.example/1"));
      log.append(action("http://a.example/2"));
      assertEquals(0, Files.size(file), "kept in the buffer");
      assertEquals(0, LogAsKilled.bytes(file).length, "lost with a kill");
      log.handOver();
      assertEquals(2, LogAsKilled.lines(file).size());
      log.append(action("http://a.example/3"));
      log.write(action("http://a.example/4"));
      List<String> lines = LogAsKilled.lines(file);
      assertEquals(4, lines.size());
      assertTrue(lines.get(2).contains("a.example/3") && lines.get(3).contains("a.example/4"), "in order");
      log.append(action("http://a.example/5"));
    }
    assertEquals(5, Files.readAllLines(file).size(), "close hands over the rest");
  }

  @Test
  void aHandOverToAFullDiskFailsNamingTheFile() throws Exception {
    Path file = fileOnAFullDisk();
    CrawlLog log = CrawlLog.open(file);
    log.append(action("http://a.example/1"));
    String expected = "cannot write crawl log " + file + ": No space left on device";
    assertEquals(expected, assertThrows(UncheckedIOException.class, log::handOver).getMessage());
    assertEquals(expected, assertThrows(UncheckedIOException.class, () -> log.append(action("http://a.example/2")))
        .getMessage(), "nothing more is taken");
    log.close();
  }

  /**
   * append's Javadoc: "@throws UncheckedIOException naming the file when this or an earlier write
   * failed". Its own line's write fails (the buffer overflows into a full disk) and append returns
   * normally (it did in the first version of the queued writes).
   */
  @Test
  void anAppendWhoseOwnWriteFailsThrows() throws Exception {
    Path file = fileOnAFullDisk();
    CrawlLog log = CrawlLog.open(file);
    UncheckedIOException e = assertThrows(UncheckedIOException.class,
        () -> log.append(action("http://a.example/" + "x".repeat(1 << 17)))); // bigger than the buffer
    assertEquals("cannot write crawl log " + file + ": No space left on device", e.getMessage());
    log.close();
  }
}
