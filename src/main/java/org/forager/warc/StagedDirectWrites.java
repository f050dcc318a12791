package org.forager.warc;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Appends with direct I/O ({@code O_DIRECT}): a megabyte at a time, from memory to the disk past the
 * page cache. Through the page cache, copying a crawl's WARC in and writing it back out cost the
 * kernel up to a tenth of the crawl's CPU (on a fresh machine; about 2 % with the page cache full),
 * for pages nobody reads again soon (docs/benchmarks.md, "Issue 15: the WARC past the page cache").
 *
 * <p>A direct write covers whole blocks of the file system, so appended bytes are staged in a
 * <em>tail</em>: a small file beside the WARC file ({@code NAME.open.tail}) mapped into memory, its
 * region mirroring the megabyte of the WARC file that is being filled. An append copies its bytes
 * into the region and then publishes the new length; a full region is written to the WARC file in
 * one direct write, and only then does the tail name the next megabyte. The tail's pages are the
 * page cache's: a killed process leaves them behind holding every byte of every append that
 * returned, and {@link #recover} (run by {@link WarcRepair}) writes those into the WARC file at
 * their place before it is cut after its last complete record.
 *
 * <p>The tail: a header of one block (the magic number at 0, the state at 8, where the region
 * starts at 16 and its size at 24) and the region. The state is one long, written whole after the
 * bytes it covers: the megabyte's number in the file (high 32 bits) and the bytes staged in it. Its
 * blocks are written with zeros before it is mapped, so that a full disk fails a write, not a
 * store into the mapping. The WARC file's space is reserved a region ahead ({@link
 * SpaceReservation}) before bytes are staged for it, so that what the tail holds can always be
 * written, and finishing a file never needs new space. Linux only, on local file systems that
 * overwrite in place (ext4, xfs, tmpfs; measured on ext4); elsewhere {@link BufferedWrites}. Not
 * thread-safe.
 */
final class StagedDirectWrites implements FileWrites {

  static final String TAIL_SUFFIX = ".tail";

  /**
   * What a full region writes at once: a megabyte, less for files that rotate sooner (rounded up to
   * the block: a multiple of every block size taken, 64 KiB at most).
   */
  static final int REGION_BYTES = 1 << 20;

  private static final long MAGIC = 0x464f_5241_4745_5254L; // "FORAGERT"
  private static final int STATE = 8;
  private static final int REGION_AT = 16;
  private static final int REGION_SIZE = 24;
  private static final int MAX_BLOCK = 1 << 16;

  /**
   * The file systems written directly: local ones, whose {@code statvfs} (up to one an append) is a
   * system call, not a round trip to a server as on NFS, and which overwrite a block in place (on a
   * copy-on-write one such as btrfs a store into the zero-filled tail may need new space, and fail
   * as a signal, not an exception).
   */
  private static final Set<String> LOCAL_FILE_SYSTEMS = Set.of("ext4", "xfs", "tmpfs");

  /** With this much room, an append trusts the free space it last saw (less its own bytes since)... */
  private static final long ROOMY_BYTES = 1L << 30;
  /** ...for this long. */
  private static final long ROOMY_CHECK_MILLIS = 50;

  private final FileChannel file;
  private final SpaceReservation reservation;
  private final FileStore fileSystem;
  private final Path tailPath;
  private final MappedByteBuffer tail;
  private final ByteBuffer region;
  private final int block;
  private final int regionBytes;
  private long base; // where the region's first byte goes in the file: a multiple of regionBytes
  private int length; // bytes staged in the region
  private boolean damaged;
  private long knownFree; // the last statvfs's free bytes less what was appended since
  private long knownAt; // its System.nanoTime()

  private StagedDirectWrites(FileChannel file, SpaceReservation reservation, FileStore fileSystem, Path tailPath,
      MappedByteBuffer tail, int block, int regionBytes) {
    this.file = file;
    this.reservation = reservation;
    this.fileSystem = fileSystem;
    this.tailPath = tailPath;
    this.tail = tail;
    this.block = block;
    this.regionBytes = regionBytes;
    this.region = tail.slice(block, regionBytes);
  }

  /** Where the tail of {@code openFile} is staged. */
  static Path tailOf(Path openFile) {
    return openFile.resolveSibling(openFile.getFileName() + TAIL_SUFFIX);
  }

  /**
   * Direct writes into {@code openFile} (just created, empty), with its tail created beside it;
   * empty when this system or file system takes no direct writes (then nothing is left behind).
   *
   * @param fileBytes about how large the file grows: a smaller file gets a smaller region (the
   *     mapping of a finished file's deleted tail lasts until the collector frees it)
   */
  static Optional<StagedDirectWrites> open(Path openFile, long fileBytes) {
    if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) return Optional.empty();
    Path tailPath = tailOf(openFile);
    FileChannel direct = null;
    SpaceReservation reservation = null;
    boolean tailCreated = false;
    try {
      FileStore fileSystem = Files.getFileStore(openFile);
      if (!LOCAL_FILE_SYSTEMS.contains(fileSystem.type())) return Optional.empty();
      long size = fileSystem.getBlockSize();
      if (size < 512 || size > MAX_BLOCK || Long.bitCount(size) != 1) return Optional.empty();
      int block = (int) size;
      int regionBytes = (int) ((Math.min(REGION_BYTES, Math.max(fileBytes, 1)) + block - 1) & -block);
      // Appends count on its free space (below): one that says it has none is not trusted with a tail.
      if (fileSystem.getUsableSpace() < 2L * (block + regionBytes)) return Optional.empty();
      direct = FileChannel.open(openFile, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT);
      probe(direct, block);
      reservation = SpaceReservation.of(openFile);
      reservation.upTo(regionBytes);
      MappedByteBuffer tail;
      try (FileChannel t = FileChannel.open(tailPath, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
          StandardOpenOption.WRITE)) {
        tailCreated = true;
        ByteBuffer zeros = ByteBuffer.allocate(block + regionBytes);
        while (zeros.hasRemaining()) t.write(zeros, zeros.position());
        tail = t.map(FileChannel.MapMode.READ_WRITE, 0, block + regionBytes);
      }
      if (tail.alignmentOffset(block, block) != 0) throw new IOException("mapping not aligned to " + block);
      tail.putLong(REGION_AT, block);
      tail.putLong(REGION_SIZE, regionBytes);
      tail.putLong(STATE, 0);
      VarHandle.releaseFence();
      tail.putLong(0, MAGIC);
      return Optional.of(new StagedDirectWrites(direct, reservation, fileSystem, tailPath, tail, block, regionBytes));
    } catch (IOException | RuntimeException e) {
      // Direct writes are an optimization: where they fail to start, the file is written as before.
      try {
        if (reservation != null) reservation.close();
        if (direct != null) direct.close();
        if (tailCreated) Files.deleteIfExists(tailPath);
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
    requireRoomFor(total);
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

  /**
   * Fails as a write through the page cache would, when the file system has less room left than
   * {@code bytes}: the space reserved lets what is staged be written whatever happens, but a crawl
   * on a full disk stops at the first record it could not have written, not a megabyte later.
   *
   * <p>A {@code statvfs} costs about 4 µs here (0.75 % of a crawl's CPU when every append asked), so
   * with plenty of room it is asked again only every {@value #ROOMY_CHECK_MILLIS} ms: a disk that
   * had {@value #ROOMY_BYTES} bytes free is not filled sooner than that by the crawl's own writes,
   * and if another process does, nothing is lost (the region's space is reserved) and the crawl
   * stops at most a region later. With less room every append asks.
   */
  private void requireRoomFor(long bytes) throws IOException {
    long now = System.nanoTime();
    if (knownFree - bytes >= ROOMY_BYTES && now - knownAt < ROOMY_CHECK_MILLIS * 1_000_000L) {
      knownFree -= bytes;
      return;
    }
    long free = fileSystem.getUsableSpace();
    knownFree = free;
    knownAt = now;
    if (free < bytes) throw new IOException("No space left on device (" + free + " bytes free, " + bytes + " to write)");
    knownFree -= bytes;
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
    VarHandle.releaseFence(); // the staged bytes before the state that covers them
    tail.putLong(STATE, (base / regionBytes) << 32 | length);
    VarHandle.storeStoreFence(); // and the state before the bytes staged over a written region
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
    Files.delete(tailPath);
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
   * it after them, and deletes the tail; nothing without a tail. A tail without the magic number
   * (killed while it was being created, before any append) holds nothing and is deleted.
   *
   * @throws IOException if the file cannot be written (it is left as it was, and the tail kept)
   */
  static void recover(Path openFile) throws IOException {
    Path tailPath = tailOf(openFile);
    if (!Files.exists(tailPath)) return;
    try (FileChannel t = FileChannel.open(tailPath, StandardOpenOption.READ)) {
      ByteBuffer head = ByteBuffer.allocate(REGION_SIZE + Long.BYTES);
      while (head.hasRemaining() && t.read(head, head.position()) > 0) {}
      if (!head.hasRemaining() && head.getLong(0) == MAGIC) {
        long state = head.getLong(STATE);
        long regionAt = head.getLong(REGION_AT);
        long regionSize = head.getLong(REGION_SIZE);
        long base = (state >>> 32) * regionSize;
        int length = (int) state;
        if (length < 0 || length > regionSize || regionAt + length > t.size()) {
          throw new IOException("staged tail " + tailPath + " is inconsistent (" + length + " bytes at " + regionAt + ")");
        }
        ByteBuffer staged = ByteBuffer.allocate(length);
        while (staged.hasRemaining() && t.read(staged, regionAt + staged.position()) > 0) {}
        staged.flip();
        try (RandomAccessFile f = new RandomAccessFile(openFile.toFile(), "rw")) {
          FileChannel channel = f.getChannel();
          while (staged.hasRemaining()) channel.write(staged, base + staged.position());
          f.setLength(base + length); // always sets it, releasing the space reserved past it
          channel.force(true);
        }
      }
    }
    Files.delete(tailPath);
  }
}
