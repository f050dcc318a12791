package org.forager.warc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
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
   * {@code rawBody}, which the fetcher has already transfer-decoded (de-chunked); keeping the field
   * would make WARC readers de-chunk it again and fail or garble it. Renaming rather than dropping
   * keeps the fact that the server chunked, as other crawlers do with similar prefixes.
   */
  static final String RENAMED_TRANSFER_ENCODING = "X-Forager-Transfer-Encoding";

  private static final Pattern MAJOR_MINOR = Pattern.compile("HTTP/\\d\\.\\d");
  private static final Pattern MAJOR_ONLY = Pattern.compile("HTTP/(\\d)");

  private HttpHead() {}

  /** Status line, header fields in received order, and the empty line that ends the head. */
  static byte[] of(FetchResult.Response response) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    line(out, statusLineVersion(response.protocol()) + " " + response.status() + " "
        + clean(response.reason()));
    for (Header h : response.headers()) {
      String name = h.name().equalsIgnoreCase("Transfer-Encoding") ? RENAMED_TRANSFER_ENCODING : h.name();
      line(out, clean(name) + ": " + clean(h.value()));
    }
    line(out, "");
    return out.toByteArray();
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

  private static void line(ByteArrayOutputStream out, String line) {
    out.writeBytes(bytes(line));
    out.write('\r');
    out.write('\n');
  }

  /**
   * ISO-8859-1 gives back the bytes received when the client decoded the field as ISO-8859-1 (as
   * HTTP clients do); a field with wider characters was decoded otherwise and is written as UTF-8.
   */
  private static byte[] bytes(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) > 0xFF) return s.getBytes(StandardCharsets.UTF_8);
    }
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }
}
