package org.forager.warc;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.GZIPInputStream;

/** What the codec tests feed and read back: markup, incompressible bytes, and gzip members inflated by the JDK. */
final class Members {

  private Members() {}

  /** {@code bytes} random bytes, the same for the same seed. */
  static byte[] noise(int bytes, long seed) {
    byte[] noise = new byte[bytes];
    new Random(seed).nextBytes(noise);
    return noise;
  }

  /** About {@code bytes} of markup, words and links, different for each seed. */
  static byte[] html(int bytes, long seed) {
    Random random = new Random(seed);
    String[] words = {"<p>", "crawler ", "polite ", "<a href=\"/page/", "\">link</a> ", "archive ", "web ", "\n"};
    StringBuilder page = new StringBuilder(bytes + 32);
    while (page.length() < bytes) page.append(words[random.nextInt(words.length)]).append(random.nextInt(100));
    return page.substring(0, bytes).getBytes(StandardCharsets.UTF_8);
  }

  /** A gzip member (or several, one after another) inflated by the JDK's reader. */
  static byte[] inflate(byte[] member) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(member))) {
      return in.readAllBytes();
    }
  }
}
