package org.forager.warc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One WARC file being written: it lives as {@code NAME.open} until {@link #finish()} renames it
 * to {@code NAME}. Not thread-safe: {@link WarcRecorder} serializes access.
 */
final class WarcFile {

  static final String OPEN_SUFFIX = ".open";

  private final Path openPath;
  private final Path finalPath;
  private final FileChannel channel;
  private long size;
  private boolean damaged;
  // Where each member starts, kept as it is written: the file's CDXJ index points at them, and
  // knowing them spares a pass that would decompress the whole file to find them.
  private long[] starts = new long[1024];
  private int records;

  private WarcFile(Path openPath, Path finalPath, FileChannel channel) {
    this.openPath = openPath;
    this.finalPath = finalPath;
    this.channel = channel;
  }

  /** Creates {@code dir/name.open}; fails rather than overwrite an existing file. */
  static WarcFile create(Path dir, String name) throws IOException {
    Path openPath = dir.resolve(name + OPEN_SUFFIX);
    FileChannel channel = FileChannel.open(openPath, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    return new WarcFile(openPath, dir.resolve(name), channel);
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
    return damaged;
  }

  /**
   * Appends the members one after the other. On failure the file is cut back to where it was, so
   * it still ends on a record boundary; if even that fails, the file is {@link #damaged()}.
   */
  void append(List<byte[]> members) throws IOException {
    long before = size;
    try {
      // One gathering write (writev) for the record pair rather than a system call per member.
      ByteBuffer[] buffers = new ByteBuffer[members.size()];
      long total = 0;
      for (int i = 0; i < buffers.length; i++) {
        buffers[i] = ByteBuffer.wrap(members.get(i));
        total += buffers[i].remaining();
      }
      for (long written = 0; written < total; ) written += channel.write(buffers);
      for (byte[] member : members) {
        recordStart(size);
        size += member.length;
      }
    } catch (IOException e) {
      try {
        channel.truncate(before);
        channel.position(before);
        size = before;
      } catch (IOException | RuntimeException t) {
        damaged = true;
        e.addSuppressed(t);
      }
      throw e;
    }
  }

  /** Each member written, in order: its offset and compressed length. */
  List<RecordSpan> spans() {
    List<RecordSpan> spans = new ArrayList<>(records);
    for (int i = 0; i < records; i++) {
      long end = i + 1 < records ? starts[i + 1] : size;
      spans.add(new RecordSpan(starts[i], end - starts[i]));
    }
    return spans;
  }

  private void recordStart(long offset) {
    if (records == starts.length) starts = Arrays.copyOf(starts, records * 2);
    starts[records++] = offset;
  }

  /** Flushes to disk, closes, and renames to the final name (never over an existing file). */
  Path finish() throws IOException {
    try (channel) {
      // Durable before it is announced complete: a reader may pick up any file without .open.
      channel.force(true);
    }
    Files.move(openPath, finalPath);
    return finalPath;
  }

  /** Closes without renaming; the {@code .open} name marks the file as incomplete. */
  void abandon() {
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing more can be done for this file; the caller is already reporting the first error.
    }
  }
}
