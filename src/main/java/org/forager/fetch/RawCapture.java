package org.forager.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads the response body from the wire and keeps a copy of at most {@code cap} bytes: the raw body
 * (after transfer decoding, still content-encoded) that goes to the WARC file. At the cap it reports
 * end of stream, so any decoder reading through it stops too, and it checks with one extra byte
 * whether the wire had more ({@link #capped()}).
 *
 * <p>{@link #close()} does nothing: closing an HTTP body stream drains it to its end, which an endless
 * body never reaches; the caller decides how the connection ends. Not thread-safe: one fetch owns it.
 */
final class RawCapture extends InputStream {

  private static final int CHUNK = 8192;

  private final InputStream wire;
  private final int cap;
  private byte[] buffer;
  private int count;
  private boolean eof;
  private boolean capped;
  private boolean wireFailed;

  RawCapture(InputStream wire, int cap) {
    this(wire, cap, CHUNK);
  }

  /**
   * @param expected how many bytes the body is expected to have (its Content-Length): the first buffer
   *     is made that large, up to the cap, so that a body of the expected size is never copied to grow
   *     (a 30 KB page was copied at 8, 16 and 32 KB, then once more to its length)
   */
  RawCapture(InputStream wire, int cap, int expected) {
    this.wire = wire;
    this.cap = cap;
    this.buffer = new byte[Math.min(cap, Math.max(expected, 1))];
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) return 0;
    if (eof || capped) return -1;
    if (count >= cap) {
      probe();
      return -1;
    }
    int n = fromWire(b, off, Math.min(len, cap - count));
    if (n < 0) {
      eof = true;
      return -1;
    }
    append(b, off, n);
    return n;
  }

  /**
   * Reads the rest of the body into the copy, up to the cap.
   *
   * @return false when {@code deadlineNanos} (a {@link System#nanoTime()} value) passed first
   */
  boolean drain(long deadlineNanos) throws IOException {
    while (!eof && !capped) {
      if (System.nanoTime() - deadlineNanos >= 0) return false;
      if (count >= cap) {
        probe();
        continue;
      }
      if (count == buffer.length) {
        // Full at the announced length, where most bodies end: one byte tells, so that the buffer is not
        // grown (and then cut back by bytes()) only to read the end.
        byte[] one = new byte[1];
        int n = fromWire(one, 0, 1);
        if (n < 0) eof = true; else append(one, 0, 1);
        continue;
      }
      int n = fromWire(buffer, count, Math.min(buffer.length, cap) - count);
      if (n < 0) eof = true; else count += n;
    }
    return true;
  }

  /** Bytes read from the wire so far (at most the cap). */
  int count() {
    return count;
  }

  /** Whether the wire reported the end of the body. */
  boolean atEnd() {
    return eof;
  }

  /** Whether the body had more bytes than the cap. */
  boolean capped() {
    return capped;
  }

  /** Whether reading the wire failed (reset, closed early, aborted at the deadline). */
  boolean wireFailed() {
    return wireFailed;
  }

  /** The bytes read; the buffer itself when the body filled it exactly (nothing is read after). */
  byte[] bytes() {
    return count == buffer.length ? buffer : Arrays.copyOf(buffer, count);
  }

  @Override
  public void close() {
    // Deliberately nothing: see the class comment.
  }

  private void probe() throws IOException {
    int next = fromWire(new byte[1], 0, 1);
    if (next < 0) eof = true; else capped = true;
  }

  private int fromWire(byte[] b, int off, int len) throws IOException {
    try {
      return wire.read(b, off, len);
    } catch (IOException e) {
      wireFailed = true;
      throw e;
    }
  }

  private void append(byte[] b, int off, int n) {
    ensureCapacity(count + n);
    System.arraycopy(b, off, buffer, count, n);
    count += n;
  }

  private void ensureCapacity(int needed) {
    if (needed <= buffer.length) return;
    int size = (int) Math.min(cap, Math.max(needed, 2L * buffer.length));
    buffer = Arrays.copyOf(buffer, size);
  }
}
