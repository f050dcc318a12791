package org.forager.warc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Finishes the WARC files a killed process left behind. A file still named {@code .open} may end
 * in a torn record; since every record is one gzip member (or one zstd frame in a
 * {@code .warc.zst.open} file), the file is cut after its last complete member (checked by the
 * member's CRC and length; a frame by its content checksum, {@link ZstdFrameScan}), then renamed
 * like any finished file. A file with no complete member is deleted.
 *
 * <p>Only call it while no other process writes into the directory (the crawl holds its data
 * directory's store lock when it does).
 */
public final class WarcRepair {

  private static final String OPEN_SUFFIX = ".open";
  private static final String ZSTD_OPEN_SUFFIX = RecordCompression.Format.ZSTD.suffix() + OPEN_SUFFIX;

  /** What was done to one file. */
  public record Repaired(Path file, long keptBytes, long cutBytes) {}

  private WarcRepair() {}

  public static List<Repaired> repair(Path warcDir) {
    List<Repaired> repaired = new ArrayList<>();
    if (!Files.isDirectory(warcDir)) return repaired;
    try (DirectoryStream<Path> open = Files.newDirectoryStream(warcDir, "*" + OPEN_SUFFIX)) {
      for (Path file : open) repaired.add(repairFile(file));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot repair WARC files in " + warcDir + ": " + e.getMessage(), e);
    }
    return repaired;
  }

  private static Repaired repairFile(Path file) throws IOException {
    long size = Files.size(file);
    String name = file.getFileName().toString();
    long complete;
    try (InputStream in = new java.io.BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      complete = name.endsWith(ZSTD_OPEN_SUFFIX) ? ZstdFrameScan.completeFramesLength(in) : completeMembersLength(in);
    }
    Path finished = file.resolveSibling(name.substring(0, name.length() - OPEN_SUFFIX.length()));
    if (complete == 0) {
      Files.delete(file);
      return new Repaired(finished, 0, size);
    }
    if (complete < size) {
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
        channel.truncate(complete);
        channel.force(true);
      }
    }
    Files.move(file, finished, StandardCopyOption.ATOMIC_MOVE);
    return new Repaired(finished, complete, size - complete);
  }

  /** The length of the longest prefix of the stream made of complete, valid gzip members. */
  static long completeMembersLength(InputStream in) throws IOException {
    CountingInput input = new CountingInput(in);
    long complete = 0;
    while (true) {
      try {
        if (!readMember(input)) return complete;
        complete = input.position;
      } catch (IOException | DataFormatException torn) {
        return complete;
      }
    }
  }

  /** Reads one member; false at a clean end of input before it. Throws on anything torn or invalid. */
  private static boolean readMember(CountingInput in) throws IOException, DataFormatException {
    int id1 = in.read();
    if (id1 < 0) return false;
    if (id1 != 0x1f || in.read() != 0x8b || in.read() != 8) throw new IOException("not a gzip member");
    int flags = in.readByte();
    in.skip(6); // mtime, xfl, os
    if ((flags & 4) != 0) in.skip(in.readByte() | (in.readByte() << 8));
    if ((flags & 8) != 0) while (in.readByte() != 0) { }
    if ((flags & 16) != 0) while (in.readByte() != 0) { }
    if ((flags & 2) != 0) in.skip(2);

    Inflater inflater = new Inflater(true);
    CRC32 crc = new CRC32();
    long length = 0;
    byte[] out = new byte[1 << 16];
    try {
      while (!inflater.finished()) {
        if (inflater.needsInput()) {
          int n = in.fill();
          if (n < 0) throw new IOException("torn member");
          inflater.setInput(in.buffer, 0, n);
        }
        int produced = inflater.inflate(out);
        crc.update(out, 0, produced);
        length += produced;
        if (produced == 0 && inflater.needsDictionary()) throw new IOException("bad member");
      }
      // Give back the input the inflater did not use: it starts the trailer.
      in.unread(inflater.getRemaining());
    } finally {
      inflater.end();
    }
    long storedCrc = in.readInt32();
    long storedLength = in.readInt32();
    if (storedCrc != crc.getValue() || storedLength != (length & 0xffffffffL)) throw new IOException("bad trailer");
    return true;
  }

  /** An input that counts consumed bytes and lets the inflater's unused input be given back. */
  private static final class CountingInput {
    final byte[] buffer = new byte[1 << 16];
    private final InputStream in;
    private byte[] pushedBack = new byte[0];
    private int pushedBackPos;
    private int lastFill;
    long position;

    CountingInput(InputStream in) {
      this.in = in;
    }

    int read() throws IOException {
      int b;
      if (pushedBackPos < pushedBack.length) b = pushedBack[pushedBackPos++] & 0xff;
      else b = in.read();
      if (b >= 0) position++;
      return b;
    }

    int readByte() throws IOException {
      int b = read();
      if (b < 0) throw new IOException("torn member");
      return b;
    }

    void skip(int n) throws IOException {
      for (int i = 0; i < n; i++) readByte();
    }

    long readInt32() throws IOException {
      return readByte() | (readByte() << 8) | (readByte() << 16) | ((long) readByte() << 24);
    }

    /** Fills the buffer for the inflater; counts it all as consumed until {@link #unread}. */
    int fill() throws IOException {
      int n;
      if (pushedBackPos < pushedBack.length) {
        n = Math.min(buffer.length, pushedBack.length - pushedBackPos);
        System.arraycopy(pushedBack, pushedBackPos, buffer, 0, n);
        pushedBackPos += n;
      } else {
        n = in.read(buffer);
      }
      if (n > 0) position += n;
      lastFill = n;
      return n;
    }

    void unread(int remaining) {
      if (remaining <= 0) return;
      byte[] rest = new byte[remaining + (pushedBack.length - pushedBackPos)];
      System.arraycopy(buffer, lastFill - remaining, rest, 0, remaining);
      System.arraycopy(pushedBack, pushedBackPos, rest, remaining, pushedBack.length - pushedBackPos);
      pushedBack = rest;
      pushedBackPos = 0;
      position -= remaining;
    }
  }
}
