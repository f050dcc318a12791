package org.forager.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.forager.config.CrawlConfig;
import org.forager.fetch.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Rotation of the crawl log into gzipped parts, what a kill at each step leaves, and retention. */
@Timeout(30)
class CrawlLogRotationTest {

  private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  @TempDir Path tmp;

  private Path live() {
    return tmp.resolve("logs/crawl.jsonl");
  }

  private static CrawlAction action(int n) {
    return new CrawlAction(Instant.parse("2026-11-21T00:00:00Z").plusSeconds(n), CrawlAction.Kind.PAGE,
        "http://a.example/" + n, Outcome.FETCHED, 200, Optional.of("text/html"), 10, 5, Optional.empty(),
        Optional.of("sha1:X"), 1, 1000, Optional.empty());
  }

  private static CrawlConfig.Log rotateAt(long bytes) {
    return new CrawlConfig.Log(bytes, false, Optional.empty());
  }

  /** The URLs of every line of the log, parts then live file, as a reader sees them. */
  private List<String> urls() throws IOException {
    List<String> urls = new ArrayList<>();
    for (Path part : CrawlLogFiles.parts(live())) {
      try (BufferedReader r = CrawlLogFiles.open(part)) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          urls.add(line.replaceAll(".*\"url\":\"([^\"]*)\".*", "$1"));
        }
      }
    }
    return urls;
  }

  private static List<String> expected(int from, int to) {
    List<String> urls = new ArrayList<>();
    for (int i = from; i < to; i++) urls.add("http://a.example/" + i);
    return urls;
  }

  private List<String> names() throws IOException {
    try (Stream<Path> files = Files.list(live().getParent())) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void theLogRotatesBySizeIntoGzippedPartsReadInOrder() throws Exception {
    try (CrawlLog log = CrawlLog.open(live(), rotateAt(1000), CLOCK)) {
      for (int i = 0; i < 40; i++) log.write(action(i));
    }
    List<Path> parts = CrawlLogFiles.parts(live());
    assertTrue(parts.size() >= 5, "a line is about 300 bytes: a part every 4 lines, got " + parts);
    for (Path p : parts.subList(0, parts.size() - 1)) {
      assertTrue(p.getFileName().toString().matches("crawl-\\d{8}T\\d{6}Z-\\d+\\.jsonl\\.gz"), p.toString());
    }
    assertEquals(live(), parts.get(parts.size() - 1));
    assertTrue(names().stream().noneMatch(n -> n.endsWith(".tmp") || n.matches("crawl-.*\\.jsonl")),
        "close waited for the compressions: " + names());
    assertEquals(expected(0, 40), urls());
    assertTrue(Files.size(live()) < 1000 + 400, "the live file is started afresh at each rotation");
  }

  @Test
  void partsAreOrderedBySequenceNotByName() throws Exception {
    try (CrawlLog log = CrawlLog.open(live(), rotateAt(1000), CLOCK)) {
      for (int i = 0; i < 50; i++) log.write(action(i)); // more than 9 parts: "-10" sorts before "-2" by name
    }
    assertTrue(CrawlLogFiles.parts(live()).size() > 10, CrawlLogFiles.parts(live()).toString());
    assertEquals(expected(0, 50), urls());
  }

  @Test
  void aRestartedLogCutsTheTornLineAndContinuesTheSequence() throws Exception {
    try (CrawlLog log = CrawlLog.open(live(), rotateAt(1000), CLOCK)) {
      for (int i = 0; i < 10; i++) log.write(action(i));
    }
    // A kill in the middle of a line.
    Files.writeString(live(), "{\"ts\":\"2026-11-21T00:", StandardOpenOption.APPEND);
    long partsBefore = CrawlLogFiles.parts(live()).size() - 1;
    try (CrawlLog log = CrawlLog.open(live(), rotateAt(1000), CLOCK)) {
      for (int i = 10; i < 30; i++) log.write(action(i));
    }
    assertEquals(expected(0, 30), urls());
    List<Path> parts = CrawlLogFiles.parts(live());
    for (int i = 0; i < parts.size() - 1; i++) {
      assertTrue(parts.get(i).getFileName().toString().endsWith("-" + (i + 1) + ".jsonl.gz"), parts.toString());
    }
    assertTrue(parts.size() - 1 > partsBefore);
  }

  @Test
  void aLeftoverGzTmpOfAKilledRotationIsNeverReadAndTheCompressionIsRedone() throws Exception {
    Files.createDirectories(live().getParent());
    Path part = live().resolveSibling("crawl-20261123T000000Z-1.jsonl");
    try (CrawlLog log = CrawlLog.open(part)) {
      for (int i = 0; i < 5; i++) log.write(action(i));
    }
    // Killed while writing the gzip: a half .gz.tmp beside the whole uncompressed part.
    Path tmpGz = part.resolveSibling(part.getFileName() + ".gz.tmp");
    try (OutputStream out = Files.newOutputStream(tmpGz)) {
      out.write(gzip(Files.readAllBytes(part)), 0, 20);
    }
    assertEquals(List.of(part), CrawlLogFiles.parts(live()), "the .gz.tmp is not a part");
    assertEquals(expected(0, 5), urls());

    try (CrawlLog log = CrawlLog.open(live(), rotateAt(1 << 20), CLOCK)) {
      log.write(action(5));
    }
    assertEquals(List.of("crawl-20261123T000000Z-1.jsonl.gz", "crawl.jsonl"), names());
    assertEquals(expected(0, 6), urls());
  }

  @Test
  void aPartLeftBesideItsFinishedGzipIsReadOnceAndRemovedAtTheNextStart() throws Exception {
    Files.createDirectories(live().getParent());
    Path part = live().resolveSibling("crawl-20261123T000000Z-1.jsonl");
    try (CrawlLog log = CrawlLog.open(part)) {
      for (int i = 0; i < 5; i++) log.write(action(i));
    }
    // Killed after the .gz was renamed into place, before the uncompressed part was deleted.
    Files.write(part.resolveSibling(part.getFileName() + ".gz"), gzip(Files.readAllBytes(part)));
    assertEquals(expected(0, 5), urls(), "read once");

    CrawlLog.open(live(), rotateAt(1 << 20), CLOCK).close();
    assertEquals(List.of("crawl-20261123T000000Z-1.jsonl.gz", "crawl.jsonl"), names());
    assertEquals(expected(0, 5), urls());
  }

  @Test
  void rotateAtStartGivesEachRunItsOwnPart() throws Exception {
    CrawlConfig.Log perRun = new CrawlConfig.Log(1 << 20, true, Optional.empty());
    try (CrawlLog log = CrawlLog.open(live(), perRun, CLOCK)) {
      for (int i = 0; i < 3; i++) log.write(action(i));
    }
    try (CrawlLog log = CrawlLog.open(live(), perRun, CLOCK)) {
      for (int i = 3; i < 5; i++) log.write(action(i));
    }
    CrawlLog.open(live(), perRun, CLOCK).close(); // a run that logged nothing
    assertEquals(3, CrawlLogFiles.parts(live()).size(), "two runs' parts, then an empty live file: " + names());
    assertEquals(expected(0, 5), urls());
  }

  @Test
  void partsOlderThanKeepAreDeletedAndTheRestKept() throws Exception {
    Path logs = Files.createDirectories(live().getParent());
    Files.write(logs.resolve("crawl-20261001T000000Z-1.jsonl.gz"), gzip(new byte[0]));
    Files.write(logs.resolve("crawl-20261030T000000Z-2.jsonl.gz"), gzip(new byte[0]));
    Files.write(logs.resolve("crawl-20261120T000000Z-3.jsonl.gz"), gzip(new byte[0]));
    Files.writeString(logs.resolve("notes.txt"), "the operator's");
    CrawlConfig.Log month = new CrawlConfig.Log(1 << 20, false, Optional.of(Duration.ofDays(30)));
    CrawlLog.open(live(), month, CLOCK).close();
    assertEquals(List.of("crawl-20261030T000000Z-2.jsonl.gz", "crawl-20261120T000000Z-3.jsonl.gz",
        CrawlLogFiles.EXPIRED, "crawl.jsonl", "notes.txt"), names());
    assertEquals(Optional.of(new CrawlLogFiles.Expired(1, 1, java.time.Instant.parse("2026-10-01T00:00:00Z"))),
        CrawlLogFiles.expired(live()), "what went is noted beside what is left");
  }

  @Test
  void withoutKeepEveryPartIsKept() throws Exception {
    Path logs = Files.createDirectories(live().getParent());
    Files.write(logs.resolve("crawl-20200101T000000Z-1.jsonl.gz"), gzip(new byte[0]));
    CrawlLog.open(live(), rotateAt(1 << 20), CLOCK).close();
    assertFalse(Files.notExists(logs.resolve("crawl-20200101T000000Z-1.jsonl.gz")));
  }

  private static byte[] gzip(byte[] data) throws IOException {
    var bytes = new java.io.ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(data);
    }
    return bytes.toByteArray();
  }
}
