package org.forager.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;

/**
 * Gzip members decoding to nothing, in a row: a few are read as the JDK reads them, a hostile run of
 * 20,000 (which overflowed the stack of the JDK's own stream, ending the crawl) is a ZipException.
 */
class MemberBoundedGzipStreamTest {

  private static byte[] gzip(byte[] content) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(content);
    }
    return bytes.toByteArray();
  }

  private static byte[] members(byte[] first, int empty, byte[] last) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(gzip(first));
    byte[] nothing = gzip(new byte[0]);
    for (int i = 0; i < empty; i++) body.write(nothing);
    body.write(gzip(last));
    return body.toByteArray();
  }

  private static byte[] read(byte[] body) throws IOException {
    try (MemberBoundedGzipStream in = new MemberBoundedGzipStream(new ByteArrayInputStream(body), 8192)) {
      return in.readAllBytes();
    }
  }

  @Test
  void membersAreReadOneAfterAnotherAFewEmptyOnesAmongThem() throws IOException {
    byte[] a = "<p>a</p>".getBytes(StandardCharsets.UTF_8);
    byte[] b = "<p>b</p>".getBytes(StandardCharsets.UTF_8);
    assertArrayEquals("<p>a</p><p>b</p>".getBytes(StandardCharsets.UTF_8), read(members(a, 10, b)));
  }

  @Test
  void aLongRunOfEmptyMembersIsRefusedNotAStackOverflow() throws IOException {
    byte[] hostile = members("<html>x</html>".getBytes(StandardCharsets.UTF_8), 20_000, new byte[0]);
    assertThrows(ZipException.class, () -> read(hostile));
  }
}
