package org.forager.warc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;

/**
 * One WARC file being written, with the CDXJ index lines of the records it holds ({@link IndexLines},
 * when its recorder writes indexes): it lives as {@code NAME.open} until {@link #finish()} renames it
 * to {@code NAME}. Not thread-safe: {@link WarcRecorder} serializes access.
 */
final class WarcFile {

  static final String OPEN_SUFFIX = ".open";
  private static final System.Logger LOG = System.getLogger(WarcFile.class.getName());

  /**
   * One compressed record (a gzip member or zstd frame) to append; the caller closes it after.
   *
   * @param cdxjStart its index line up to its place in the file ({@link CdxjLines#start}), when
   *     the file's index lists it
   */
  record Member(Compressed compressed, Optional<String> cdxjStart) {}

  private final Path openPath;
  private final Path finalPath;
  private final FileWrites writes;
  private final String fileField;
  private long size;
  // Each line is finished as its record is written (its place is known then): the index is written
  // from them when the file is finished, without reading the file back. Empty when the recorder
  // writes no index, or when keeping the lines failed (the index is then built from the file).
  private Optional<IndexLines> indexLines;

  private WarcFile(Path openPath, Path finalPath, FileWrites writes, Optional<IndexLines> indexLines) {
    this.openPath = openPath;
    this.finalPath = finalPath;
    this.writes = writes;
    this.fileField = CdxjLines.fileField(finalPath.getFileName().toString());
    this.indexLines = indexLines;
  }

  /**
   * Creates {@code dir/name.open}; fails rather than overwrite an existing file. With an index
   * directory, the file keeps its records' index lines, their runs written there. With {@code
   * direct}, it is written with direct I/O where the file system takes it ({@link
   * StagedDirectWrites}, for a file of about {@code fileBytes}), else through the page cache.
   */
  static WarcFile create(Path dir, String name, Optional<Path> indexDir, boolean direct, long fileBytes)
      throws IOException {
    Path openPath = dir.resolve(name + OPEN_SUFFIX);
    FileChannel channel = FileChannel.open(openPath, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    Optional<StagedDirectWrites> staged = direct ? StagedDirectWrites.open(openPath, fileBytes) : Optional.empty();
    FileWrites writes;
    if (staged.isPresent()) {
      channel.close();
      writes = staged.get();
    } else {
      writes = new BufferedWrites(channel);
    }
    return new WarcFile(openPath, dir.resolve(name), writes, indexDir.map(d -> new IndexLines(d, name)));
  }

  /** The path the file has while it is written. */
  Path openPath() {
    return openPath;
  }

  /** The path the file has once finished. */
  Path finalPath() {
    return finalPath;
  }

  /** Bytes written so far. */
  long size() {
    return size;
  }

  /**
   * Whether a failed append left a partial record that could not be cut off; such a file must not
   * be written to again or renamed as if it were complete.
   */
  boolean damaged() {
    return writes.damaged();
  }

  /**
   * Appends the members one after the other, and keeps their index lines. On failure the file is
   * as it was, so it still ends on a record boundary, and no line is kept; if that cannot be, the
   * file is {@link #damaged()}.
   */
  void append(List<Member> members) throws IOException {
    ByteBuffer[] buffers = new ByteBuffer[members.size()];
    long total = 0;
    for (int i = 0; i < buffers.length; i++) {
      buffers[i] = members.get(i).compressed().bytes();
      total += members.get(i).compressed().length();
    }
    writes.append(buffers, total);
    for (Member member : members) {
      RecordSpan span = new RecordSpan(size, member.compressed().length());
      if (member.cdxjStart().isPresent()) keepIndexLine(CdxjLines.line(member.cdxjStart().get(), span, fileField));
      size += span.length();
    }
  }

  /** The index is derived data: a line that cannot be kept costs the index, not the record. */
  private void keepIndexLine(String line) {
    if (indexLines.isEmpty()) return;
    try {
      indexLines.get().add(line);
    } catch (IOException | UncheckedIOException e) {
      indexLines.get().close();
      indexLines = Optional.empty();
      LOG.log(System.Logger.Level.WARNING, "cannot keep the index lines of {0}: {1}; forager export builds its index",
          openPath, e.toString());
    }
  }

  /**
   * Writes the index of the finished file from its lines into the index directory and forgets them;
   * nothing when the file kept none (no index directory, or keeping them failed).
   *
   * @throws UncheckedIOException naming what could not be read or written
   */
  void writeIndex() {
    if (indexLines.isEmpty()) return;
    IndexLines lines = indexLines.get();
    indexLines = Optional.empty();
    lines.writeIndex(finalPath);
  }

  /** Flushes to disk, closes, and renames to the final name (never over an existing file). */
  Path finish() throws IOException {
    // Durable before it is announced complete: a reader may pick up any file without .open.
    writes.finish();
    Files.move(openPath, finalPath);
    return finalPath;
  }

  /** Closes without renaming; the {@code .open} name marks the file as incomplete. */
  void abandon() {
    indexLines.ifPresent(IndexLines::close); // repaired files are indexed from themselves
    indexLines = Optional.empty();
    writes.abandon();
  }
}
