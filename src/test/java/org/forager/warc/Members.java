package org.forager.warc;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import java.util.zip.GZIPInputStream;

/** What the codec tests feed and read back: incompressible bytes, and gzip members inflated by the JDK. */
final class Members {

  private Members() {}

  /** {@code bytes} random bytes, the same for the same seed. */
  static byte[] noise(int bytes, long seed) {
    byte[] noise = new byte[bytes];
    new Random(seed).nextBytes(noise);
    return noise;
  }

  /** A gzip member (or several, one after another) inflated by the JDK's reader. */
  static byte[] inflate(byte[] member) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(member))) {
      return in.readAllBytes();
    }
  }
}
