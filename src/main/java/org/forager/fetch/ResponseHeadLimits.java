package org.forager.fetch;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.MessageConstraintException;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.impl.io.DefaultHttpResponseParserFactory;
import org.apache.hc.core5.http.io.HttpMessageParser;
import org.apache.hc.core5.http.io.SessionInputBuffer;

/**
 * The bounds on a response head (status line and header fields, RFC 9112 section 2.1), and the
 * parser factory that enforces them on every connection:
 * <ul>
 *   <li>a line of at most {@link #MAX_LINE_BYTES};
 *   <li>at most {@link #MAX_FIELDS} header fields;
 *   <li>at most {@link #MAX_HEAD_BYTES} in all, informational (1xx) heads before the final one
 *       included;
 *   <li>complete within {@code maxHeadTime} of the start of its parse, checked before each read,
 *       so a head that keeps coming stays bounded in time even without the fetcher's deadline
 *       timer (a read that waits is ended by the timer, or else by the fetcher's
 *       {@link FetchSweeper}).
 * </ul>
 * A head over a size bound fails with a {@link MessageConstraintException} (a protocol failure), one
 * over the time bound with a {@link SocketTimeoutException}. Memory per head stays within a small
 * multiple of {@link #MAX_HEAD_BYTES} whatever the server sends.
 *
 * <p>The strict HttpCore parser is used, not HttpClient's lenient default: a reply that does not
 * start with a status line is a protocol failure, not lines to skip until the server hangs up.
 *
 * <p>Why a factory of our own: HttpClient builds each connection's parser with {@code create()},
 * which uses the factory's own {@link Http1Config}, not the one given to the connection factory;
 * with {@code DefaultHttpResponseParserFactory.INSTANCE} the field count was never limited.
 */
final class ResponseHeadLimits extends DefaultHttpResponseParserFactory {

  /** The longest head line, and the longest field value with its obsolete line folding. */
  static final int MAX_LINE_BYTES = 16 * 1024;
  /** The most header fields in one head. */
  static final int MAX_FIELDS = 256;
  /** The most bytes in one head: Chromium's limit, so any head a browser takes is taken. */
  static final int MAX_HEAD_BYTES = 256 * 1024;

  /** What connections are configured with. */
  static final Http1Config HTTP1_CONFIG = Http1Config.custom()
      .setMaxLineLength(MAX_LINE_BYTES)
      .setMaxHeaderCount(MAX_FIELDS + 1) // HttpCore refuses at the count, not past it
      .build();

  private final long maxHeadNanos;

  ResponseHeadLimits(Duration maxHeadTime) {
    super(HTTP1_CONFIG);
    this.maxHeadNanos = maxHeadTime.toNanos();
  }

  @Override
  public HttpMessageParser<ClassicHttpResponse> create() {
    return new BoundedParser(super.create(), maxHeadNanos);
  }

  /** Whatever configuration a caller passes, the parser keeps these limits. */
  @Deprecated
  @Override
  public HttpMessageParser<ClassicHttpResponse> create(Http1Config ignored) {
    return create();
  }

  /** One connection's parser. Not thread-safe, as HttpCore's parsers are not. */
  private static final class BoundedParser implements HttpMessageParser<ClassicHttpResponse> {

    private final HttpMessageParser<ClassicHttpResponse> parser;
    private final long maxHeadNanos;
    /** Bytes of the heads of this exchange so far (1xx heads count toward the final one). */
    private long headBytes;
    private long startNanos;
    private boolean inExchange;

    BoundedParser(HttpMessageParser<ClassicHttpResponse> parser, long maxHeadNanos) {
      this.parser = parser;
      this.maxHeadNanos = maxHeadNanos;
    }

    @Override
    public ClassicHttpResponse parse(SessionInputBuffer buffer, InputStream wire)
        throws IOException, HttpException {
      if (!inExchange) {
        inExchange = true;
        headBytes = 0;
        startNanos = System.nanoTime();
      }
      int bufferedBefore = buffer.length();
      // The buffer holds at most its capacity of bytes read but not yet parsed.
      Budget budget = new Budget(wire, MAX_HEAD_BYTES - headBytes - bufferedBefore + buffer.capacity(),
          startNanos + maxHeadNanos);
      ClassicHttpResponse response = null;
      try {
        response = parser.parse(buffer, budget);
        headBytes += bufferedBefore + budget.read - buffer.length();
        if (headBytes > MAX_HEAD_BYTES) throw tooLong();
      } finally {
        if (response == null || response.getCode() >= 200) inExchange = false;
      }
      return response;
    }

    static MessageConstraintException tooLong() {
      return new MessageConstraintException("response head longer than " + (MAX_HEAD_BYTES / 1024) + " KiB");
    }
  }

  /** The wire as the parser reads it: refused past a byte allowance or a wall-clock deadline. */
  private static final class Budget extends FilterInputStream {

    private final long allowance;
    private final long deadlineNanos;
    long read;

    Budget(InputStream wire, long allowance, long deadlineNanos) {
      super(wire);
      this.allowance = allowance;
      this.deadlineNanos = deadlineNanos;
    }

    @Override
    public int read() throws IOException {
      check();
      int b = super.read();
      if (b >= 0) read++;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      check();
      int n = super.read(b, off, len);
      if (n > 0) read += n;
      return n;
    }

    private void check() throws IOException {
      if (read > allowance) throw BoundedParser.tooLong();
      if (System.nanoTime() - deadlineNanos >= 0) {
        throw new SocketTimeoutException("response head not complete within the fetch timeout");
      }
    }
  }
}
