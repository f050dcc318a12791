package org.forager.bench.web;

/**
 * Finds and reads HTTP/1.1 request heads (RFC 9112 section 2-3) in a byte array: request line,
 * and of the header fields only Connection (persistence, RFC 9112 9.3) and whether a body is
 * announced (Content-Length other than 0, or Transfer-Encoding), which this server refuses. Lines
 * must end with CRLF. Stateless.
 */
final class RequestParser {

  /** A parsed request head. */
  record Head(int end, int target, int status, boolean head, boolean close) {}

  private RequestParser() {}

  /** Where the first head in {@code a[from..to)} ends (after its CRLFCRLF), or -1 if incomplete. */
  static int headEnd(byte[] a, int from, int to) {
    for (int i = from + 3; i < to; i++) {
      if (a[i] == '\n' && a[i - 1] == '\r' && a[i - 2] == '\n' && a[i - 3] == '\r') return i + 1;
    }
    return -1;
  }

  /** Parses the head in {@code a[from..end)}, {@code end} as found by {@link #headEnd}. */
  static Head parse(byte[] a, int from, int end, int pages) {
    // RFC 9112 2.2: ignore empty lines before the request line.
    while (from + 1 < end && a[from] == '\r' && a[from + 1] == '\n') from += 2;
    int lineEnd = indexOf(a, from, end, (byte) '\r');
    int sp1 = indexOf(a, from, lineEnd, (byte) ' ');
    int sp2 = sp1 < 0 ? -1 : indexOf(a, sp1 + 1, lineEnd, (byte) ' ');
    if (sp1 <= from || sp2 <= sp1 + 1) return new Head(end, Target.OTHER, 400, false, true);
    boolean http10 = equalsAscii(a, sp2 + 1, lineEnd, "HTTP/1.0");
    if (!http10 && !equalsAscii(a, sp2 + 1, lineEnd, "HTTP/1.1")) {
      return new Head(end, Target.OTHER, 400, false, true);
    }
    boolean get = equalsAscii(a, from, sp1, "GET");
    boolean head = equalsAscii(a, from, sp1, "HEAD");
    boolean close = http10;
    boolean body = false;
    int line = lineEnd + 2;
    while (line < end - 2) {
      int next = indexOf(a, line, end, (byte) '\r');
      if (startsWithIgnoreCase(a, line, next, "connection:")) {
        if (containsIgnoreCase(a, line + 11, next, "close")) close = true;
        else if (containsIgnoreCase(a, line + 11, next, "keep-alive")) close = false;
      } else if (startsWithIgnoreCase(a, line, next, "transfer-encoding:")) {
        body = true;
      } else if (startsWithIgnoreCase(a, line, next, "content-length:")) {
        for (int i = line + 15; i < next; i++) {
          if (a[i] >= '1' && a[i] <= '9') body = true;
        }
      }
      line = next + 2;
    }
    int target = Target.classify(a, sp1 + 1, sp2, pages);
    if (body) return new Head(end, target, 400, head, true);
    if (!get && !head) return new Head(end, target, 405, false, close);
    return new Head(end, target, Responses.status(target), head, close);
  }

  private static int indexOf(byte[] a, int from, int to, byte b) {
    for (int i = from; i < to; i++) {
      if (a[i] == b) return i;
    }
    return -1;
  }

  private static boolean equalsAscii(byte[] a, int from, int to, String s) {
    if (to - from != s.length()) return false;
    for (int i = 0; i < s.length(); i++) {
      if (a[from + i] != s.charAt(i)) return false;
    }
    return true;
  }

  private static boolean startsWithIgnoreCase(byte[] a, int from, int to, String s) {
    if (to - from < s.length()) return false;
    for (int i = 0; i < s.length(); i++) {
      if (Character.toLowerCase((char) a[from + i]) != s.charAt(i)) return false;
    }
    return true;
  }

  private static boolean containsIgnoreCase(byte[] a, int from, int to, String s) {
    for (int i = from; i + s.length() <= to; i++) {
      if (startsWithIgnoreCase(a, i, to, s)) return true;
    }
    return false;
  }
}
