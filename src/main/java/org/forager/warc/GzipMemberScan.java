package org.forager.warc;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.Consumer;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Finds the gzip members (RFC 1952) of a {@code .warc.gz} stream, each one record: a member counts
 * once its deflate data ends and its trailer's CRC-32 and length match what it inflates to; the
 * first torn, corrupt or foreign byte ends the scan. Stateless; {@link ZstdFrameScan} is the same
 * for {@code .warc.zst}.
 */
final class GzipMemberScan {

  private GzipMemberScan() {}

  /** The length of the longest prefix of the stream made of complete, valid gzip members. */
  static long completeMembersLength(InputStream in) throws IOException {
    return scan(in, span -> { });
  }

  /**
   * Hands {@code spans} each complete member of the longest valid prefix, in order, and returns
   * that prefix's length. Offsets count from where {@code in} stands.
   */
  static long scan(InputStream in, Consumer<RecordSpan> spans) throws IOException {
    CountingInput input = new CountingInput(in);
    long complete = 0;
    while (true) {
      try {
        if (!readMember(input)) return complete;
      } catch (IOException | DataFormatException torn) {
        return complete;
      }
      spans.accept(new RecordSpan(complete, input.position - complete));
      complete = input.position;
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
