package org.forager.sitemap;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.forager.io.MemberBoundedGzipStream;

/**
 * Gzip file content (RFC 1952), decoded as a stream: the caller caps what it reads of it, so a gzip
 * bomb costs no more than that cap.
 */
final class Gzip {

  private Gzip() {}

  /** Whether the bytes start with the gzip magic number 1f 8b (RFC 1952 section 2.3.1). */
  static boolean isGzip(byte[] content) {
    return content.length >= 2 && (content[0] & 0xff) == 0x1f && (content[1] & 0xff) == 0x8b;
  }

  /**
   * The decoded content, read as it is decoded.
   *
   * @throws IOException when the gzip header is broken (a broken body fails when it is read)
   */
  static InputStream open(byte[] content) throws IOException {
    return new MemberBoundedGzipStream(new ByteArrayInputStream(content), 8192);
  }
}
