package org.forager.warc;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.forager.io.IoFailures;

/**
 * The CDXJ index lines of one WARC file while it is written, in bounded memory. At most
 * {@code runLines} lines are held; then they are sorted and written to a run file in the index
 * directory ({@code .NAME.cdxj.run-N.tmp}), and the index is the merge of the runs. A gigabyte file
 * holds about 80,000 records: kept whole, their lines were about 28 MB of the heap's old generation
 * for the file's whole life (a tenth of the default heap, and more for larger files; issue 15), and
 * every concurrent marking traced them. The same bound serves an index built by reading a finished
 * file back ({@link #forBuild}). Not thread-safe: one thread at a time, as its {@link WarcFile} (the
 * recorder's lock while the file is written, then the thread finishing it).
 */
final class IndexLines implements AutoCloseable {

  /** Lines held in memory at most: about 2 MB of them. */
  static final int RUN_LINES = 8_192;
  private static final String RUN_INFIX = WarcIndexes.SUFFIX + ".run-";
  /** In the names of the runs of an index built from a finished file ({@link #forBuild}). */
  private static final String BUILD_INFIX = WarcIndexes.SUFFIX + ".build-";
  /** A build's run older than this was left by a process that ended: {@link #removeStale} deletes it. */
  static final Duration STALE_BUILD = Duration.ofDays(1);
  private static final String RUN_SUFFIX = ".tmp";
  /** A run's read buffer during the merge: a 10 GB file has about 100 runs. */
  private static final int READ_BUFFER = 16 * 1024;

  private final Path indexDir;
  private final String runPrefix;
  private final int runLines;
  private List<String> held = new ArrayList<>();
  private final List<Path> runs = new ArrayList<>();

  /** The lines of the WARC file named {@code warcName}, its runs written into {@code indexDir}. */
  IndexLines(Path indexDir, String warcName) {
    this(indexDir, warcName, RUN_LINES);
  }

  IndexLines(Path indexDir, String warcName, int runLines) {
    this(indexDir, runLines, "." + warcName + RUN_INFIX);
  }

  private IndexLines(Path indexDir, int runLines, String runPrefix) {
    if (runLines < 1) throw new IllegalArgumentException("lines a run must be positive: " + runLines);
    this.indexDir = indexDir;
    this.runPrefix = runPrefix;
    this.runLines = runLines;
  }

  /**
   * The lines of a finished WARC file read back to index it ({@link WarcIndexes#ensure}): runs named
   * for this build alone ({@code .NAME.cdxj.build-RANDOM.run-N.tmp}), since another process may be
   * building the same index at once, and a crawl starting meanwhile deletes only its own kind of runs.
   */
  static IndexLines forBuild(Path indexDir, String warcName, int runLines) {
    String build = Long.toHexString(ThreadLocalRandom.current().nextLong());
    return new IndexLines(indexDir, runLines, "." + warcName + BUILD_INFIX + build + ".run-");
  }

  /**
   * Adds a line (no line break in it); writes the lines held as a run when they are {@code runLines}.
   *
   * @throws IOException if the run could not be written (the lines added so far are then lost to
   *     this index: {@link #close()} it and build the index from the file)
   */
  void add(String line) throws IOException {
    held.add(line);
    if (held.size() >= runLines) spill();
  }

  /** Run files written so far (tests). */
  int runs() {
    return runs.size();
  }

  private void spill() throws IOException {
    held.sort(null);
    Files.createDirectories(indexDir);
    Path run = indexDir.resolve(runPrefix + runs.size() + RUN_SUFFIX);
    runs.add(run); // before it is written: close() deletes a partial one
    try (BufferedWriter out = Files.newBufferedWriter(run, StandardCharsets.UTF_8,
        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      for (String line : held) out.append(line).append('\n');
    }
    held = new ArrayList<>();
  }

  /**
   * Writes the index of {@code warcFile} (finished) from every line added, sorted ({@link
   * WarcIndexes#write}): the lines held when there is no run, else the runs merged, the lines held
   * written as the last one. Then deletes the runs.
   *
   * @throws UncheckedIOException naming the file that could not be read or written
   */
  Path writeIndex(Path warcFile) {
    try {
      if (runs.isEmpty()) {
        held.sort(null);
        return WarcIndexes.write(indexDir, warcFile, held);
      }
      if (!held.isEmpty()) spill();
      try (SortedLines lines = SortedLines.open(runs, READ_BUFFER)) {
        return WarcIndexes.write(indexDir, warcFile, lines);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot merge the index lines of " + warcFile + ": " + IoFailures.reason(e), e);
    } finally {
      close();
    }
  }

  /** Forgets the lines and deletes the runs; a run that cannot be deleted is left (see {@link #removeStale}). */
  @Override
  public void close() {
    held = new ArrayList<>();
    for (Path run : runs) {
      try {
        Files.deleteIfExists(run);
      } catch (IOException e) {
        // removed at the next start
      }
    }
    runs.clear();
  }

  /**
   * Deletes the runs a process left in {@code indexDir} when it ended while writing a file: their
   * file's index is built from the file itself ({@link WarcIndexes#ensure}). Call before any recorder
   * writes into the directory. Failures are ignored: a run left over harms nothing but space.
   */
  static void removeStale(Path indexDir) {
    if (!Files.isDirectory(indexDir)) return;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(indexDir, ".*" + RUN_INFIX + "*" + RUN_SUFFIX)) {
      for (Path run : files) Files.deleteIfExists(run);
    } catch (IOException | UncheckedIOException e) {
      // left for a later start
    }
    // A build's runs may be another process's, under way: only those a day old.
    Instant stale = Instant.now().minus(STALE_BUILD);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(indexDir, ".*" + BUILD_INFIX + "*" + RUN_SUFFIX)) {
      for (Path run : files) {
        if (Files.getLastModifiedTime(run).toInstant().isBefore(stale)) Files.deleteIfExists(run);
      }
    } catch (IOException | UncheckedIOException e) {
      // left for a later start
    }
  }
}
