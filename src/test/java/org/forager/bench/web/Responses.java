package org.forager.bench.web;

import java.nio.ByteBuffer;

/**
 * Whole HTTP/1.1 responses (RFC 9112) written into a caller's buffer: the body is rendered first at
 * {@link #HEADROOM}, then the header is written just before it, so Content-Length is known without
 * a second pass or a copy. Identity encoding, always a Content-Length. Immutable; safe to share.
 */
final class Responses {

  static final int HEADROOM = 512;
  /** The buffer size {@link #write} needs. */
  static final int BUFFER_SIZE = HEADROOM + PageRenderer.MAX_BODY;

  static final byte[] ROBOTS_TXT = ByteSink.utf8("User-agent: *\nDisallow: /private/\n");
  private static final byte[] NOT_FOUND = ByteSink.utf8(
      "<!DOCTYPE html>\n<html><head><title>Not found</title></head><body><h1>Not found</h1></body></html>\n");
  private static final byte[] BAD = ByteSink.utf8(
      "<!DOCTYPE html>\n<html><head><title>Bad request</title></head><body><h1>Bad request</h1></body></html>\n");
  private static final String HTML = "text/html; charset=utf-8";
  private static final byte[] LENGTH = ByteSink.utf8("\r\nContent-Length: ");
  private static final byte[] KEEP_ALIVE = ByteSink.utf8("\r\nConnection: keep-alive\r\n\r\n");
  private static final byte[] CLOSE = ByteSink.utf8("\r\nConnection: close\r\n\r\n");

  private final PageRenderer renderer;

  Responses(PageRenderer renderer) {
    this.renderer = renderer;
  }

  /** The status a target gets when the request itself is fine. */
  static int status(int target) {
    return target >= 0 || target == Target.ROBOTS ? 200 : 404;
  }

  /**
   * Writes the response to a request for {@code target} on {@code host} with {@code status} into
   * {@code buf} ({@link #BUFFER_SIZE} bytes) and returns the bytes to send, wrapping {@code buf}.
   */
  ByteBuffer write(int host, int target, int status, boolean head, boolean close, byte[] buf) {
    int end;
    if (status == 200 && target >= 0) {
      end = renderer.render(host, target, buf, HEADROOM);
    } else {
      byte[] body = status == 200 ? ROBOTS_TXT : status == 404 ? NOT_FOUND : BAD;
      System.arraycopy(body, 0, buf, HEADROOM, body.length);
      end = HEADROOM + body.length;
    }
    int length = end - HEADROOM;
    byte[] start = statusAndType(status, target);
    byte[] connection = close ? CLOSE : KEEP_ALIVE;
    int headerLength = start.length + LENGTH.length + ByteSink.digits(length) + connection.length;
    int from = HEADROOM - headerLength;
    new ByteSink(buf, from).put(start).put(LENGTH).putInt(length).put(connection);
    return ByteBuffer.wrap(buf, from, head ? headerLength : headerLength + length);
  }

  private static final byte[] OK_HTML = header("200 OK", HTML, "");
  private static final byte[] OK_TEXT = header("200 OK", "text/plain; charset=utf-8", "");
  private static final byte[] NOT_FOUND_HTML = header("404 Not Found", HTML, "");
  private static final byte[] BAD_REQUEST = header("400 Bad Request", HTML, "");
  private static final byte[] NOT_ALLOWED = header("405 Method Not Allowed", HTML, "\r\nAllow: GET, HEAD");
  private static final byte[] TOO_LARGE = header("431 Request Header Fields Too Large", HTML, "");

  private static byte[] statusAndType(int status, int target) {
    return switch (status) {
      case 200 -> target == Target.ROBOTS ? OK_TEXT : OK_HTML;
      case 404 -> NOT_FOUND_HTML;
      case 405 -> NOT_ALLOWED;
      case 431 -> TOO_LARGE;
      default -> BAD_REQUEST;
    };
  }

  private static byte[] header(String status, String type, String extra) {
    return ByteSink.utf8("HTTP/1.1 " + status + "\r\nServer: forager-synthetic-web\r\nContent-Type: " + type + extra);
  }
}
