package org.forager.warc;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Header;
import org.junit.jupiter.api.Test;
import org.netpreserve.jwarc.HttpResponse;

class HttpHeadTest {

  @Test
  void versionsAreWrittenAsMajorDotMinor() {
    assertEquals("HTTP/1.1", HttpHead.statusLineVersion("HTTP/1.1"));
    assertEquals("HTTP/1.0", HttpHead.statusLineVersion("HTTP/1.0"));
    assertEquals("HTTP/2.0", HttpHead.statusLineVersion("HTTP/2"));
    assertEquals("HTTP/2.0", HttpHead.statusLineVersion("http/2.0"));
    assertEquals("HTTP/1.1", HttpHead.statusLineVersion("h2"));
  }

  @Test
  void http2ResponseWithoutReasonPhraseParsesBack() throws IOException {
    byte[] head = HttpHead.of(response("HTTP/2", "", List.of(new Header("content-type", "text/html"))));
    assertEquals("HTTP/2.0 200 \r\ncontent-type: text/html\r\n\r\n", new String(head, ISO_8859_1));
    HttpResponse parsed = HttpResponse.parseWithoutBody(Channels.newChannel(new ByteArrayInputStream(head)), null);
    assertEquals(200, parsed.status());
    assertEquals(Optional.of("text/html"), parsed.headers().first("Content-Type"));
  }

  @Test
  void headersKeepTheirOrderAndBytesExceptTransferEncoding() {
    byte[] head = HttpHead.of(response("HTTP/1.1", "OK", List.of(
        new Header("Server", "caf\u00e9"),
        new Header("transfer-encoding", "chunked"),
        new Header("X-Bad", "a\r\nInjected: yes"))));
    assertEquals("HTTP/1.1 200 OK\r\nServer: caf\u00e9\r\nX-Forager-Transfer-Encoding: chunked\r\n"
        + "X-Bad: a  Injected: yes\r\n\r\n", new String(head, ISO_8859_1));
  }

  /**
   * The head and its Content-Type as they were made before the head was written without a String
   * per field (each field's line built, then encoded; each line built again to find the type), on
   * fields of every kind of character: the same bytes and the same type.
   */
  @Test
  void writingFieldsWithoutLinesChangesNoByteNorTheContentType() {
    String[] names = {"Content-Type", " content-type\t", "Transfer-Encoding", "Content-Type:x", "X-Cache", "Serv\u00e9r",
        "X-\u6771", "a\r\nContent-Type", "", "Content-Typ\u212a"};
    String palette = "aZ09 \t:;/=\r\n\u0000\u007f\u00e9\u00ff\u20ac\u6771\ud83d\ude00";
    Random random = new Random(15);
    for (int round = 0; round < 3_000; round++) {
      List<Header> headers = new ArrayList<>();
      for (int i = random.nextInt(6); i > 0; i--) {
        StringBuilder value = new StringBuilder();
        for (int j = random.nextInt(12); j > 0; j--) value.append(palette.charAt(random.nextInt(palette.length())));
        String name = random.nextInt(3) == 0 ? names[random.nextInt(names.length)] + value.substring(0, Math.min(1, value.length()))
            : names[random.nextInt(names.length)];
        headers.add(new Header(name, value.toString()));
      }
      FetchResult.Response r = response("HTTP/1.1", "OK", headers);
      assertArrayEquals(headBefore(r), HttpHead.of(r), headers.toString());
      assertEquals(contentTypeBefore(r), HttpHead.contentType(r), headers.toString());
    }
  }

  private static String lineBefore(Header h) {
    String name = h.name().equalsIgnoreCase("Transfer-Encoding") ? HttpHead.RENAMED_TRANSFER_ENCODING : h.name();
    return name.replace('\r', ' ').replace('\n', ' ') + ": " + h.value().replace('\r', ' ').replace('\n', ' ');
  }

  private static byte[] bytesBefore(String s) {
    return s.getBytes(s.chars().anyMatch(c -> c > 0xFF) ? UTF_8 : ISO_8859_1);
  }

  private static byte[] headBefore(FetchResult.Response r) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(bytesBefore(HttpHead.statusLineVersion(r.protocol()) + " " + r.status() + " " + r.reason()));
    out.writeBytes(new byte[] {'\r', '\n'});
    for (Header h : r.headers()) {
      out.writeBytes(bytesBefore(lineBefore(h)));
      out.writeBytes(new byte[] {'\r', '\n'});
    }
    out.writeBytes(new byte[] {'\r', '\n'});
    return out.toByteArray();
  }

  private static Optional<String> contentTypeBefore(FetchResult.Response r) {
    StringBuilder values = null;
    for (Header h : r.headers()) {
      String line = lineBefore(h);
      if (line.chars().anyMatch(c -> c > 0xFF)) line = new String(bytesBefore(line), ISO_8859_1);
      int colon = line.indexOf(':');
      if (!line.substring(0, colon).trim().equalsIgnoreCase("Content-Type")) continue;
      values = values == null ? new StringBuilder() : values.append(", ");
      String v = line.substring(colon + 1);
      int start = 0;
      int end = v.length();
      while (start < end && (v.charAt(start) == ' ' || v.charAt(start) == '\t')) start++;
      while (end > start && (v.charAt(end - 1) == ' ' || v.charAt(end - 1) == '\t')) end--;
      values.append(v, start, end);
    }
    return values == null ? Optional.empty() : Optional.of(values.toString());
  }

  private static FetchResult.Response response(String protocol, String reason, List<Header> headers) {
    return new FetchResult.Response("https://example.org/", Instant.EPOCH, 1, new byte[0], Optional.empty(),
        protocol, 200, reason, headers, new byte[0], new byte[0], Optional.empty());
  }
}
