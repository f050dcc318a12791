package org.forager.warc;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Header;

/**
 * Serializes a response's status line and header fields the way they are stored in a WARC response
 * or revisit record (RFC 9112 section 2.1 message format). Stateless and thread-safe.
 */
final class HttpHead {

  /**
   * The name a {@code Transfer-Encoding} field is stored under. The stored body is
   * {@code rawBody}, which the fetcher has already transfer-decoded (de-chunked, and a gzip or deflate
   * transfer coding undone); keeping the field would make WARC readers de-chunk it again and fail or
   * garble it. Renaming rather than dropping keeps the fact that the server chunked (or compressed),
   * as other crawlers do with similar prefixes.
   */
  static final String RENAMED_TRANSFER_ENCODING = "X-Forager-Transfer-Encoding";

  private static final Pattern MAJOR_MINOR = Pattern.compile("HTTP/\\d\\.\\d");
  private static final Pattern MAJOR_ONLY = Pattern.compile("HTTP/(\\d)");

  private HttpHead() {}

  /** Status line, header fields in received order, and the empty line that ends the head. */
  static byte[] of(FetchResult.Response response) {
    int size = 64 + response.reason().length();
    for (Header h : response.headers()) size += RENAMED_TRANSFER_ENCODING.length() + h.name().length() + h.value().length() + 4;
    Head out = new Head(size);
    line(out, statusLineVersion(response.protocol()) + " " + response.status() + " "
        + clean(response.reason()));
    for (Header h : response.headers()) field(out, h);
    line(out, "");
    return out.toByteArray();
  }

  /**
   * The head's bytes as they are written: a plain array, where a {@code ByteArrayOutputStream} took a
   * lock for every byte of every field (0.4 % of a crawl's CPU: issue 15). Used by one thread.
   */
  private static final class Head {
    private byte[] bytes;
    private int count;

    Head(int size) {
      bytes = new byte[size];
    }

    void ensure(int more) {
      if (count + more > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(count + more, 2 * bytes.length));
    }

    void write(byte[] b) {
      ensure(b.length);
      System.arraycopy(b, 0, bytes, count, b.length);
      count += b.length;
    }

    byte[] toByteArray() {
      return count == bytes.length ? bytes : Arrays.copyOf(bytes, count);
    }
  }

  /**
   * {@code line(out, fieldLine(h))} without building the line: a field of characters up to U+00FF
   * (nearly all) is written char by char as ISO-8859-1, CR and LF as spaces.
   */
  private static void field(Head out, Header h) {
    String name = storedName(h);
    if (hasWiderCharacters(name) || hasWiderCharacters(h.value())) {
      line(out, fieldLine(h));
      return;
    }
    out.ensure(name.length() + h.value().length() + 4);
    latin1(out, name);
    out.bytes[out.count++] = ':';
    out.bytes[out.count++] = ' ';
    latin1(out, h.value());
    out.bytes[out.count++] = '\r';
    out.bytes[out.count++] = '\n';
  }

  /** {@code s}, of characters up to U+00FF, as ISO-8859-1 into room {@link Head#ensure ensured} for it. */
  private static void latin1(Head out, String s) {
    byte[] bytes = out.bytes;
    int at = out.count;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      bytes[at + i] = (byte) (c == '\r' || c == '\n' ? ' ' : c);
    }
    out.count = at + s.length();
  }

  /**
   * The {@code Content-Type} of the head {@link #of} writes, as WARC readers parse it back (jwarc,
   * which the read-back index uses): each field's line as ISO-8859-1 bytes, its name up to the first
   * colon, trimmed, any case, its value without the spaces and tabs around it; the values of several
   * such fields joined with {@code ", "}. Empty when the head has no such field.
   */
  static Optional<String> contentType(FetchResult.Response response) {
    StringBuilder values = null;
    for (Header h : response.headers()) {
      if (surelyNotContentType(h)) continue;
      String line = fieldLine(h);
      if (hasWiderCharacters(line)) line = new String(bytes(line), StandardCharsets.ISO_8859_1);
      int colon = line.indexOf(':');
      if (!line.substring(0, colon).trim().equalsIgnoreCase("Content-Type")) continue;
      values = values == null ? new StringBuilder() : values.append(", ");
      values.append(stripSpacesAndTabs(line.substring(colon + 1)));
    }
    return values == null ? Optional.empty() : Optional.of(values.toString());
  }

  /**
   * Whether WARC readers parse the status line {@link #of} writes: jwarc's lenient parser takes a
   * status of one to three digits and a reason of visible characters, spaces and tabs. Read back, a
   * response whose status line it cannot parse has no index line, a revisit one without a status.
   */
  static boolean statusLineReadable(FetchResult.Response response) {
    if (response.status() < 0 || response.status() > 999) return false;
    String reason = clean(response.reason());
    for (int i = 0; i < reason.length(); i++) {
      char c = reason.charAt(i);
      if ((c < ' ' && c != '\t') || c == 0x7F) return false;
    }
    return true;
  }

  private static String stripSpacesAndTabs(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && (s.charAt(start) == ' ' || s.charAt(start) == '\t')) start++;
    while (end > start && (s.charAt(end - 1) == ' ' || s.charAt(end - 1) == '\t')) end--;
    return s.substring(start, end);
  }

  private static String fieldLine(Header h) {
    return clean(storedName(h)) + ": " + clean(h.value());
  }

  private static String storedName(Header h) {
    return h.name().equalsIgnoreCase("Transfer-Encoding") ? RENAMED_TRANSFER_ENCODING : h.name();
  }

  /**
   * Whether {@link #contentType} can skip the field without building its line: a name of plain
   * characters without a colon (then the line's name is the name itself) that is not
   * {@code Content-Type}, spaces and tabs aside.
   */
  private static boolean surelyNotContentType(Header h) {
    String name = storedName(h);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == ':' || c == '\r' || c == '\n' || c > 0x7E) return false;
    }
    return !name.trim().equalsIgnoreCase("Content-Type");
  }

  /**
   * The version as WARC readers parse it: they expect {@code HTTP/major.minor} (jwarc's parser
   * does), so an HTTP/2 response is written as {@code HTTP/2.0}, and anything unrecognised as
   * {@code HTTP/1.1} rather than a line no reader can parse.
   */
  static String statusLineVersion(String protocol) {
    String p = protocol.strip().toUpperCase(Locale.ROOT);
    if (MAJOR_MINOR.matcher(p).matches()) return p;
    Matcher m = MAJOR_ONLY.matcher(p);
    if (m.matches()) return "HTTP/" + m.group(1) + ".0";
    return "HTTP/1.1";
  }

  // A CR or LF inside a field would end the line early and corrupt the record.
  private static String clean(String s) {
    return s.replace('\r', ' ').replace('\n', ' ');
  }

  private static void line(Head out, String line) {
    out.write(bytes(line));
    out.ensure(2);
    out.bytes[out.count++] = '\r';
    out.bytes[out.count++] = '\n';
  }

  /**
   * ISO-8859-1 gives back the bytes received when the client decoded the field as ISO-8859-1 (as
   * HTTP clients do); a field with wider characters was decoded otherwise and is written as UTF-8.
   */
  private static byte[] bytes(String s) {
    return s.getBytes(hasWiderCharacters(s) ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
  }

  private static boolean hasWiderCharacters(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) > 0xFF) return true;
    }
    return false;
  }
}
