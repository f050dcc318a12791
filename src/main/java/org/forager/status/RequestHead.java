package org.forager.status;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parts of an HTTP/1.x request head (RFC 9112) the status server uses, read with a size cap.
 * Strict: anything a well-behaved client would not send is {@link Refused} rather than guessed at.
 *
 * @param method the method, e.g. {@code GET}
 * @param path the target's path, without query or fragment (origin-form only: starts with {@code /})
 * @param host the {@code Host} header's value, trimmed; empty when there was none
 * @param headers every header by its lower-case name, values trimmed (repeated ones joined with
 *     {@code ", "}; those in {@link #SINGLE} may not repeat)
 */
record RequestHead(String method, String path, Optional<String> host, Map<String, String> headers) {

  /** Headers a request may carry once only: two would leave the server guessing which one counts. */
  static final Set<String> SINGLE = Set.of("host", "authorization", "origin", "content-length", "content-type",
      "transfer-encoding", "sec-fetch-site", "x-forager-client");

  RequestHead {
    headers = Map.copyOf(headers);
  }

  /** A header's value by name (any case), when the request has it. */
  Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
  }

  /** RFC 9112 §3: method SP request-target SP HTTP-version. */
  private static final Pattern REQUEST_LINE = Pattern.compile("([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\\S+) (HTTP/\\d\\.\\d)");
  /** RFC 9110 §5.1: a token, then ':' with no whitespace before it. */
  private static final Pattern FIELD = Pattern.compile("([!#$%&'*+.^_`|~0-9A-Za-z-]+):(.*)");

  /** A request the server answers with {@code status} and closes, without calling the handler. */
  static final class Refused extends Exception {
    private final int status;

    Refused(int status, String message) {
      super(message, null, false, false);
      this.status = status;
    }

    int status() {
      return status;
    }
  }

  /**
   * Reads one request head, up to its blank line, from {@code in}; never more than {@code maxBytes},
   * and not a byte past the head (a body is left for the caller). {@code in} should be buffered: it
   * is read a byte at a time.
   *
   * @throws Refused with 431 when the head is longer than {@code maxBytes}, 505 for a version other
   *     than HTTP/1.x, 400 for anything else malformed
   * @throws EOFException when the client closed before the head ended
   */
  static RequestHead read(InputStream in, int maxBytes) throws IOException, Refused {
    byte[] buffer = new byte[maxBytes];
    int length = 0;
    while (true) {
      int b = in.read();
      if (b < 0) throw new EOFException("closed before the end of the request head");
      if (length == maxBytes) throw new Refused(431, "request head longer than " + maxBytes + " bytes");
      buffer[length++] = (byte) b;
      // The head ends with a blank line: CRLF CRLF, or bare LF LF. Only the last bytes are looked at,
      // so a client dripping a byte per read costs no rescan of the whole head.
      if (b == '\n' && length >= 2 && (buffer[length - 2] == '\n'
          || length >= 3 && buffer[length - 2] == '\r' && buffer[length - 3] == '\n')) {
        return parse(new String(buffer, 0, length, StandardCharsets.ISO_8859_1));
      }
    }
  }

  static RequestHead parse(String head) throws Refused {
    String[] lines = head.split("\r?\n");
    int first = 0;
    while (first < lines.length && lines[first].isEmpty()) first++; // RFC 9112 §2.2: CRLFs before it
    if (first == lines.length) throw new Refused(400, "no request line");
    Matcher line = REQUEST_LINE.matcher(lines[first]);
    if (!line.matches()) throw new Refused(400, "malformed request line");
    if (!line.group(3).startsWith("HTTP/1.")) throw new Refused(505, "only HTTP/1.x is spoken here");
    String target = line.group(2);
    if (!target.startsWith("/")) throw new Refused(400, "the request target must be a path");
    Map<String, String> headers = new HashMap<>();
    for (int i = first + 1; i < lines.length; i++) {
      Matcher field = FIELD.matcher(lines[i]);
      // Folded lines (RFC 9112 §5.2) and whitespace before the colon (§5.1) are refused too.
      if (!field.matches()) throw new Refused(400, "malformed header line");
      String name = field.group(1).toLowerCase(Locale.ROOT);
      String value = field.group(2).strip();
      String before = headers.putIfAbsent(name, value);
      if (before == null) continue;
      // RFC 9112 §3.2: more than one Host is a bad request; so is a second token or Origin here.
      if (SINGLE.contains(name)) throw new Refused(400, "more than one " + field.group(1) + " header");
      headers.put(name, before + ", " + value);
    }
    int cut = indexOfAny(target, '?', '#');
    return new RequestHead(line.group(1), cut < 0 ? target : target.substring(0, cut),
        Optional.ofNullable(headers.get("host")), headers);
  }

  private static int indexOfAny(String s, char a, char b) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) == a || s.charAt(i) == b) return i;
    }
    return -1;
  }
}
