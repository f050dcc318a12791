package org.forager.warc;

import java.io.BufferedInputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import java.util.Optional;
import org.forager.io.IoFailures;
import org.forager.io.ReplacedFile;

/**
 * The CDXJ index of each finished WARC file ({@link CdxjLines} says what a line holds), the form
 * pywb and OpenWayback look pages up in: {@code NAME.cdxj} for the WARC file {@code NAME} (e.g.
 * {@code forager-…​.warc.gz.cdxj}) in an index directory of its own, so that the WARC directory
 * holds WARC files only (a crawl's are {@code DATA_DIR/indexes/} and {@code DATA_DIR/warc/}, pywb's
 * collection layout). Lines are sorted (by SURT, then timestamp: the order a binary search needs),
 * one per response, revisit or resource record.
 *
 * <p>{@link WarcRecorder} builds a file's lines from the records as it writes them, and writes the
 * index when the file is finished, without reading the file back. An index is written through a
 * temporary file renamed into place, so an index file is always whole; it is derived data, and a
 * missing one (a crawl killed between finishing a file and indexing it, files finished by
 * {@link WarcRepair}, files from before indexes existed) is built by {@link #ensure}, which reads
 * the file back: the same lines, byte for byte ({@link CdxjLines} formats both). Safe to use from
 * many threads and processes at once: each writes its own temporary file, and two builds of one
 * index write the same lines.
 */
public final class WarcIndexes {

  /** The name of a crawl's index directory in its data directory, beside {@code warc}. */
  public static final String DIRECTORY = "indexes";
  /** Appended to the WARC file's name to name its index. */
  public static final String SUFFIX = ".cdxj";

  private static final System.Logger LOG = System.getLogger(WarcIndexes.class.getName());
  /** Records left out of an index that are each named in the log; a damaged file could name millions. */
  private static final int MAX_WARNINGS_PER_FILE = 5;

  private WarcIndexes() {}

  /** The index file of {@code warcFile} in {@code indexDir}; it may not exist yet. */
  public static Path indexOf(Path indexDir, Path warcFile) {
    return indexDir.resolve(warcFile.getFileName() + SUFFIX);
  }

  /**
   * The finished WARC files in {@code warcDir} that have no index in {@code indexDir} (left so by a
   * killed run, or from before indexes existed), in name order; none when the directory does not exist.
   *
   * @throws UncheckedIOException naming the directory, if it cannot be listed
   */
  public static List<Path> unindexed(Path warcDir, Path indexDir) {
    if (!Files.isDirectory(warcDir)) return List.of();
    try (var files = Files.list(warcDir)) {
      return files.filter(f -> formatOf(f.getFileName().toString()).isPresent())
          .filter(f -> !Files.isRegularFile(indexOf(indexDir, f)))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + warcDir + ": " + IoFailures.reason(e, warcDir), e);
    }
  }

  /**
   * The index of a finished WARC file ({@code .warc.gz} or {@code .warc.zst}), built from the file
   * and written first if it does not exist.
   *
   * @throws UncheckedIOException naming the file, if it cannot be read or its index written
   * @throws IllegalArgumentException if the file's name ends neither in .warc.gz nor .warc.zst
   */
  public static Path ensure(Path indexDir, Path warcFile) {
    return ensure(indexDir, warcFile, IndexLines.RUN_LINES);
  }

  /**
   * As {@link #ensure(Path, Path)}, holding at most {@code runLines} lines in memory: a file's lines
   * go through {@link IndexLines} as the file is read (runs of their own, named for this build), so
   * that indexing a 10 GB file does not hold its ~200 MB of lines.
   */
  static Path ensure(Path indexDir, Path warcFile, int runLines) {
    Path index = indexOf(indexDir, warcFile);
    if (Files.isRegularFile(index)) return index;
    try (IndexLines lines = IndexLines.forBuild(indexDir, warcFile.getFileName().toString(), runLines)) {
      forEachLine(warcFile, line -> {
        try {
          lines.add(line);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot write the index lines of " + warcFile + ": " + IoFailures.reason(e), e);
        }
      });
      return lines.writeIndex(warcFile);
    }
  }

  /**
   * Writes the index of a finished WARC file, replacing any earlier one.
   *
   * @param lines the index's lines, sorted
   * @throws UncheckedIOException naming the index, if it cannot be written
   */
  static Path write(Path indexDir, Path warcFile, List<String> lines) {
    return write(indexDir, warcFile, lines.iterator());
  }

  /**
   * As {@link #write(Path, Path, List)}, with the lines as they come, sorted ({@link IndexLines}
   * merges a file's runs into it).
   *
   * @throws UncheckedIOException naming the index, if it cannot be written, or as {@code lines}
   *     throws it
   */
  static Path write(Path indexDir, Path warcFile, Iterator<String> lines) {
    Path index = indexOf(indexDir, warcFile);
    try {
      Files.createDirectories(index.getParent());
      // Whole or not at all: replay tools take any .cdxj file as whole, and may read it as another user.
      ReplacedFile.write(index, temp -> {
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE);
            BufferedWriter out = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(channel),
                StandardCharsets.UTF_8), 1 << 16)) {
          while (lines.hasNext()) out.append(lines.next()).append('\n');
          out.flush();
          // On disk before it is announced: a reader takes any .cdxj file as whole.
          channel.force(true);
        }
        return index;
      });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the index " + index + ": " + IoFailures.reason(e, index), e);
    }
    return index;
  }

  /** The sorted index lines of a finished file, read back from it (as {@link #forEachLine} gives them). */
  static List<String> lines(Path warcFile) {
    List<String> lines = new ArrayList<>();
    forEachLine(warcFile, lines::add);
    lines.sort(null);
    return lines;
  }

  /**
   * Gives {@code sink} the index line of each record of a finished file, in the file's order, as the
   * file is read: the records found by scanning its gzip members or zstd frames, each one's head
   * parsed where it lies. A record that cannot be read is logged and left out.
   */
  static void forEachLine(Path warcFile, Consumer<String> sink) {
    String filename = warcFile.getFileName().toString();
    String fileField = CdxjLines.fileField(filename);
    RecordCompression.Format format = formatOf(filename)
        .orElseThrow(() -> new IllegalArgumentException("not a .warc.gz or .warc.zst file: " + warcFile));
    try (FileChannel file = FileChannel.open(warcFile); RecordHeads heads = new RecordHeads(file, format);
        InputStream in = new BufferedInputStream(Files.newInputStream(warcFile), 1 << 16)) {
      int[] leftOut = {0};
      Consumer<RecordSpan> record = span -> {
        Optional<String> line;
        try {
          line = ReadCaptures.of(heads, span).map(f -> CdxjLines.line(CdxjLines.start(f), span, fileField));
        } catch (IOException | RuntimeException e) {
          // Lenient as with anything read: one unreadable record (or one whose URL has no SURT form)
          // must not cost the file its index.
          if (++leftOut[0] <= MAX_WARNINGS_PER_FILE) {
            LOG.log(System.Logger.Level.WARNING, "WARC record at offset {0} of {1} left out of its index: {2}",
                span.offset(), warcFile, e.toString());
          }
          return;
        }
        line.ifPresent(sink);
      };
      switch (format) {
        case GZIP -> GzipMemberScan.scan(in, record);
        case ZSTD -> ZstdFrameScan.scan(in, record);
      }
      if (leftOut[0] > MAX_WARNINGS_PER_FILE) {
        LOG.log(System.Logger.Level.WARNING, "{0} WARC records of {1} left out of its index in all",
            leftOut[0], warcFile);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + warcFile + " to index it: " + e, e);
    }
  }

  /** The records' compression a WARC file name says, if it names a finished Forager WARC file. */
  public static Optional<RecordCompression.Format> formatOf(String fileName) {
    for (RecordCompression.Format f : RecordCompression.Format.values()) {
      if (fileName.endsWith(f.suffix())) return Optional.of(f);
    }
    return Optional.empty();
  }
}
