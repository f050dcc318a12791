package org.forager.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import org.forager.fetch.FetchResult.Truncation;
import org.forager.io.BulkInputStream;
import org.forager.io.MemberBoundedGzipStream;

/**
 * The content codings of a response (RFC 9110 section 8.4) and the streams that undo them. Supported:
 * {@code gzip} (and its alias {@code x-gzip}) and {@code deflate}, which is meant to be zlib-wrapped
 * (RFC 1950) but is raw deflate (RFC 1951) on enough servers that both are accepted, told apart by
 * the zlib header. Brotli is not offered (see docs/fetching.md). Stateless.
 */
final class ContentCoding {

  /** More layers than this are not a real server's doing; such a body is kept as it came. */
  static final int MAX_LAYERS = 3;

  private static final int BUFFER = 8192;

  private ContentCoding() {}

  /**
   * The codings to undo, in the order to undo them (the reverse of the order applied), from the
   * Content-Encoding field values. Empty list: nothing to decode. Empty optional: a coding is
   * unknown, or there are too many, so the body cannot be decoded and is kept raw.
   */
  static Optional<List<String>> toUndo(List<String> contentEncodingValues) {
    List<String> codings = new ArrayList<>();
    for (String value : contentEncodingValues) {
      for (String token : value.split(",")) {
        String coding = token.strip().toLowerCase(Locale.ROOT);
        if (coding.isEmpty() || coding.equals("identity")) continue;
        Optional<String> known = decodable(coding);
        if (known.isEmpty()) return Optional.empty();
        codings.add(known.get());
      }
    }
    if (codings.size() > MAX_LAYERS) return Optional.empty();
    Collections.reverse(codings);
    return Optional.of(codings);
  }

  /**
   * The name {@link #decoder} knows {@code coding} by ({@code gzip} or {@code deflate}), for a coding
   * name in lower case; empty for one it cannot undo. Transfer codings of these names are the same
   * algorithms (RFC 9112 section 7.2), so {@link TransferCodings} asks here too.
   */
  static Optional<String> decodable(String coding) {
    return switch (coding) {
      case "gzip", "x-gzip" -> Optional.of("gzip");
      case "deflate" -> Optional.of("deflate");
      default -> Optional.empty();
    };
  }

  /**
   * What bounds the layers between the wire and the last decoder: the bytes read from the wire so far,
   * the most bytes a layer may make of each ({@code maxRatio}; 0 or less: {@link #INNER_RATIO_WITHOUT_CAP}),
   * and the deadline ({@link System#nanoTime()}).
   */
  record Bounds(LongSupplier wireBytes, long maxRatio, long deadlineNanos) {}

  /** An inner layer's ratio when max_decompression_ratio is off: only a bomb makes more. */
  static final long INNER_RATIO_WITHOUT_CAP = 1000;

  /**
   * An inner layer went past {@code bounds} ({@link Bounds}): the body ends there, for {@code why}
   * ({@link Truncation#MAX_DECOMPRESSION_RATIO} or {@link Truncation#DEADLINE}).
   */
  static final class InnerLayerCut extends IOException {
    final Truncation why;

    InnerLayerCut(Truncation why) {
      super(why.toString(), null);
      this.why = why;
    }
  }

  /**
   * A stream of the decoded body. Closing it frees the native inflaters and closes {@code raw}. Every
   * layer but the last (whose output the caller keeps under its caps) is bounded by {@code bounds}:
   * else a body coded three times, whose middle layer expands to gigabytes of empty deflate blocks the
   * last turns into nothing, held a core for a minute within one read, past any deadline (an attacker's
   * review: 194 KB, 42 GB at the inner layer, the crawl's other sites unserved for 58 s).
   *
   * @throws IOException when the start of the body is not in the announced coding (e.g. a bad gzip
   *     header), or reading it fails; {@link InnerLayerCut} when an inner layer went past {@code bounds}
   */
  static InputStream decoder(InputStream raw, List<String> codingsToUndo, Bounds bounds) throws IOException {
    InputStream stream = raw;
    try {
      for (int i = 0; i < codingsToUndo.size(); i++) {
        stream = codingsToUndo.get(i).equals("gzip") ? new MemberBoundedGzipStream(stream, BUFFER) : inflate(stream);
        if (i < codingsToUndo.size() - 1) stream = new InnerLayer(stream, bounds);
      }
      return stream;
    } catch (IOException e) {
      stream.close(); // frees the inflaters of the layers already built
      throw e;
    }
  }

  private static InputStream inflate(InputStream in) throws IOException {
    PushbackInputStream pushback = new PushbackInputStream(in, 2);
    byte[] head = new byte[2];
    int n = 0;
    while (n < 2) {
      int r = pushback.read(head, n, 2 - n);
      if (r < 0) break;
      n += r;
    }
    pushback.unread(head, 0, n);
    return new OwnedInflaterStream(pushback, new Inflater(!(n == 2 && isZlibHeader(head))));
  }

  /** RFC 1950 section 2.2: method 8 (deflate) and a header checksum that is a multiple of 31. */
  private static boolean isZlibHeader(byte[] head) {
    int cmf = head[0] & 0xff;
    int flg = head[1] & 0xff;
    return (cmf & 0x0f) == 8 && (cmf >>> 4) <= 7 && ((cmf << 8) | flg) % 31 == 0;
  }

  /** An inner layer's output, counted against its bounds as the next decoder reads it. */
  private static final class InnerLayer extends BulkInputStream {
    private final InputStream in;
    private final Bounds bounds;
    private final long ratio;
    private long produced;

    InnerLayer(InputStream in, Bounds bounds) {
      this.in = in;
      this.bounds = bounds;
      this.ratio = bounds.maxRatio() > 0 ? bounds.maxRatio() : INNER_RATIO_WITHOUT_CAP;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (System.nanoTime() - bounds.deadlineNanos() >= 0) throw new InnerLayerCut(Truncation.DEADLINE);
      int n = in.read(b, off, len);
      if (n > 0) {
        produced += n;
        if (BodyReader.overRatio(produced, bounds.wireBytes().getAsLong(), ratio)) {
          throw new InnerLayerCut(Truncation.MAX_DECOMPRESSION_RATIO);
        }
      }
      return n;
    }

    @Override
    public int available() throws IOException {
      return in.available();
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  /** An inflater stream that frees its inflater's native memory when closed. */
  private static final class OwnedInflaterStream extends InflaterInputStream {
    OwnedInflaterStream(InputStream in, Inflater inflater) {
      super(in, inflater, BUFFER);
    }

    @Override
    public void close() throws IOException {
      try {
        super.close();
      } finally {
        inf.end();
      }
    }
  }
}
