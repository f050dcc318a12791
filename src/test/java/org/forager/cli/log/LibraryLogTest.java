package org.forager.cli.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

class LibraryLogTest {

  @TempDir Path tmp;

  private final AtomicLong nanos = new AtomicLong();
  private final LibraryLog log = new LibraryLog(nanos::get, LibraryLog.MAX_FILE_BYTES);

  private List<String> lines(Path file) throws Exception {
    return Files.readAllLines(file);
  }

  @Test
  void linesLoggedBeforeTheFileIsKnownAreWrittenWhenItIsAndTheFileAppearsWithItsFirstLine() throws Exception {
    Path file = tmp.resolve("data/logs/library.log");
    log.open(file);
    assertFalse(Files.exists(file), "no line, no file");
    log.close();
    log.log("INFO", "com.zaxxer.hikari.HikariDataSource", "HikariPool-1 - Starting...", Optional.empty());
    log.open(file);
    log.log("WARN", "crawlercommons.sitemaps.SiteMapParser", "Bad url: [x]", Optional.empty());
    log.close();
    List<String> lines = lines(file);
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(lines.get(0).endsWith(" INFO com.zaxxer.hikari.HikariDataSource: HikariPool-1 - Starting..."), lines.get(0));
    assertTrue(lines.get(1).endsWith(" WARN crawlercommons.sitemaps.SiteMapParser: Bad url: [x]"), lines.get(1));
  }

  @Test
  void atMostAThousandLinesWaitForTheFileAndTheRestAreCounted() throws Exception {
    for (int i = 0; i < LibraryLog.MAX_BUFFERED + 5; i++) {
      log.log("WARN", "logger" + i, "early " + i, Optional.empty());
    }
    Path file = tmp.resolve("library.log");
    log.open(file);
    List<String> lines = lines(file);
    assertEquals(LibraryLog.MAX_BUFFERED + 1, lines.size());
    assertTrue(lines.get(0).endsWith("logger0: early 0"), lines.get(0));
    assertTrue(lines.get(lines.size() - 1).endsWith("forager: 5 more lines were dropped before the log was opened"),
        lines.get(lines.size() - 1));
  }

  @Test
  void controlCharactersAreEscapedAndStackTracesBounded() throws Exception {
    Path file = tmp.resolve("library.log");
    log.open(file);
    Exception deep = new IllegalStateException("bad\u001b[2J");
    for (int i = 0; i < 10; i++) deep = new RuntimeException("wrapped " + i, deep);
    log.log("ERROR", "lib\nforged", "line\none\u009b", Optional.of(deep));
    log.close();
    String text = Files.readString(file);
    assertTrue(text.contains("ERROR lib\\x0aforged: line\\x0aone\\x9b"), text);
    assertTrue(text.chars().noneMatch(c -> c < 0x20 && c != '\n'), text);
    assertTrue(text.lines().count() <= 1 + LibraryLog.MAX_TRACE_LINES + 10, text);
  }

  @Test
  void aLoggerGetsSixtyLinesAMinuteAndANoteOfWhatWasSuppressed() throws Exception {
    Path file = tmp.resolve("library.log");
    log.open(file);
    for (int i = 0; i < 50_000; i++) log.log("WARN", "noisy", "Bad url: " + i, Optional.empty());
    log.log("WARN", "quiet", "still heard", Optional.empty());
    nanos.addAndGet(TimeUnit.SECONDS.toNanos(61));
    log.log("WARN", "noisy", "next minute", Optional.empty());
    log.close();
    List<String> lines = lines(file);
    assertEquals(LibraryLog.LINES_PER_MINUTE + 3, lines.size(), String.join("\n", lines));
    assertTrue(lines.stream().anyMatch(l -> l.endsWith("quiet: still heard")));
    assertTrue(lines.stream().anyMatch(l -> l.contains("noisy: suppressed " + (50_000 - LibraryLog.LINES_PER_MINUTE)
        + " lines")), String.join("\n", lines));
    assertTrue(lines.get(lines.size() - 1).endsWith("noisy: next minute"));
  }

  @Test
  void aFileOverItsSizeIsRotatedOnce() throws Exception {
    LibraryLog small = new LibraryLog(nanos::get, 1_000);
    Path file = tmp.resolve("library.log");
    small.open(file);
    for (int i = 0; i < 30; i++) {
      nanos.addAndGet(TimeUnit.MINUTES.toNanos(2));
      small.log("WARN", "lib", "x".repeat(100), Optional.empty());
    }
    small.close();
    assertTrue(Files.size(file) < 1_300 && Files.size(tmp.resolve("library.log.1")) < 1_300);
    assertFalse(Files.exists(tmp.resolve("library.log.2")));
  }

  @Test
  void slf4jAndJavaUtilLoggingLinesReachTheLog() throws Exception {
    Path file = tmp.resolve("library.log");
    log.open(file);
    new LibraryLogger("org.example.Lib", log).warn("Bad url: [{}] in {}", "\u001b[31m", "sitemap");
    new LibraryLogger("org.example.Lib", log).debug("not written");
    assertTrue(new LibraryLogger("x", log).isEnabledForLevel(Level.INFO));
    Logger jul = Logger.getLogger("org.example.Jul");
    jul.setUseParentHandlers(false);
    JulToLibraryLog handler = new JulToLibraryLog(log);
    jul.addHandler(handler);
    try {
      jul.warning("driver says \u0007");
      jul.fine("not written");
    } finally {
      jul.removeHandler(handler);
    }
    log.close();
    List<String> lines = lines(file);
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(lines.get(0).endsWith("WARN org.example.Lib: Bad url: [\\x1b[31m] in sitemap"), lines.get(0));
    assertTrue(lines.get(1).endsWith("WARN org.example.Jul: driver says \\x07"), lines.get(1));
  }
}
