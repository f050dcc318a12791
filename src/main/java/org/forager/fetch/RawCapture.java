package org.forager.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.forager.io.BulkInputStream;

/**
 * Reads the response body from the wire and keeps a copy of at most {@code cap} bytes: the raw body
 * (after transfer decoding, still content-encoded) that goes to the WARC file. At the cap it reports
 * end of stream, so any decoder reading through it stops too, and it checks with one extra byte
 * whether the wire had more ({@link #capped()}).
 *
 * <p>{@link #close()} does nothing: closing an HTTP body stream drains it to its end, which an endless
 * body never reaches; the caller decides how the connection ends. Not thread-safe: one fetch owns it.
 */
final class RawCapture extends BulkInputStream {

  private static final int CHUNK = 8192;

  private final InputStream wire;
  private final int cap;
  private final BodyMemory.Lease memory;
  private final long deadlineNanos;
  private byte[] buffer;
  private int count;
  private boolean eof;
  private boolean capped;
  private boolean wireFailed;
  private boolean outOfTime;

  RawCapture(InputStream wire, int cap) {
    this(wire, cap, CHUNK, BodyMemory.current(), Long.MAX_VALUE);
  }

  /**
   * @param expected how many bytes the body is expected to have (its Content-Length): the first buffer
   *     is made that large, up to the cap and {@link BodyMemory#FREE_BYTES}, so that a page of the usual
   *     size is never copied to grow (a 30 KB page was copied at 8, 16 and 32 KB, then once more to its
   *     length), and an announced length costs no memory the body does not bring
   * @param memory what the buffer's growth beyond {@link BodyMemory#FREE_BYTES} is reserved on
   * @param deadlineNanos how long a reservation may wait: past it the body ends there ({@link #outOfTime})
   */
  RawCapture(InputStream wire, int cap, int expected, BodyMemory.Lease memory, long deadlineNanos) {
    this.wire = wire;
    this.cap = cap;
    this.memory = memory;
    this.deadlineNanos = deadlineNanos;
    this.buffer = new byte[Math.min(Math.min(cap, BodyMemory.FREE_BYTES), Math.max(expected, 1))];
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) return 0;
    if (eof || capped || outOfTime) return -1;
    if (count >= cap) {
      probe();
      return -1;
    }
    int n = fromWire(b, off, Math.min(len, cap - count));
    if (n < 0) {
      eof = true;
      return -1;
    }
    // Grown for what came, not for what was asked: a body ending at its announced length is never
    // grown (and copied) for a last read that brings nothing. Bytes it has no memory for end the body.
    if (!room(count + n)) return -1;
    append(b, off, n);
    return n;
  }

  /**
   * Reads the rest of the body into the copy, up to the cap.
   *
   * @return false when {@code deadlineNanos} (a {@link System#nanoTime()} value) passed first
   */
  boolean drain(long deadlineNanos) throws IOException {
    if (outOfTime) return false;
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
        if (n < 0) {
          eof = true;
        } else {
          if (!room(count + 1)) return false;
          append(one, 0, 1);
        }
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

  /** Whether the body ended because its memory could not be had by the deadline ({@link BodyMemory}). */
  boolean outOfTime() {
    return outOfTime;
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
    System.arraycopy(b, off, buffer, count, n);
    count += n;
  }

  /**
   * Makes the buffer hold {@code needed} bytes, its growth beyond {@link BodyMemory#FREE_BYTES} reserved
   * first: false (and the body ends here) when the reservation did not come by the deadline.
   */
  private boolean room(int needed) throws IOException {
    if (needed <= buffer.length) return true;
    int size = (int) Math.min(cap, Math.max(needed, 2L * buffer.length));
    if (!memory.grow(buffer.length, size, deadlineNanos)) {
      outOfTime = true;
      return false;
    }
    buffer = Arrays.copyOf(buffer, size);
    return true;
  }
}
