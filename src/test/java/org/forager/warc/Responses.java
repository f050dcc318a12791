package org.forager.warc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Header;

/** Fetch results as the fetcher would hand them over, for tests. */
final class Responses {

  static final Instant STARTED = Instant.parse("2026-03-01T12:34:56.789Z");

  private Responses() {}

  static byte[] requestHead(String url) {
    String path = url.substring(url.indexOf('/', url.indexOf("//") + 2));
    String host = url.substring(url.indexOf("//") + 2, url.indexOf('/', url.indexOf("//") + 2));
    return ("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: ForagerBot/1.0\r\n"
        + "Accept-Encoding: gzip, deflate\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
  }

  static FetchResult.Response response(String url, int status, List<Header> headers, byte[] rawBody,
      byte[] body, Optional<FetchResult.Truncation> truncation) {
    return new FetchResult.Response(url, STARTED, 42, requestHead(url), Optional.of("127.0.0.1"),
        "HTTP/1.1", status, status == 304 ? "Not Modified" : "OK", headers, rawBody, body, truncation);
  }

  /** A 200 with a plain text body. */
  static FetchResult.Response plain(String url, String text) {
    byte[] body = text.getBytes(StandardCharsets.UTF_8);
    return response(url, 200, List.of(new Header("Content-Type", "text/plain"),
        new Header("Content-Length", String.valueOf(body.length))), body, body, Optional.empty());
  }

  static byte[] gzip(byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
