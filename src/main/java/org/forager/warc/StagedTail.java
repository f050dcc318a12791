package org.forager.warc;

import java.io.EOFException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The last bytes appended to a file, staged where a killed process leaves them behind: a small file
 * beside it ({@code NAME.tail}) mapped into memory, whose pages are the page cache's. Its region
 * mirrors one region of the file (region {@code k} holds the file's bytes from {@code k × size}): a
 * writer copies bytes into it, then {@link #publish}es how many it holds; it writes a full region
 * into the file itself and only then publishes the next region's number. {@link #recover} writes what
 * a killed writer published into the file at its place, so a kill between a region's write and the
 * next publication neither loses nor repeats a byte. The WARC files' direct writes ({@link
 * StagedDirectWrites}) and the crawl log's staged writes use it.
 *
 * <p>The tail: a header (the magic number at 0, the state at 8, where the region starts at 16 and
 * its size at 24) and the region. The state is one long, stored whole after the bytes it covers: the
 * region's number (high 32 bits) and the bytes staged in it. Its blocks are written with zeros before
 * it is mapped, so that a full disk fails a write, not a store into the mapping; and it is taken only
 * on Linux on local file systems that overwrite in place ({@link #takes}). Not thread-safe.
 */
public final class StagedTail {

  /** What a tail's name adds to its file's. */
  public static final String SUFFIX = ".tail";

  private static final System.Logger LOG = System.getLogger(StagedTail.class.getName());

  private static final long MAGIC = 0x464f_5241_4745_5254L; // "FORAGERT"
  private static final int STATE = 8;
  private static final int REGION_AT = 16;
  private static final int REGION_SIZE = 24;

  /**
   * Where a tail is taken: local file systems, whose {@code statvfs} ({@link #requireRoomFor}) is a
   * system call, not a round trip to a server as on NFS, and which overwrite a block in place (on a
   * copy-on-write one such as btrfs a store into the zero-filled tail may need new space, and fail
   * as a signal, not an exception).
   */
  private static final Set<String> LOCAL_FILE_SYSTEMS = Set.of("ext4", "xfs", "tmpfs");

  /** With this much room, a writer trusts the free space it last saw (less its own bytes since)... */
  private static final long ROOMY_BYTES = 1L << 30;
  /** ...for this long. */
  private static final long ROOMY_CHECK_MILLIS = 50;

  private final Path path;
  private final FileStore fileSystem;
  private final MappedByteBuffer map;
  private final ByteBuffer region;
  private long knownFree; // the last statvfs's free bytes less what was staged since
  private long knownAt; // its System.nanoTime()

  private StagedTail(Path path, FileStore fileSystem, MappedByteBuffer map, int headerBytes, int regionBytes) {
    this.path = path;
    this.fileSystem = fileSystem;
    this.map = map;
    this.region = map.slice(headerBytes, regionBytes);
  }

  /** Where the tail of {@code file} is staged. */
  public static Path of(Path file) {
    return file.resolveSibling(file.getFileName() + SUFFIX);
  }

  /** Whether files on {@code fileSystem} may be staged: on Linux, a local one that overwrites in place. */
  public static boolean takes(FileStore fileSystem) {
    return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
        && LOCAL_FILE_SYSTEMS.contains(fileSystem.type());
  }

  /**
   * Creates the tail of {@code file} (on {@code fileSystem}, which {@link #takes}), mirroring the
   * region where {@code file}'s end is: its bytes there (read through {@code fileChannel}) are
   * copied into the region and published, so that the new tail claims what the file holds. Nothing
   * is left behind on failure.
   *
   * @param headerBytes the header's size, at least 32 and a power of two: the region starts there in
   *     the mapping, its address a multiple of it (for a direct write from the mapping)
   * @param regionBytes the region's size
   * @throws IOException when the tail cannot be made (a file system without room for it among them)
   */
  public static StagedTail create(Path file, FileChannel fileChannel, FileStore fileSystem, int headerBytes,
      int regionBytes) throws IOException {
    Path path = of(file);
    // A writer counts on the free space (requireRoomFor): one that says there is none gets no tail.
    if (fileSystem.getUsableSpace() < 2L * (headerBytes + regionBytes)) {
      throw new IOException("No space left on device for " + path);
    }
    boolean created = false;
    try {
      MappedByteBuffer map;
      try (FileChannel t = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
          StandardOpenOption.WRITE)) {
        created = true;
        ByteBuffer zeros = ByteBuffer.allocate(headerBytes + regionBytes);
        while (zeros.hasRemaining()) t.write(zeros, zeros.position());
        map = t.map(FileChannel.MapMode.READ_WRITE, 0, headerBytes + regionBytes);
      }
      if (map.alignmentOffset(headerBytes, headerBytes) != 0) throw new IOException("mapping not aligned to " + headerBytes);
      StagedTail tail = new StagedTail(path, fileSystem, map, headerBytes, regionBytes);
      long size = fileChannel.size();
      long index = size / regionBytes;
      int length = (int) (size - index * regionBytes);
      ByteBuffer staged = tail.region.duplicate().limit(length);
      while (staged.hasRemaining()) {
        if (fileChannel.read(staged, index * regionBytes + staged.position()) < 0) throw new IOException(file + " shrank");
      }
      map.putLong(REGION_AT, headerBytes);
      map.putLong(REGION_SIZE, regionBytes);
      tail.publish(index, length);
      VarHandle.releaseFence(); // the header before the number that makes it one
      map.putLong(0, MAGIC);
      return tail;
    } catch (IOException | RuntimeException e) {
      if (created) {
        try {
          Files.deleteIfExists(path); // no magic number yet: it claims nothing
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
  }

  /** The mapped region: the bytes of the region {@link #publish} names, from its position 0. */
  public ByteBuffer region() {
    return region;
  }

  /**
   * States that the region is the file's region number {@code index} and holds its first {@code
   * length} bytes: stored after the bytes it covers, and before any byte stored after the call.
   */
  public void publish(long index, int length) {
    VarHandle.releaseFence(); // the staged bytes before the state that covers them
    map.putLong(STATE, index << 32 | length);
    VarHandle.storeStoreFence(); // and the state before the bytes staged over a written region
  }

  /**
   * Fails as a write through the page cache would, when the file system has less room left than
   * {@code bytes}: a writer with a full disk stops at the first bytes it could not have written, not
   * a region later.
   *
   * <p>A {@code statvfs} costs about 4 µs here (0.75 % of a crawl's CPU when every WARC append asked),
   * so with plenty of room it is asked again only every {@value #ROOMY_CHECK_MILLIS} ms: a disk that
   * had {@value #ROOMY_BYTES} bytes free is not filled sooner than that by the crawl's own writes; if
   * another process does, the writer fails when it writes a region (what the tail published is kept
   * for the next start). With less room every call asks.
   */
  public void requireRoomFor(long bytes) throws IOException {
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

  /**
   * Deletes the tail once its file holds every byte it published. The mapping lasts until the
   * collector frees it; storing into it is harmless, but nobody reads it again.
   */
  public void delete() throws IOException {
    Files.delete(path);
  }

  /**
   * What a tail states: {@code bytes} go in its file from {@code offset} on, and the file ends after
   * them; they are the first of a region of {@code regionSize}.
   */
  public record Staged(long offset, ByteBuffer bytes, long regionSize) {}

  /**
   * What the tail of {@code file} states; empty without a tail, or with one that holds nothing (no
   * magic number: killed while it was being created). Consistent while its writer stages more: the
   * bytes are read again until the state read after them names the same region.
   *
   * @throws IOException if the tail cannot be read or is inconsistent
   */
  public static Optional<Staged> read(Path file) throws IOException {
    Path tailPath = of(file);
    try (FileChannel t = FileChannel.open(tailPath, StandardOpenOption.READ)) {
      ByteBuffer head = ByteBuffer.allocate(REGION_SIZE + Long.BYTES);
      while (true) {
        // Shorter than a header, or without the magic number: killed while it was being created.
        if (!readHead(t, head) || head.getLong(0) != MAGIC) return Optional.empty();
        long state = head.getLong(STATE);
        long regionAt = head.getLong(REGION_AT);
        long regionSize = head.getLong(REGION_SIZE);
        int length = (int) state;
        if (length < 0 || length > regionSize || regionAt + length > t.size()) {
          throw new IOException("staged tail " + tailPath + " is inconsistent (" + length + " bytes at " + regionAt + ")");
        }
        ByteBuffer staged = ByteBuffer.allocate(length);
        readFully(t, staged, regionAt);
        // Bytes already staged change only once the state names another region.
        if (readHead(t, head) && head.getLong(0) == MAGIC && head.getLong(STATE) >>> 32 == state >>> 32) {
          return Optional.of(new Staged((state >>> 32) * regionSize, staged.flip(), regionSize));
        }
      }
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /** Whether {@code file} (of {@code size} bytes) is as a writer killed with {@code staged} leaves it. */
  private static boolean agree(FileChannel file, long size, Staged staged) throws IOException {
    ByteBuffer bytes = staged.bytes();
    long offset = staged.offset();
    if (size < offset || size > offset + staged.regionSize()) return false;
    ByteBuffer there = ByteBuffer.allocate((int) Math.min(size - offset, bytes.limit()));
    while (there.hasRemaining() && file.read(there, offset + there.position()) > 0) {}
    return there.flip().equals(bytes.slice(0, there.limit()));
  }

  private static boolean readHead(FileChannel channel, ByteBuffer head) throws IOException {
    head.clear();
    while (head.hasRemaining() && channel.read(head, head.position()) > 0) {}
    return !head.hasRemaining();
  }

  private static void readFully(FileChannel channel, ByteBuffer into, long at) throws IOException {
    while (into.hasRemaining()) {
      if (channel.read(into, at + into.position()) < 0) throw new EOFException("a staged tail ends early");
    }
  }

  /**
   * Writes the bytes a killed writer published for {@code file} into it at their place, sets its size
   * to their end (cutting what a region's write left past them) and forces it to disk, then deletes
   * the tail; nothing without a tail. A tail without the magic number (killed while it was being
   * created) holds nothing and is deleted.
   *
   * <p>The file must agree with the tail, as a killed writer leaves them: every region before the
   * tail's is in it, nothing past the tail's region, and what it holds of the tail's region is the
   * tail's bytes. A file changed since (cut shorter, appended to by a writer that took no tail, or
   * written back to the disk apart from its tail before the machine crashed) is left as it is, and
   * the tail is set aside ({@code NAME.tail.unmatched-MILLIS}) with a warning: its bytes could land
   * over others, or past a hole.
   *
   * @return whether a tail was found
   * @throws IOException if the file cannot be written (it is left as it was, and the tail kept)
   */
  public static boolean recover(Path file) throws IOException {
    Path tailPath = of(file);
    if (!Files.exists(tailPath)) return false;
    Optional<Staged> staged = read(file);
    if (staged.isPresent()) {
      ByteBuffer bytes = staged.get().bytes();
      long offset = staged.get().offset();
      try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
        FileChannel channel = f.getChannel();
        long size = channel.size();
        if (!agree(channel, size, staged.get())) {
          Path aside = tailPath.resolveSibling(tailPath.getFileName() + ".unmatched-" + System.currentTimeMillis());
          Files.move(tailPath, aside);
          LOG.log(System.Logger.Level.WARNING, "staged tail " + tailPath + " does not match " + file + " (" + size
              + " bytes), changed since it was staged: its " + bytes.limit() + " bytes for offset " + offset
              + " are not written into it, the tail is kept as " + aside);
          return true;
        }
        while (bytes.hasRemaining()) channel.write(bytes, offset + bytes.position());
        f.setLength(offset + bytes.limit()); // always sets it, releasing space reserved past it
        channel.force(true);
      }
    }
    Files.delete(tailPath);
    return true;
  }
}
