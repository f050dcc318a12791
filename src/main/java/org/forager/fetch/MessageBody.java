package org.forager.fetch;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * A response's body as it comes off its {@link Connection}, its framing undone (RFC 9112 section
 * 6; other transfer codings are {@link TransferDecoding}'s): so many bytes ({@code Content-Length}),
 * chunks ({@code Transfer-Encoding} ending with {@code chunked}, their extensions and trailer fields
 * read and dropped), or everything until the server closes. The end
 * of the body is the end of the stream; the connection ending before it is an {@link EOFException},
 * bytes that cannot be chunks an {@link HttpProtocolException} (a body cut short either way).
 * {@link #ended} says whether the body was read to its end, so that the connection may carry
 * another request. Not thread-safe.
 */
abstract class MessageBody extends InputStream {

  /** The longest chunk-size or trailer line taken. */
  private static final int MAX_CHUNK_LINE = 4 * 1024;

  final Connection connection;
  private boolean ended;

  private MessageBody(Connection connection) {
    this.connection = connection;
  }

  /** A body of {@code length} bytes. */
  static MessageBody ofLength(Connection connection, long length) {
    return new Length(connection, length);
  }

  /** A chunked body. */
  static MessageBody chunked(Connection connection) {
    return new Chunked(connection);
  }

  /** A body that ends when the connection does. */
  static MessageBody untilClose(Connection connection) {
    return new UntilClose(connection);
  }

  /** Whether the body was read to its end (for a body until close: whether the connection ended). */
  final boolean ended() {
    return ended;
  }

  /** The body's length as its head announced it; -1 when it announced none. */
  long announcedLength() {
    return -1;
  }

  /** Whether the body ends only when the connection does (which then carries nothing more). */
  boolean isUntilClose() {
    return false;
  }

  final int end() {
    ended = true;
    return -1;
  }

  @Override
  public final int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xFF;
  }

  /** Does not close the connection: whether it goes back to the pool is the exchange's call. */
  @Override
  public final void close() {}

  private static final class Length extends MessageBody {
    private final long length;
    private long remaining;

    Length(Connection connection, long length) {
      super(connection);
      this.length = length;
      this.remaining = length;
    }

    @Override
    long announcedLength() {
      return length;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
      if (remaining == 0) return end();
      int n = connection.read(into, offset, (int) Math.min(length, remaining));
      if (n < 0) throw new EOFException("the connection ended " + remaining + " bytes before the body's end");
      remaining -= n;
      return n;
    }
  }

  private static final class UntilClose extends MessageBody {
    UntilClose(Connection connection) {
      super(connection);
    }

    @Override
    boolean isUntilClose() {
      return true;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
      int n = connection.read(into, offset, length);
      return n < 0 ? end() : n;
    }
  }

  private static final class Chunked extends MessageBody {
    /**
     * Framing (size lines with their extensions, line ends, trailer fields) a chunked body may have
     * beyond {@link #FRAMING_PER_BODY_BYTE} times its data: a hostile server's one-byte chunks, each
     * with a 4,000-byte extension, cost a fetch 19 s of CPU for 1.5 MB of page (6 GB of framing read
     * byte by byte; an attacker's review, session 67). Well above any real server's.
     */
    static final long FREE_FRAMING = 64 * 1024;
    /** One-byte chunks without extensions are 5 bytes of framing a byte of data ({@code 1\r\nx\r\n}). */
    static final int FRAMING_PER_BODY_BYTE = 8;

    /** Bytes left in the current chunk; -1 before the first chunk's size line. */
    private long remaining = -1;
    private boolean last;
    /** Framing bytes read, and data bytes. */
    private long framing;
    private long data;

    Chunked(Connection connection) {
      super(connection);
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
      if (last) return end();
      if (remaining <= 0) {
        if (remaining == 0) crlf(); // the end of the chunk before
        remaining = chunkSize();
        if (remaining == 0) {
          trailers();
          last = true;
          return end();
        }
      }
      int n = connection.read(into, offset, (int) Math.min(length, remaining));
      if (n < 0) throw new EOFException("the connection ended within a chunk");
      remaining -= n;
      data += n;
      return n;
    }

    /** A chunk-size line: hex digits, then optional extensions (dropped). */
    private long chunkSize() throws IOException {
      String line = line();
      int end = 0;
      while (end < line.length() && Character.digit(line.charAt(end), 16) >= 0) end++;
      if (end == 0 || end > 15) throw new HttpProtocolException("not a chunk size: " + line.strip());
      for (int i = end; i < line.length(); i++) {
        char c = line.charAt(i);
        if (c == ';') break;
        if (c != ' ' && c != '\t') throw new HttpProtocolException("not a chunk size: " + line.strip());
      }
      return Long.parseLong(line, 0, end, 16);
    }

    private void crlf() throws IOException {
      if (!line().isEmpty()) throw new HttpProtocolException("a chunk longer than its size");
    }

    /** The trailer section, dropped: lines up to an empty one. */
    private void trailers() throws IOException {
      for (int fields = 0; !line().isEmpty(); fields++) {
        if (fields >= ResponseHeadLimits.MAX_FIELDS) throw new HttpProtocolException("too many trailer fields");
      }
    }

    /** A line without its CRLF (or bare LF). */
    private String line() throws IOException {
      StringBuilder line = new StringBuilder();
      while (true) {
        int b = connection.read();
        if (b < 0) throw new EOFException("the connection ended within the chunked body");
        if (++framing > FREE_FRAMING + FRAMING_PER_BODY_BYTE * data) {
          throw new HttpProtocolException("chunked framing out of proportion to its body (" + framing
              + " bytes of framing for " + data + " of body)");
        }
        if (b == '\n') break;
        if (line.length() >= MAX_CHUNK_LINE) throw new HttpProtocolException("a chunk line too long");
        line.append((char) b);
      }
      int n = line.length();
      if (n > 0 && line.charAt(n - 1) == '\r') line.setLength(n - 1);
      return line.toString();
    }
  }
}
