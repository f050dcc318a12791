package org.forager.warc;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The uncompressed beginning of records of one WARC file, read at their {@link RecordSpan}s, for
 * indexing: one {@link Inflater} (or zstd context) for all of them, ended by {@link #close}.
 *
 * <p>Why not a jwarc {@code WarcReader} per record: its gzip channel never ends its inflater, so each
 * record's native zlib state waits for a garbage collection; indexing a 1 GiB file that way held
 * some 400 MB of native memory at once (peak RSS of a 30,000-page crawl 600 -> 800 MiB,
 * docs/benchmarks.md). Not thread-safe.
 */
final class RecordHeads implements AutoCloseable {

  /** A head never read past: headers longer than this are read {@link #whole}. */
  static final int HEAD_BYTES = 64 * 1024;
  /** The first read of a head: the WARC and HTTP headers of most records fit. */
  private static final int FIRST_BYTES = 2 * 1024;

  /** Buffers kept from one record to the next unless a large record grew them past this. */
  private static final int KEEP_BUFFER_BYTES = 1 << 20;

  private final FileChannel file;
  private final RecordCompression.Format format;
  private final byte[] chunk = new byte[16 * 1024];
  private byte[] compressed = new byte[32 * 1024];
  /** The record's bytes inflated so far: {@code out[0, size)}. */
  private byte[] out = new byte[16 * 1024];
  private int size;
  private Inflater inflater;
  private ZstdDecompressCtx zstd;

  RecordHeads(FileChannel file, RecordCompression.Format format) {
    this.file = file;
    this.format = format;
  }

  /**
   * The record's uncompressed bytes up to the end of its HTTP headers (the second blank line), or all
   * of them if shorter, or {@link #HEAD_BYTES} of them if the headers are longer: no more is inflated
   * than an index line needs (inflating whole pages to index them cost some 5 % of a crawl's CPU).
   */
  byte[] head(RecordSpan span) throws IOException {
    return read(span, HEAD_BYTES);
  }

  /** The record's uncompressed bytes, all of them. */
  byte[] whole(RecordSpan span) throws IOException {
    return read(span, Integer.MAX_VALUE - 16);
  }

  private byte[] read(RecordSpan span, int limit) throws IOException {
    if (span.length() > Integer.MAX_VALUE - 16) throw new IOException("record of " + span.length() + " bytes");
    int length = (int) span.length();
    if (compressed.length < length) compressed = new byte[length];
    ByteBuffer buffer = ByteBuffer.wrap(compressed, 0, length);
    while (buffer.hasRemaining()) {
      if (file.read(buffer, span.offset() + buffer.position()) < 0) throw new IOException("file ends inside the record");
    }
    byte[] bytes = switch (format) {
      case GZIP -> inflate(compressed, length, limit);
      case ZSTD -> unzstd(Arrays.copyOf(compressed, length), limit);
    };
    if (compressed.length > KEEP_BUFFER_BYTES) compressed = new byte[32 * 1024];
    if (out.length > KEEP_BUFFER_BYTES) out = new byte[16 * 1024];
    return bytes;
  }

  private byte[] inflate(byte[] member, int length, int limit) throws IOException {
    int start = gzipHeaderLength(member, length);
    if (inflater == null) inflater = new Inflater(true);
    inflater.reset();
    inflater.setInput(member, start, length - start);
    boolean headOnly = limit == HEAD_BYTES;
    size = 0;
    int step = headOnly ? FIRST_BYTES : chunk.length;
    try {
      while (size < limit && !inflater.finished()) {
        int n = inflater.inflate(chunk, 0, Math.min(step, limit - size));
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) throw new IOException("gzip member cut short");
        append(n);
        if (headOnly && blankLines(out, size) >= 2) break;
        step = Math.min(chunk.length, step * 2);
      }
    } catch (DataFormatException e) {
      throw new IOException("bad gzip member: " + e.getMessage(), e);
    }
    return Arrays.copyOf(out, size);
  }

  private void append(int n) {
    if (size + n > out.length) out = Arrays.copyOf(out, Math.max(size + n, 2 * out.length));
    System.arraycopy(chunk, 0, out, size, n);
    size += n;
  }

  /** How many CRLF CRLF sequences {@code bytes} holds, up to 2: the ends of the WARC and the HTTP headers. */
  static int blankLines(byte[] bytes) {
    return blankLines(bytes, bytes.length);
  }

  private static int blankLines(byte[] bytes, int length) {
    int found = 0;
    for (int i = 3; i < length && found < 2; i++) {
      if (bytes[i] == '\n' && bytes[i - 1] == '\r' && bytes[i - 2] == '\n' && bytes[i - 3] == '\r') found++;
    }
    return found;
  }

  /** The length of a gzip member's header (RFC 1952 2.3), optional fields included. */
  static int gzipHeaderLength(byte[] m, int length) throws IOException {
    if (length < 10 || (m[0] & 0xFF) != 0x1f || (m[1] & 0xFF) != 0x8b || m[2] != 8) throw new IOException("not a gzip member");
    int flags = m[3] & 0xFF;
    int at = 10;
    if ((flags & 4) != 0) { // FEXTRA
      if (at + 2 > length) throw new IOException("gzip header cut short");
      at += 2 + ((m[at] & 0xFF) | (m[at + 1] & 0xFF) << 8);
    }
    for (int bit : new int[] {8, 16}) { // FNAME, FCOMMENT: zero-terminated
      if ((flags & bit) == 0) continue;
      while (at < length && m[at] != 0) at++;
      at++;
    }
    if ((flags & 2) != 0) at += 2; // FHCRC
    if (at > length) throw new IOException("gzip header cut short");
    return at;
  }

  private byte[] unzstd(byte[] frame, int limit) throws IOException {
    long size = Zstd.getFrameContentSize(frame);
    if (size < 0 || size > Integer.MAX_VALUE - 16) throw new IOException("zstd frame without a usable content size");
    if (zstd == null) zstd = new ZstdDecompressCtx();
    byte[] record = zstd.decompress(frame, (int) size); // a frame is one record: small, and zstd is fast
    if (record.length <= limit) return record;
    byte[] head = new byte[limit];
    System.arraycopy(record, 0, head, 0, limit);
    return head;
  }

  @Override
  public void close() {
    if (inflater != null) inflater.end();
    if (zstd != null) zstd.close();
  }
}
