package org.forager.fetch;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Optional;
import org.forager.fetch.FetchResult.Truncation;
import org.forager.io.BulkInputStream;

/**
 * A body with its transfer codings besides chunked ({@link TransferCodings#toUndo()}) undone as it is
 * read, by the streams that undo content codings ({@link ContentCoding#decoder}, so gzip members that
 * hold nothing are bounded alike) and under the same caps: at most {@code cap} bytes taken from the
 * wire, and output beyond {@link BodyReader#RATIO_FLOOR} at most {@code maxRatio} times the wire
 * bytes read so far. Its output is the body as the WARC record stores it (RFC 9112 section 7: the
 * transfer codings are the message's, not the content's), and what a content coding's decoder reads;
 * the reader keeps it under {@code max_page_bytes} and {@link BodyMemory} as it keeps a body without
 * transfer coding.
 *
 * <p>Where a cap stops it, or the coding breaks off, it ends its stream there and {@link #stop()}
 * says why; a failed read of the wire is thrown as it came (the caller tells a reset from the
 * deadline), also when the decoder would swallow it (the JDK's gzip stream, which in some releases
 * reads on for another member whatever {@code available()} says, takes a failure there for the end:
 * JDK-7036144, reverted by JDK-8381670). A body that does not even start like its coding (a
 * mislabelled plain body, an empty one) is passed on as it came, as a content-coded one is. Once the
 * coding has ended the wire must end too: a chunked body's last chunk and trailer fields are read, so
 * that the connection can carry another request, and a body framed by the connection's close ends
 * with it (RFC 9112 section 6.3), however the coding ended; bytes after the coding end the reading,
 * and the connection carries nothing more. Not thread-safe: one fetch owns it.
 */
final class TransferDecoding extends BulkInputStream {

  /** The most bytes one read hands on, so that a cap is overshot by at most this much. */
  private static final int CHUNK = 8192;

  private final Meter wire;
  private final TransferCodings codings;
  private final long maxRatio;
  private final long deadlineNanos;
  private InputStream decoder; // made at the first read: making it reads the coding's header
  private long produced;
  private Optional<Truncation> stop = Optional.empty();
  private boolean ended;

  /**
   * @param wire the body as framed on the connection; not closed here
   * @param cap the most bytes read from {@code wire}
   * @param maxRatio the most output bytes per wire byte beyond {@link BodyReader#RATIO_FLOOR}; 0 or
   *     less: no ratio cap
   * @param deadlineNanos the fetch's deadline ({@link System#nanoTime()}), which bounds the inner layers
   *     of a stack of codings ({@link ContentCoding.Bounds})
   */
  TransferDecoding(InputStream wire, TransferCodings codings, int cap, long maxRatio, long deadlineNanos) {
    this.wire = new Meter(wire, cap);
    this.codings = codings;
    this.maxRatio = maxRatio;
    this.deadlineNanos = deadlineNanos;
  }

  /** Why the output ended before the coding did; empty when it ended with the coding, or not yet. */
  Optional<Truncation> stop() {
    return stop;
  }

  /** Bytes read from the wire so far: what a content coding's ratio is measured against. */
  long wireBytes() {
    return wire.count;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) return 0;
    if (ended) return -1;
    int n;
    try {
      if (decoder == null) {
        decoder = ContentCoding.decoder(wire, codings.toUndo(),
            new ContentCoding.Bounds(this::wireBytes, maxRatio, deadlineNanos));
      }
      n = decoder.read(b, off, Math.min(len, CHUNK));
    } catch (ContentCoding.InnerLayerCut e) {
      return stopAt(e.why);
    } catch (IOException e) {
      if (wire.failure != null) throw wire.failure;
      if (wire.capped) return stopAt(Truncation.MAX_PAGE_BYTES);
      if (produced > 0 || !wire.replayable()) return stopAt(Truncation.UNDECODABLE);
      closeDecoder();
      decoder = wire.replay(); // not in its coding at all: as it came
      n = decoder.read(b, off, Math.min(len, CHUNK));
    }
    if (n < 0) {
      if (wire.failure != null) throw wire.failure;
      // At the cap the decoder sees the wire end mid-coding, or a member end with more to come: the cap is why.
      if (wire.capped) return stopAt(Truncation.MAX_PAGE_BYTES);
      ended = true;
      wire.read(); // the wire's end (a last chunk, the server's close), or a byte after the coding
      return -1;
    }
    if (produced == 0) wire.forgetStart();
    produced += n;
    if (BodyReader.overRatio(produced, wire.count, maxRatio)) {
      stop = Optional.of(Truncation.MAX_DECOMPRESSION_RATIO);
      ended = true;
    }
    return n;
  }

  /** Frees the decoder's inflaters; the wire stays open. */
  @Override
  public void close() {
    closeDecoder();
  }

  private int stopAt(Truncation why) {
    stop = Optional.of(why);
    ended = true;
    return -1;
  }

  private void closeDecoder() {
    if (decoder == null) return;
    try {
      decoder.close(); // closes the meter, which leaves the wire open
    } catch (IOException e) {
      // Only memory is freed here.
    }
    decoder = null;
  }

  /**
   * The wire under the decoder: counts its bytes, ends at the cap (one byte more read tells whether
   * the wire had more), and keeps its first bytes until the coding yields one, to pass them on should
   * the body not be in its coding.
   */
  private static final class Meter extends BulkInputStream {
    /** The first bytes kept: a gzip header and the decoder's first fill of its buffer. */
    private static final int START = 2 * CHUNK;

    private final InputStream wire;
    private final int cap;
    long count;
    boolean capped;
    /** The wire's failed read, if one did. */
    IOException failure;
    private byte[] start = new byte[START];
    private int kept;

    Meter(InputStream wire, int cap) {
      this.wire = wire;
      this.cap = cap;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) return 0;
      if (capped) return -1;
      if (count >= cap) {
        capped = fromWire(new byte[1], 0, 1) >= 0;
        return -1;
      }
      int n = fromWire(b, off, (int) Math.min(len, cap - count));
      if (n <= 0) return n;
      count += n;
      if (start != null && kept + n <= start.length) {
        System.arraycopy(b, off, start, kept, n);
        kept += n;
      } else {
        start = null; // too long to be a coding's start: no longer passed on as it came
      }
      return n;
    }

    boolean replayable() {
      return start != null;
    }

    /** The bytes read so far, then the rest of the wire. */
    InputStream replay() {
      InputStream replay = new SequenceInputStream(new ByteArrayInputStream(start, 0, kept), this);
      start = null;
      return replay;
    }

    void forgetStart() {
      start = null;
    }

    /** Does not close the wire: the exchange decides what becomes of the connection. */
    @Override
    public void close() {}

    private int fromWire(byte[] b, int off, int len) throws IOException {
      try {
        return wire.read(b, off, len);
      } catch (IOException e) {
        failure = e;
        throw e;
      }
    }
  }
}
