package org.forager.fetch;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a response head (RFC 9112 sections 4 and 5) from a {@link Connection}, within bounds that
 * keep a hostile server from holding memory or the fetch: a line (a field value with its obsolete
 * line folding included) of at most {@link #MAX_LINE_BYTES}, at most {@link #MAX_FIELDS} fields, at
 * most {@link #MAX_HEAD_BYTES} in all (interim 1xx heads count toward the final one's), and a
 * deadline checked before every read of the socket, so that a head dripped a byte at a time ends at
 * the fetch's deadline even should its alarm never fire. Interim responses (1xx but 101) are read
 * and dropped. Past a bound, or for what is not an HTTP/1.x response head:
 * {@link HttpProtocolException}; past the deadline: {@link SocketTimeoutException}; the connection
 * closed before any byte of the head: {@link EOFException}. Stateless.
 */
final class ResponseHeadLimits {

  /** The longest head line, and the longest field value with its obsolete line folding. */
  static final int MAX_LINE_BYTES = 16 * 1024;
  /** The most header fields in one head. */
  static final int MAX_FIELDS = 256;
  /** The most bytes in one head: Chromium's limit, so any head a browser takes is taken. */
  static final int MAX_HEAD_BYTES = 256 * 1024;
  /** Empty lines taken before a status line (a server's stray CRLF after a body). */
  private static final int MAX_EMPTY_LINES = 10;

  /** A response head as received: version ({@code HTTP/1.1}), status, reason phrase, fields in order. */
  record ResponseHead(String version, int status, String reason, List<Header> headers) {

    /** The values of the fields of that name (case-insensitive), in order. */
    List<String> values(String name) {
      List<String> values = new ArrayList<>(1);
      for (Header h : headers) {
        if (h.name().equalsIgnoreCase(name)) values.add(h.value());
      }
      return values;
    }
  }

  private ResponseHeadLimits() {}

  /** The final response head of the exchange on {@code connection}; see the class comment. */
  static ResponseHead read(Connection connection, long deadlineNanos) throws IOException {
    Reader reader = new Reader(connection, deadlineNanos);
    while (true) {
      ResponseHead head = reader.head();
      if (head.status() >= 200 || head.status() == 101) return head;
    }
  }

  /** One exchange's reading: its byte count spans the interim heads. */
  private static final class Reader {
    private final Connection connection;
    private final long deadlineNanos;
    private byte[] line = new byte[256];
    private int lineLength;
    private long headBytes;
    private boolean anyByte;

    Reader(Connection connection, long deadlineNanos) {
      this.connection = connection;
      this.deadlineNanos = deadlineNanos;
    }

    ResponseHead head() throws IOException {
      int empty = 0;
      while (!readLine()) {
        if (++empty > MAX_EMPTY_LINES) throw new HttpProtocolException("empty lines instead of a status line");
      }
      String statusLine = text(0, lineLength);
      String version = statusLine.length() >= 8 ? statusLine.substring(0, 8) : "";
      if (!version.startsWith("HTTP/1.") || !isDigit(version.charAt(7)) || statusLine.length() < 12
          || statusLine.charAt(8) != ' ' || !isDigit(statusLine.charAt(9)) || !isDigit(statusLine.charAt(10))
          || !isDigit(statusLine.charAt(11)) || (statusLine.length() > 12 && statusLine.charAt(12) != ' ')) {
        throw new HttpProtocolException("not an HTTP/1.x status line: " + printable(statusLine));
      }
      int status = Integer.parseInt(statusLine, 9, 12, 10);
      if (status < 100) throw new HttpProtocolException("not a status code: " + printable(statusLine));
      String reason = statusLine.length() > 13 ? statusLine.substring(13) : "";
      List<Header> headers = new ArrayList<>();
      // A field's line is kept until the next one shows it is not folded onto.
      StringBuilder pending = null;
      while (readLineOrEnd()) {
        if (line[0] == ' ' || line[0] == '\t') { // obsolete line folding (RFC 9112 section 5.2)
          if (pending == null) throw new HttpProtocolException("a folded line before any field");
          String folded = text(0, lineLength).strip();
          if (pending.length() + 1 + folded.length() >= MAX_LINE_BYTES) {
            throw new HttpProtocolException("header line longer than " + MAX_LINE_BYTES + " bytes");
          }
          pending.append(' ').append(folded);
          continue;
        }
        if (pending != null) headers.add(field(pending.toString()));
        if (headers.size() >= MAX_FIELDS) throw new HttpProtocolException("more than " + MAX_FIELDS + " header fields");
        pending = new StringBuilder(text(0, lineLength));
      }
      if (pending != null) headers.add(field(pending.toString()));
      return new ResponseHead(version, status, reason, headers);
    }

    /** A field line: a token, a colon, the value without the whitespace around it. */
    private static Header field(String line) throws HttpProtocolException {
      int colon = line.indexOf(':');
      if (colon <= 0) throw new HttpProtocolException("not a header field: " + printable(line));
      for (int i = 0; i < colon; i++) {
        char c = line.charAt(i);
        if (c <= ' ' || c >= 0x7F) throw new HttpProtocolException("not a header field name: " + printable(line));
      }
      return new Header(line.substring(0, colon), line.substring(colon + 1).strip());
    }

    /**
     * As {@link #readLine}, but the connection ending where a field line would start is the end of
     * the head (what HttpCore did, as browsers do): the body then ends with the connection.
     */
    private boolean readLineOrEnd() throws IOException {
      if (connection.position == connection.limit && !waitForBytes()) return false;
      return readLine();
    }

    /** Whether bytes came (false: the connection ended); the deadline checked first. */
    private boolean waitForBytes() throws IOException {
      if (System.nanoTime() - deadlineNanos >= 0) {
        throw new SocketTimeoutException("response head not complete within the fetch timeout");
      }
      if (!connection.fill()) return false;
      anyByte = true;
      return true;
    }

    /**
     * Reads the next line into {@link #line} without its line end (CRLF or a bare LF); false when it
     * is empty (the end of a head).
     */
    private boolean readLine() throws IOException {
      lineLength = 0;
      while (true) {
        if (connection.position == connection.limit && !waitForBytes()) {
          if (!anyByte) throw new EOFException("the server closed the connection without a response");
          throw new HttpProtocolException("the connection ended within a line of the response head");
        }
        byte[] buffer = connection.buffer;
        int start = connection.position;
        int end = connection.limit;
        int newline = -1;
        for (int i = start; i < end; i++) {
          if (buffer[i] == '\n') {
            newline = i;
            break;
          }
        }
        int taken = (newline < 0 ? end : newline + 1) - start;
        headBytes += taken;
        if (headBytes > MAX_HEAD_BYTES) {
          throw new HttpProtocolException("response head longer than " + (MAX_HEAD_BYTES / 1024) + " KiB");
        }
        int content = newline < 0 ? end - start : newline - start;
        if (lineLength + content > MAX_LINE_BYTES) {
          throw new HttpProtocolException("header line longer than " + MAX_LINE_BYTES + " bytes");
        }
        append(buffer, start, content);
        connection.position = start + taken;
        if (newline >= 0) {
          if (lineLength > 0 && line[lineLength - 1] == '\r') lineLength--;
          return lineLength > 0;
        }
      }
    }

    private void append(byte[] from, int offset, int length) {
      if (lineLength + length > line.length) {
        line = java.util.Arrays.copyOf(line, Math.max(line.length * 2, lineLength + length));
      }
      System.arraycopy(from, offset, line, lineLength, length);
      lineLength += length;
    }

    private String text(int from, int to) {
      return new String(line, from, to - from, StandardCharsets.ISO_8859_1);
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * At most 256 chars of a line a server sent, as sent, for a message: what shows a message (the
   * log, the terminal, the status page) escapes it.
   */
  private static String printable(String line) {
    return line.length() <= 256 ? line : line.substring(0, 256) + "...";
  }
}
