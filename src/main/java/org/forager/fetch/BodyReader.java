package org.forager.fetch;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.forager.fetch.FetchResult.Truncation;

/**
 * Reads one response body under the fetcher's caps: at most {@code maxBytes} raw bytes from the wire,
 * at most {@code maxBytes} decoded bytes, decoded output beyond {@link #RATIO_FLOOR} at most
 * {@code maxRatio} times the raw input read so far, and nothing after the deadline. Decoding streams,
 * so memory stays within the caps however far a gzip bomb would expand. Thread-safe (no mutable
 * state); each call owns its streams.
 *
 * <p>A body cut short says why ({@link Truncation}): the cap or the deadline that stopped the
 * reading, or the connection ending early. A failed read after the deadline is the deadline's doing
 * (the fetcher's timer aborts the connection then).
 *
 * <p>When the body says it is gzip or deflate but does not even start like it, the body is kept as
 * it came (servers do mislabel plain bodies); when decoding fails midway, the body is what was decoded
 * until then, {@link Truncation#UNDECODABLE}.
 *
 * <p>Transfer codings besides chunked (RFC 9112 section 7) are undone first, the same way and under
 * the same caps ({@link TransferDecoding}); the raw body is then the transfer-decoded one, which the
 * WARC record stores, and every ratio is of the bytes on the wire.
 */
final class BodyReader {

  /**
   * The body as read. {@code complete}: the wire reached the end cleanly, so the connection can be
   * reused.
   */
  record Body(byte[] raw, byte[] decoded, Optional<Truncation> truncation, boolean complete) {
    static final Body EMPTY = new Body(new byte[0], new byte[0], Optional.empty(), true);

    static Body cutShort(Truncation why) {
      return new Body(new byte[0], new byte[0], Optional.of(why), false);
    }

    /** This body, cut short for {@code why} (whatever else it was cut by). */
    Body truncatedBy(Truncation why) {
      return new Body(raw, decoded, Optional.of(why), false);
    }
  }

  /**
   * Decoded bytes always allowed whatever the ratio: small repetitive pages compress far better than
   * 100:1, and so little output costs nothing to decode.
   */
  static final int RATIO_FLOOR = 64 * 1024;

  /**
   * The largest first buffer an announced length makes: a body's free bytes ({@link BodyMemory}), so
   * that a length announced and never sent holds no memory beyond them.
   */
  static final int PRESIZE_LIMIT = BodyMemory.FREE_BYTES;

  private final int maxBytes;
  private final long maxRatio;

  BodyReader(long maxBytes, long maxRatio) {
    // Arrays cannot be longer than this; a larger configured cap means "this much".
    this.maxBytes = (int) Math.min(maxBytes, Integer.MAX_VALUE - 16);
    this.maxRatio = maxRatio;
  }

  /**
   * @param wire the body as framed on the connection (chunks or a length undone) with no other transfer
   *     coding; not closed here
   * @param contentEncoding the Content-Encoding field values, in order
   * @param deadlineNanos a {@link System#nanoTime()} value after which reading stops
   */
  Body read(InputStream wire, List<String> contentEncoding, long deadlineNanos) {
    return read(wire, contentEncoding, deadlineNanos, -1);
  }

  /**
   * As {@link #read(InputStream, List, long)}, with the body's announced length ({@code -1}: unknown),
   * which sizes the first buffer up to {@link #PRESIZE_LIMIT}: a server that announces more than it
   * sends costs at most that much memory for nothing.
   */
  Body read(InputStream wire, List<String> contentEncoding, long deadlineNanos, long contentLength) {
    return read(wire, TransferCodings.NONE, contentEncoding, deadlineNanos, contentLength);
  }

  /**
   * As {@link #read(InputStream, List, long, long)}, for a body whose transfer codings besides chunked
   * ({@code transfer}) are still to be undone: the raw body is then what undoing them gives
   * ({@link TransferDecoding}), the page cap and the ratio bound it as they bound a decoded body, the
   * ratio is of the bytes on the wire, and a cap that stopped the transfer decoding is why the body
   * was cut short.
   */
  Body read(InputStream wire, TransferCodings transfer, List<String> contentEncoding, long deadlineNanos,
      long contentLength) {
    BodyMemory.Lease memory = BodyMemory.current();
    if (transfer.toUndo().isEmpty()) {
      RawCapture raw = capture(wire, memory, deadlineNanos, contentLength);
      return body(raw, raw::count, contentEncoding, memory, deadlineNanos);
    }
    try (TransferDecoding decoding = new TransferDecoding(wire, transfer, maxBytes, maxRatio, deadlineNanos)) {
      // A length announced besides is not this body's: the transfer coding frames it (RFC 9112 section 6.3).
      RawCapture raw = capture(decoding, memory, deadlineNanos, -1);
      Body body = body(raw, decoding::wireBytes, contentEncoding, memory, deadlineNanos);
      // The transfer decoding's cap comes first: a content decoder it stopped saw its input end early.
      return decoding.stop().map(body::truncatedBy).orElse(body);
    }
  }

  /** The raw body's copy, its first buffer sized by the announced length ({@code -1}: unknown). */
  private RawCapture capture(InputStream source, BodyMemory.Lease memory, long deadlineNanos, long contentLength) {
    int expected = contentLength < 0 ? 8192 : (int) Math.min(contentLength, PRESIZE_LIMIT);
    return new RawCapture(source, maxBytes, expected, memory, deadlineNanos);
  }

  /**
   * The body read through {@code raw}, content codings undone.
   *
   * @param wireBytes the bytes read from the wire so far, which the decoded body's ratio is of
   */
  private Body body(RawCapture raw, LongSupplier wireBytes, List<String> contentEncoding, BodyMemory.Lease memory,
      long deadlineNanos) {
    Optional<List<String>> codings = ContentCoding.toUndo(contentEncoding);
    if (codings.isEmpty() || codings.get().isEmpty()) return asReceived(raw, deadlineNanos);
    return decoded(raw, wireBytes, codings.get(), memory, deadlineNanos);
  }

  private static Body asReceived(RawCapture raw, long deadlineNanos) {
    Optional<Truncation> cut;
    try {
      cut = raw.drain(deadlineNanos) ? Optional.empty() : Optional.of(Truncation.DEADLINE);
    } catch (IOException e) {
      cut = Optional.of(wireFailure(deadlineNanos));
    }
    if (cut.isEmpty() && raw.capped()) cut = Optional.of(Truncation.MAX_PAGE_BYTES);
    byte[] bytes = raw.bytes();
    return new Body(bytes, bytes, cut, cut.isEmpty() && raw.atEnd());
  }

  private Body decoded(RawCapture raw, LongSupplier wireBytes, List<String> codings, BodyMemory.Lease memory,
      long deadlineNanos) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(maxBytes, 8192));
    Optional<Truncation> cut;
    InputStream decoder = null;
    try {
      decoder = ContentCoding.decoder(raw, codings, new ContentCoding.Bounds(wireBytes, maxRatio, deadlineNanos));
      cut = copyCapped(decoder, out, raw, wireBytes, memory, deadlineNanos);
      if (cut.isEmpty() && !raw.drain(deadlineNanos)) cut = Optional.of(Truncation.DEADLINE);
    } catch (ContentCoding.InnerLayerCut e) {
      cut = Optional.of(e.why);
    } catch (IOException e) {
      if (!raw.wireFailed() && out.size() == 0) return asReceived(raw, deadlineNanos);
      // At the raw cap the decoder sees the stream end mid-coding: the cap is why.
      cut = Optional.of(raw.capped() ? Truncation.MAX_PAGE_BYTES
          : raw.wireFailed() ? wireFailure(deadlineNanos)
          : raw.outOfTime() ? Truncation.DEADLINE
          : Truncation.UNDECODABLE);
    } finally {
      closeQuietly(decoder);
    }
    if (cut.isEmpty() && raw.capped()) cut = Optional.of(Truncation.MAX_PAGE_BYTES);
    return new Body(raw.bytes(), out.toByteArray(), cut, cut.isEmpty() && raw.atEnd());
  }

  /** Why a read of the wire failed: the deadline's abort, or else the connection ending early. */
  static Truncation wireFailure(long deadlineNanos) {
    return System.nanoTime() - deadlineNanos >= 0 ? Truncation.DEADLINE : Truncation.CONNECTION_CLOSED;
  }

  /** Copies decoded bytes up to the caps; says why when a cap or the deadline cut the body short. */
  private Optional<Truncation> copyCapped(InputStream decoder, ByteArrayOutputStream out, RawCapture raw,
      LongSupplier wireBytes, BodyMemory.Lease memory, long deadlineNanos) throws IOException {
    byte[] chunk = new byte[8192];
    while (true) {
      if (System.nanoTime() - deadlineNanos >= 0) return Optional.of(Truncation.DEADLINE);
      int room = maxBytes - out.size();
      if (room == 0) {
        return decoder.read() < 0 ? Optional.empty() : Optional.of(Truncation.MAX_PAGE_BYTES);
      }
      int n = decoder.read(chunk, 0, Math.min(chunk.length, room));
      if (n < 0) return raw.outOfTime() ? Optional.of(Truncation.DEADLINE) : Optional.empty();
      // The decoded copy's growth beyond its free bytes is reserved as the raw one's is (a bomb's output).
      if (!memory.grow(out.size(), out.size() + n, deadlineNanos)) return Optional.of(Truncation.DEADLINE);
      out.write(chunk, 0, n);
      if (overRatio(out.size(), wireBytes.getAsLong(), maxRatio)) return Optional.of(Truncation.MAX_DECOMPRESSION_RATIO);
    }
  }

  /**
   * Whether {@code decoded} bytes from {@code wire} bytes are past the ratio cap ({@code maxRatio} 0 or
   * less: none), which spares the first {@link #RATIO_FLOOR} bytes.
   */
  static boolean overRatio(long decoded, long wire, long maxRatio) {
    return maxRatio > 0 && decoded > RATIO_FLOOR && decoded > saturatedProduct(maxRatio, wire);
  }

  private static long saturatedProduct(long a, long b) {
    long high = Math.multiplyHigh(a, b);
    long low = a * b;
    return (high == 0 && low >= 0) ? low : Long.MAX_VALUE;
  }

  private static void closeQuietly(InputStream stream) {
    if (stream == null) return;
    try {
      stream.close();
    } catch (IOException e) {
      // The decoder only frees memory here; the wire is not closed through it.
    }
  }
}
