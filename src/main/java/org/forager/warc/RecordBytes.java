package org.forager.warc;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Serializes records, uncompressed (WARC 1.1 section 4), into pooled buffers: byte for byte what
 * jwarc's {@code WarcWriter} writes (the version line, the header fields in the record's order as
 * {@code name: value} lines in UTF-8, a blank line, the block, CRLF CRLF), without the String,
 * StringBuilder, 8 KiB channel buffers and whole-record array it allocated for every record.
 * Thread-safe.
 *
 * <p>The block is taken from the caller's pieces, not read from the record's body channel, which
 * is left unread: the pieces must be the bytes the record's {@code Content-Length} counts.
 *
 * <p>Buffers: a pool rather than a thread-local (crawl threads are virtual threads; only about one
 * per core serializes at a time), of at most {@link #MAX_POOLED} buffers; one grown past
 * {@link #KEEP_BUFFER_BYTES} by an unusually large record is dropped when given back.
 */
final class RecordBytes {

  /** A buffer larger than this (grown by a large record) is not kept for the next. */
  static final int KEEP_BUFFER_BYTES = 1 << 20;
  /** Room for a 30 KB page with its headers: most records fit the first buffer. */
  private static final int FIRST_BUFFER_BYTES = 64 * 1024;
  /** Buffers kept: more than the cores that serialize at once, fewer than the crawl's threads. */
  static final int MAX_POOLED = 2 * Runtime.getRuntime().availableProcessors() + 2;

  private static final byte[] CRLF = {'\r', '\n'};
  private static final byte[] SEPARATOR = {':', ' '};

  private final ConcurrentLinkedQueue<byte[]> pool = new ConcurrentLinkedQueue<>();
  private final AtomicInteger pooled = new AtomicInteger();

  /**
   * A serialized record: the first {@link #length()} bytes of {@link #bytes()}, a pooled buffer
   * that {@link #close()} gives back; neither may be used after that. Used by one thread.
   */
  final class Serialized implements AutoCloseable {
    private byte[] bytes;
    private int length;

    private Serialized(byte[] bytes) {
      this.bytes = bytes;
    }

    byte[] bytes() {
      return bytes;
    }

    int length() {
      return length;
    }

    @Override
    public void close() {
      if (bytes == null) return;
      giveBack(bytes);
      bytes = null;
    }

    private void write(byte[] b, int offset, int count) {
      ensure(count);
      System.arraycopy(b, offset, bytes, length, count);
      length += count;
    }

    private void write(byte[] b) {
      write(b, 0, b.length);
    }

    /** UTF-8, as jwarc encodes WARC headers; ASCII (nearly every header) without an encoder. */
    private void write(String s) {
      int n = s.length();
      ensure(n);
      for (int i = 0; i < n; i++) {
        char c = s.charAt(i);
        if (c >= 0x80) {
          write(s.getBytes(UTF_8));
          return;
        }
        bytes[length + i] = (byte) c;
      }
      length += n;
    }

    private void ensure(int more) {
      long needed = (long) length + more;
      if (needed <= bytes.length) return;
      if (needed > Integer.MAX_VALUE - 16) throw new IllegalArgumentException("WARC record over 2 GiB");
      bytes = Arrays.copyOf(bytes, (int) Math.max(needed, Math.min(2L * bytes.length, Integer.MAX_VALUE - 16)));
    }
  }

  /** The record serialized: its version line, its fields, a blank line, the block's pieces in order, CRLF CRLF. */
  Serialized serialize(RecordToWrite record) {
    Serialized out = new Serialized(take(RecordToWrite.blockLength(record.block())));
    out.write(record.version());
    out.write(CRLF);
    for (RecordToWrite.Field field : record.fields()) {
      out.write(field.name());
      out.write(SEPARATOR);
      out.write(field.value());
      out.write(CRLF);
    }
    out.write(CRLF);
    for (byte[] piece : record.block()) out.write(piece);
    out.write(CRLF);
    out.write(CRLF);
    return out;
  }

  /** A pooled buffer, or a new one with room for the block and a header. */
  private byte[] take(long blockLength) {
    byte[] buffer = pool.poll();
    if (buffer != null) pooled.decrementAndGet();
    long wanted = blockLength + 4096;
    if (buffer != null && buffer.length >= wanted) return buffer;
    // A pooled buffer too small for this record is dropped: the pool comes to hold ones that fit.
    // Sized for the whole record: growing by doubling copied a 30 KB page three times.
    return new byte[(int) Math.min(Math.max(wanted, FIRST_BUFFER_BYTES), Integer.MAX_VALUE - 16)];
  }

  private void giveBack(byte[] buffer) {
    if (buffer.length > KEEP_BUFFER_BYTES) return;
    if (pooled.incrementAndGet() > MAX_POOLED) {
      pooled.decrementAndGet();
      return;
    }
    pool.offer(buffer);
  }
}
