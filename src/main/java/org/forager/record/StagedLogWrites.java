package org.forager.record;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.forager.warc.StagedTail;

/**
 * Lines staged in a mapped tail ({@link StagedTail}, {@code crawl.jsonl.tail}) and written to the
 * file a region at a time: a line costs a copy into the mapping, a hand-over one 8-byte store, and
 * the file a {@code pwrite(2)} or two a region (and the flusher's, a few a second at most) instead of
 * a {@code write(2)} a hand-over (issue 15: those were 1.7 % of a crawl's CPU). The tail's pages are the page cache's, so a line handed over
 * survives a kill of the process as a written one does; the next {@link CrawlLog#open} writes what
 * the tail holds into the file at its place ({@link StagedTail#recover}) before it cuts a torn line.
 *
 * <p>What readers of the file see: a full region as soon as it fills; the lines handed over since,
 * at the latest when the log's flusher next runs ({@link #flush}). A region's write may end inside a
 * line; the file is completed up to the last line handed over at the next hand-over, so that it does
 * not stay torn while the log is busy.
 *
 * <p>Failures: a line is refused (nothing staged) when the file system has no room for it ({@link
 * StagedTail#requireRoomFor}); a region's write that fails leaves what the tail published for the
 * next open. Used under the log's lock; not thread-safe.
 */
final class StagedLogWrites implements LogWrites {

  /**
   * The region: what one {@code pwrite} takes to the file, about 300 lines of a crawl. A line cost
   * the writing thread 1.3-1.9 µs of CPU with 64 KiB regions, 1.4-1.5 with 256 KiB, 1.2-1.4 with
   * 1 MiB, 4.1-5.8 with a {@code write(2)} a line (best batches on a busy machine: docs/benchmarks.md,
   * "Issue 15: the crawl log's lines staged"); readers lag by the flusher's period, whatever the region.
   */
  static final int REGION_BYTES = 1 << 18;

  /** The tail's header: a page, so that the region starts on one. */
  private static final int HEADER_BYTES = 1 << 12;

  private final FileChannel file;
  private final StagedTail tail;
  private final ByteBuffer region;
  private long base; // the file offset of the region's first byte: a multiple of REGION_BYTES
  private int length; // bytes staged in the region
  private int published; // of which the tail states
  private int written; // of which the file holds
  private boolean torn; // the file ends inside a line: a full region was written

  private StagedLogWrites(FileChannel file, StagedTail tail) throws IOException {
    this.file = file;
    this.tail = tail;
    this.region = tail.region();
    long size = file.size();
    base = size / REGION_BYTES * REGION_BYTES;
    length = (int) (size - base);
    published = length;
    written = length;
  }

  /**
   * Staged writes to {@code path} (created if need be), with its tail created beside it (which must
   * not exist: {@link StagedTail#recover} first); empty where the system or the file system takes no
   * tail, or it cannot be made (then nothing is left behind).
   */
  static Optional<StagedLogWrites> open(Path path) throws IOException {
    if (Files.exists(path) && !Files.isRegularFile(path)) return Optional.empty(); // a pipe, a device
    FileChannel file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    try {
      FileStore fileSystem = Files.getFileStore(path);
      if (!StagedTail.takes(fileSystem)) {
        file.close();
        return Optional.empty();
      }
      StagedTail tail = StagedTail.create(path, file, fileSystem, HEADER_BYTES, REGION_BYTES);
      return Optional.of(new StagedLogWrites(file, tail));
    } catch (IOException | RuntimeException e) {
      // A tail is an optimization: where it cannot be made, the file is written as before.
      file.close();
      return Optional.empty();
    }
  }

  @Override
  public void write(byte[] line) throws IOException {
    tail.requireRoomFor(line.length); // a full disk refuses the line, as a write(2) would
    int done = 0;
    while (done < line.length) {
      int n = Math.min(line.length - done, REGION_BYTES - length);
      region.put(length, line, done, n);
      done += n;
      length += n;
      if (length == REGION_BYTES) writeRegion();
    }
  }

  /**
   * Writes the full region into the file, then states the next one, empty: a kill in between leaves
   * the tail stating what it did before, which the next open writes at its place again (the same
   * bytes) and cuts the file after.
   */
  private void writeRegion() throws IOException {
    writeFile(REGION_BYTES);
    torn = region.get(REGION_BYTES - 1) != '\n';
    base += REGION_BYTES;
    length = 0;
    published = 0;
    written = 0;
    tail.publish(base / REGION_BYTES, 0);
  }

  /** Writes the region's bytes from {@link #written} to {@code end} into the file. */
  private void writeFile(int end) throws IOException {
    ByteBuffer out = region.duplicate().limit(end).position(written);
    while (out.hasRemaining()) file.write(out, base + out.position());
    written = end;
  }

  @Override
  public void handOver() throws IOException {
    if (published != length) {
      tail.publish(base / REGION_BYTES, length);
      published = length;
    }
    if (torn) flush(); // a reader of the file would see half a line until the next flush
  }

  @Override
  public long size() {
    return base + length;
  }

  @Override
  public boolean behind() {
    return written < published;
  }

  @Override
  public void flush() throws IOException {
    if (written < published) writeFile(published);
    torn = false;
  }

  @Override
  public void finish() throws IOException {
    try (file) {
      handOver();
      flush();
    }
    // Every line is in the file: the tail goes before the file is renamed by a rotation, so that
    // a kill in between leaves a whole file without a tail.
    tail.delete();
  }

  @Override
  public void abandon() {
    try {
      file.close();
    } catch (IOException e) {
      // The tail keeps what was handed over; the next open writes it into the file.
    }
  }
}
