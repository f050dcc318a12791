package org.forager.sitemap;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/** Gzip file content (RFC 1952), decoded with a cap so that a gzip bomb costs no more than the cap. */
final class Gzip {

  private Gzip() {}

  /** Whether the bytes start with the gzip magic number 1f 8b (RFC 1952 section 2.3.1). */
  static boolean isGzip(byte[] content) {
    return content.length >= 2 && (content[0] & 0xff) == 0x1f && (content[1] & 0xff) == 0x8b;
  }

  /** The decoded bytes, or empty when the content is not valid gzip or decodes to more than {@code max}. */
  static Optional<byte[]> inflate(byte[] content, int max) {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(content))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[64 * 1024];
      for (int n; (n = in.read(buffer)) != -1; ) {
        if (out.size() + n > max) return Optional.empty(); // stop reading: never decode past the cap
        out.write(buffer, 0, n);
      }
      return Optional.of(out.toByteArray());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
