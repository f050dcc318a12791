package org.forager.warc;

import java.nio.ByteBuffer;

/**
 * One compressed record (a gzip member, a zstd frame) ready to append: the bytes of
 * {@link #bytes()} from its position to its limit, valid until {@link #close()} gives the buffer
 * back to the codec that made it (a pooled native buffer, written to the file without a copy into
 * the Java heap and back out). Used by one thread at a time; closing twice does nothing.
 */
final class Compressed implements AutoCloseable {

  private final ByteBuffer bytes;
  private final int length;
  private Runnable release;

  Compressed(ByteBuffer bytes, Runnable release) {
    this.bytes = bytes;
    this.length = bytes.remaining();
    this.release = release;
  }

  /** A compressed record in a heap array of its own: nothing to give back. */
  static Compressed of(byte[] bytes) {
    return new Compressed(ByteBuffer.wrap(bytes), () -> {});
  }

  /** The bytes; a gathering write moves its position. */
  ByteBuffer bytes() {
    return bytes;
  }

  /** How many bytes it holds (its length in the file), however far it has been written. */
  int length() {
    return length;
  }

  /** A copy on the Java heap, for callers that keep the record. */
  byte[] toArray() {
    byte[] copy = new byte[length];
    bytes.get(bytes.position(), copy, 0, length);
    return copy;
  }

  @Override
  public void close() {
    Runnable r = release;
    release = null;
    if (r != null) r.run();
  }
}
