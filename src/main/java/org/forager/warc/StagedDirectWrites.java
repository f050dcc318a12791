package org.forager.warc;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Appends with direct I/O ({@code O_DIRECT}): a megabyte at a time, from memory to the disk past the
 * page cache. Through the page cache, copying a crawl's WARC in and writing it back out cost the
 * kernel up to a tenth of the crawl's CPU (on a fresh machine; about 2 % with the page cache full),
 * for pages nobody reads again soon (docs/benchmarks.md, "Issue 15: the WARC past the page cache").
 *
 * <p>A direct write covers whole blocks of the file system, so appended bytes are staged in a
 * {@link StagedTail} ({@code NAME.open.tail}), its region mirroring the megabyte of the WARC file
 * that is being filled. An append copies its bytes into the region and then publishes the new
 * length; a full region is written to the WARC file in one direct write, and only then does the
 * tail name the next megabyte. A killed process leaves the tail behind holding every byte of every
 * append that returned, and {@link #recover} (run by {@link WarcRepair}) writes those into the WARC
 * file at their place before it is cut after its last complete record.
 *
 * <p>The tail's header is one block, so that the region is aligned for direct writes. The WARC
 * file's space is reserved a region ahead ({@link SpaceReservation}) before bytes are staged for it,
 * so that what the tail holds can always be written, and finishing a file never needs new space.
 * Linux only, on local file systems that overwrite in place ({@link StagedTail#takes}; measured on
 * ext4); elsewhere {@link BufferedWrites}. Not thread-safe.
 */
final class StagedDirectWrites implements FileWrites {

  static final String TAIL_SUFFIX = StagedTail.SUFFIX;

  /**
   * What a full region writes at once: a megabyte, less for files that rotate sooner (rounded up to
   * the block: a multiple of every block size taken, 64 KiB at most).
   */
  static final int REGION_BYTES = 1 << 20;

  private static final int MAX_BLOCK = 1 << 16;

  private final FileChannel file;
  private final SpaceReservation reservation;
  private final StagedTail tail;
  private final ByteBuffer region;
  private final int block;
  private final int regionBytes;
  private long base; // where the region's first byte goes in the file: a multiple of regionBytes
  private int length; // bytes staged in the region
  private boolean damaged;

  private StagedDirectWrites(FileChannel file, SpaceReservation reservation, StagedTail tail, int block,
      int regionBytes) {
    this.file = file;
    this.reservation = reservation;
    this.tail = tail;
    this.block = block;
    this.regionBytes = regionBytes;
    this.region = tail.region();
  }

  /** Where the tail of {@code openFile} is staged. */
  static Path tailOf(Path openFile) {
    return StagedTail.of(openFile);
  }

  /**
   * Direct writes into {@code openFile} (just created, empty), with its tail created beside it;
   * empty when this system or file system takes no direct writes (then nothing is left behind).
   *
   * @param fileBytes about how large the file grows: a smaller file gets a smaller region (the
   *     mapping of a finished file's deleted tail lasts until the collector frees it)
   */
  static Optional<StagedDirectWrites> open(Path openFile, long fileBytes) {
    FileChannel direct = null;
    SpaceReservation reservation = null;
    try {
      FileStore fileSystem = Files.getFileStore(openFile);
      if (!StagedTail.takes(fileSystem)) return Optional.empty();
      long size = fileSystem.getBlockSize();
      if (size < 512 || size > MAX_BLOCK || Long.bitCount(size) != 1) return Optional.empty();
      int block = (int) size;
      int regionBytes = (int) ((Math.min(REGION_BYTES, Math.max(fileBytes, 1)) + block - 1) & -block);
      direct = FileChannel.open(openFile, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT);
      probe(direct, block);
      reservation = SpaceReservation.of(openFile);
      reservation.upTo(regionBytes);
      StagedTail tail = StagedTail.create(openFile, direct, fileSystem, block, regionBytes);
      return Optional.of(new StagedDirectWrites(direct, reservation, tail, block, regionBytes));
    } catch (IOException | RuntimeException e) {
      // Direct writes are an optimization: where they fail to start, the file is written as before.
      try {
        if (reservation != null) reservation.close();
        if (direct != null) direct.close();
      } catch (IOException ignored) {
        // The caller's buffered writes do not need either.
      }
      return Optional.empty();
    }
  }

  /** A direct write of one block, undone: fails where the channel's alignment is not {@code block}. */
  private static void probe(FileChannel direct, int block) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocateDirect(2 * block).alignedSlice(block).limit(block);
    while (zeros.hasRemaining()) direct.write(zeros, zeros.position());
    direct.truncate(0);
  }

  @Override
  public void append(ByteBuffer[] buffers, long total) throws IOException {
    // Nothing staged yet: a file system without room fails the call and leaves the file as it was.
    tail.requireRoomFor(total);
    long end = base + length + total;
    reservation.upTo((end + regionBytes - 1) / regionBytes * regionBytes);
    try {
      for (ByteBuffer b : buffers) {
        while (b.hasRemaining()) {
          int n = Math.min(b.remaining(), regionBytes - length);
          region.put(length, b, b.position(), n);
          b.position(b.position() + n);
          length += n;
          if (length == regionBytes) writeRegion();
        }
      }
      publish();
    } catch (IOException | RuntimeException e) {
      // A region's write failed (its space was reserved: an I/O error). The tail names what was
      // there before the call, or a part of this call's bytes that the repair cuts off: the file
      // is left to the next run's repair, nothing in it lost.
      damaged = true;
      throw e;
    }
  }

  /** Writes the full region to the file, then names the next megabyte, empty, in the tail. */
  private void writeRegion() throws IOException {
    writeStaged(regionBytes);
    base += regionBytes;
    length = 0;
    publish();
  }

  /** Writes the region's first {@code bytes} (a multiple of the block) at the region's place. */
  private void writeStaged(int bytes) throws IOException {
    ByteBuffer out = region.duplicate().position(0).limit(bytes);
    while (out.hasRemaining()) file.write(out, base + out.position());
  }

  private void publish() {
    tail.publish(base / regionBytes, length);
  }

  @Override
  public boolean damaged() {
    return damaged;
  }

  @Override
  public void finish() throws IOException {
    try (file) {
      int padded = (length + block - 1) & -block; // past the end: cut off below
      if (padded > 0) writeStaged(padded);
      reservation.cutAt(base + length); // the space reserved past it goes too
      file.force(true);
    } finally {
      reservation.close();
    }
    // Everything is in the file and on disk: the tail goes before the file's rename, so a kill
    // in between leaves a whole .open file without a tail (repaired as any other).
    tail.delete();
  }

  @Override
  public void abandon() {
    reservation.close();
    try {
      file.close();
    } catch (IOException e) {
      // The tail keeps what was appended; the next crawl's repair writes it into the file.
    }
  }

  /**
   * Writes the bytes a killed process left staged for {@code openFile} into it at their place, cuts
   * it after them, and deletes the tail ({@link StagedTail#recover}); nothing without a tail.
   *
   * @throws IOException if the file cannot be written (it is left as it was, and the tail kept)
   */
  static void recover(Path openFile) throws IOException {
    StagedTail.recover(openFile);
  }
}
