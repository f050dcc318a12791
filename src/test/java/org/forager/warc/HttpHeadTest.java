package org.forager.warc;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
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

  private static FetchResult.Response response(String protocol, String reason, List<Header> headers) {
    return new FetchResult.Response("https://example.org/", Instant.EPOCH, 1, new byte[0], Optional.empty(),
        protocol, 200, reason, headers, new byte[0], new byte[0], Optional.empty());
  }
}
