package org.forager.warc;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Disk space reserved for a file ahead of its writes: Linux's {@code fallocate(2)}, keeping the
 * file's size, through JNA's direct mapping. A direct writer ({@link StagedDirectWrites}) reserves
 * each megabyte before staging bytes for it, so that what it staged can always be written, even
 * once the disk is full. Holds a descriptor of its own of the file; not thread-safe.
 */
final class SpaceReservation implements AutoCloseable {

  private static final int O_WRONLY = 1; // Linux, every architecture JNA runs on
  private static final int O_CLOEXEC = 0x80000; // x86-64 and arm64
  private static final int FALLOC_FL_KEEP_SIZE = 1;

  private final Path file;
  private final int descriptor;
  private long reserved;
  private boolean closed;

  private SpaceReservation(Path file, int descriptor) {
    this.file = file;
    this.descriptor = descriptor;
  }

  /** Opens {@code file} (which exists) to reserve space for it; nothing is reserved yet. */
  static SpaceReservation of(Path file) throws IOException {
    try {
      return new SpaceReservation(file, LibC.open(file.toString(), O_WRONLY | O_CLOEXEC));
    } catch (LastErrorException | UnsatisfiedLinkError | NoClassDefFoundError e) {
      throw new IOException("cannot open " + file + " to reserve space: " + e.getMessage(), e);
    }
  }

  /**
   * Makes sure the file's blocks up to {@code end} are allocated.
   *
   * @throws IOException "No space left on device" when the file system has not that much room
   *     (or cannot reserve at all); nothing more is reserved then
   */
  void upTo(long end) throws IOException {
    if (end <= reserved) return;
    try {
      LibC.fallocate(descriptor, FALLOC_FL_KEEP_SIZE, reserved, end - reserved);
    } catch (LastErrorException e) {
      String reason = e.getErrorCode() == 28 ? "No space left on device" : "error " + e.getErrorCode();
      throw new IOException("cannot reserve " + (end - reserved) + " bytes for " + file + ": " + reason, e);
    }
    reserved = end;
  }

  /**
   * Sets the file's size to {@code size}, releasing the space reserved past it: always, where
   * {@link java.nio.channels.FileChannel#truncate} does nothing unless the file is longer.
   */
  void cutAt(long size) throws IOException {
    try {
      LibC.ftruncate(descriptor, size);
    } catch (LastErrorException e) {
      throw new IOException("cannot set the size of " + file + ": error " + e.getErrorCode(), e);
    }
  }

  /** Closes the descriptor; later calls do nothing (its number may be another file's by then). */
  @Override
  public void close() {
    if (closed) return;
    closed = true;
    try {
      LibC.close(descriptor);
    } catch (LastErrorException e) {
      // A descriptor used only to reserve: nothing was written through it.
    }
  }

  /** libc, through JNA's direct mapping. */
  private static final class LibC {
    static {
      Native.register(LibC.class, Platform.C_LIBRARY_NAME);
    }

    static native int open(String path, int flags) throws LastErrorException;

    static native int fallocate(int fd, int mode, long offset, long length) throws LastErrorException;

    static native int ftruncate(int fd, long length) throws LastErrorException;

    static native int close(int fd) throws LastErrorException;
  }
}
