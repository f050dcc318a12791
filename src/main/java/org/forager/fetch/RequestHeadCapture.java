package org.forager.fetch;

import java.nio.charset.StandardCharsets;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpRequestInterceptor;
import org.apache.hc.core5.http.HttpVersion;
import org.apache.hc.core5.http.ProtocolVersion;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * The last request interceptor: it sees the request after the client added its own headers (Host,
 * Connection) and records the head as it goes on the wire, for the WARC request record. The format
 * is the one the client's request writer uses (RFC 9112 section 3: request line, fields, blank line,
 * CRLF line ends). Stateless and thread-safe: the head is stored in the per-fetch context.
 */
final class RequestHeadCapture implements HttpRequestInterceptor {

  static final String ATTRIBUTE = "org.forager.fetch.request-head";

  @Override
  public void process(HttpRequest request, EntityDetails entity, HttpContext context) {
    context.setAttribute(ATTRIBUTE, format(request));
  }

  static byte[] format(HttpRequest request) {
    ProtocolVersion version = request.getVersion() != null ? request.getVersion() : HttpVersion.HTTP_1_1;
    StringBuilder head = new StringBuilder(256)
        .append(request.getMethod()).append(' ')
        .append(request.getRequestUri()).append(' ')
        .append(version).append("\r\n");
    for (Header header : request.getHeaders()) {
      head.append(header.getName()).append(": ").append(header.getValue()).append("\r\n");
    }
    return head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
  }
}
