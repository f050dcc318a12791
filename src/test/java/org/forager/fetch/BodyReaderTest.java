package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.forager.fetch.BodyReader.Body;
import org.forager.fetch.FetchResult.Truncation;
import org.junit.jupiter.api.Test;

/** {@link BodyReader}: why a body was cut short, for each way it can be. */
class BodyReaderTest {

  private static final long LATER = System.nanoTime() + 60_000_000_000L;

  private final BodyReader reader = new BodyReader(100_000, 100);

  @Test
  void wholeBodyIsNotTruncatedAndLeavesTheConnectionReusable() {
    Body body = reader.read(new ByteArrayInputStream(new byte[1000]), List.of(), LATER);

    assertEquals(Optional.empty(), body.truncation());
    assertTrue(body.complete());
  }

  /** The announced length sizes the buffer; a body shorter, longer or over the cap is read as it comes. */
  @Test
  void anAnnouncedLengthTrueOrFalseNeverChangesTheBytesRead() {
    byte[] page = new byte[30_000];
    for (int i = 0; i < page.length; i++) page[i] = (byte) i;
    for (long announced : new long[] {-1, 0, 1, 29_999, 30_000, 30_001, 1L << 40}) {
      Body body = reader.read(new ByteArrayInputStream(page), List.of(), LATER, announced);
      assertArrayEquals(page, body.raw(), "announced " + announced);
      assertTrue(body.complete(), "announced " + announced);
    }
    Body over = reader.read(new ByteArrayInputStream(new byte[200_000]), List.of(), LATER, 200_000);
    assertEquals(100_000, over.raw().length);
    assertEquals(Optional.of(Truncation.MAX_PAGE_BYTES), over.truncation());
  }

  @Test
  void plainBodyOverTheCapIsCutAtMaxPageBytes() {
    Body body = reader.read(new ByteArrayInputStream(new byte[200_000]), List.of(), LATER);

    assertEquals(Optional.of(Truncation.MAX_PAGE_BYTES), body.truncation());
    assertFalse(body.complete());
  }

  @Test
  void gzipBodyOverTheRawCapIsCutAtMaxPageBytesNotCalledUndecodable() throws IOException {
    byte[] noise = new byte[300_000];
    new Random(7).nextBytes(noise); // incompressible: the raw cap is reached first
    Body body = reader.read(new ByteArrayInputStream(gzip(noise)), List.of("gzip"), LATER);

    assertEquals(Optional.of(Truncation.MAX_PAGE_BYTES), body.truncation());
  }

  @Test
  void gzipBombIsCutAtTheDecompressionRatio() throws IOException {
    BodyReader roomy = new BodyReader(8 << 20, 100);
    Body body = roomy.read(new ByteArrayInputStream(gzip(new byte[10_000_000])), List.of("gzip"), LATER);

    assertEquals(Optional.of(Truncation.MAX_DECOMPRESSION_RATIO), body.truncation());
  }

  /** Both ratios are of the bytes on the wire: a transfer-coded bomb stops where a content-coded one does. */
  @Test
  void aBombAsATransferCodingIsCutWhereTheSameBombAsAContentCodingIs() throws IOException {
    BodyReader roomy = new BodyReader(8 << 20, 100);
    byte[] bomb = gzip(new byte[10_000_000]);
    Body asContent = roomy.read(new ByteArrayInputStream(bomb), List.of("gzip"), LATER);
    Body asTransfer = roomy.read(new ByteArrayInputStream(bomb), new TransferCodings(true, true, List.of("gzip")),
        List.of(), LATER, -1);

    assertEquals(Optional.of(Truncation.MAX_DECOMPRESSION_RATIO), asContent.truncation());
    assertEquals(Optional.of(Truncation.MAX_DECOMPRESSION_RATIO), asTransfer.truncation());
    // Each stops at its first read past 100 times the same wire bytes; reads differ in size only.
    assertTrue(Math.abs(asTransfer.decoded().length - asContent.decoded().length) <= 8192,
        asTransfer.decoded().length + " decoded as a transfer coding, " + asContent.decoded().length + " as a content coding");
    assertTrue(asTransfer.decoded().length <= 100L * asContent.raw().length + 8192);
  }

  @Test
  void aTransferCodedBodyOverThePageCapIsCutAtMaxPageBytes() throws IOException {
    byte[] letters = new byte[200_000];
    Random random = new Random(7);
    for (int i = 0; i < letters.length; i++) letters[i] = (byte) ('a' + random.nextInt(26)); // under the ratio
    Body decodedOver = reader.read(new ByteArrayInputStream(gzip(letters)),
        new TransferCodings(true, true, List.of("gzip")), List.of(), LATER, -1);
    byte[] noise = new byte[300_000];
    new Random(7).nextBytes(noise); // incompressible: the wire's cap is reached first
    Body wireOver = reader.read(new ByteArrayInputStream(gzip(noise)),
        new TransferCodings(true, true, List.of("gzip")), List.of(), LATER, -1);

    assertEquals(Optional.of(Truncation.MAX_PAGE_BYTES), decodedOver.truncation());
    assertEquals(100_000, decodedOver.raw().length);
    assertEquals(Optional.of(Truncation.MAX_PAGE_BYTES), wireOver.truncation());
    assertTrue(wireOver.raw().length <= 100_000);
  }

  @Test
  void gzipThatBreaksOffMidwayIsUndecodable() throws IOException {
    byte[] gzip = gzip("<p>hello</p>".repeat(5_000).getBytes());
    byte[] broken = Arrays.copyOf(gzip, gzip.length);
    for (int i = gzip.length / 2; i < gzip.length; i++) broken[i] = (byte) 0xA5;

    Body body = reader.read(new ByteArrayInputStream(broken), List.of("gzip"), LATER);

    assertEquals(Optional.of(Truncation.UNDECODABLE), body.truncation());
    assertTrue(body.decoded().length > 0);
  }

  @Test
  void wireThatFailsBeforeTheDeadlineIsAClosedConnection() {
    Body body = reader.read(failingAfter(500), List.of(), LATER);

    assertEquals(Optional.of(Truncation.CONNECTION_CLOSED), body.truncation());
    assertEquals(500, body.raw().length);
  }

  @Test
  void wireThatFailsAfterTheDeadlineWasCutByTheDeadline() {
    // The fetcher's timer aborts the connection at the deadline: the read fails after it.
    Body body = reader.read(failingAfter(500), List.of(), System.nanoTime() - 1);

    assertEquals(Optional.of(Truncation.DEADLINE), body.truncation());
  }

  /**
   * Three deflate layers whose middle one expands to megabytes of empty deflate blocks the last turns
   * into nothing: the last decoder's one read ran through all of it, past caps and deadline (an
   * attacker's 194 KB body was 42 GB at that layer, a core held 58 s). The inner layers count too.
   */
  @Test
  void aStackOfCodingsWhoseInnerLayerExpandsToNothingIsCutAtTheRatio() throws IOException {
    byte[] body = emptyBlocksDeflatedTwice(4_000_000); // 20 MB of empty blocks under two more layers
    assertTrue(body.length < 100_000, "a small body on the wire: " + body.length);
    Body read = reader.read(new ByteArrayInputStream(body), List.of("deflate, deflate, deflate"), LATER);

    assertEquals(Optional.of(Truncation.MAX_DECOMPRESSION_RATIO), read.truncation());
    assertEquals(0, read.decoded().length);
  }

  /** The same stack as a transfer coding is cut alike. */
  @Test
  void theSameStackAsATransferCodingIsCutAlike() throws IOException {
    byte[] body = emptyBlocksDeflatedTwice(4_000_000);
    Body read = reader.read(new ByteArrayInputStream(body), TransferCodings.of(List.of("deflate, deflate, deflate")),
        List.of(), LATER, -1);

    assertEquals(Optional.of(Truncation.MAX_DECOMPRESSION_RATIO), read.truncation());
  }

  /** {@code blocks} empty stored deflate blocks (5 bytes each, raw deflate) and a final one, zlib-deflated twice. */
  private static byte[] emptyBlocksDeflatedTwice(int blocks) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    java.util.zip.Deflater outer = new java.util.zip.Deflater(java.util.zip.Deflater.BEST_COMPRESSION);
    java.util.zip.Deflater middle = new java.util.zip.Deflater(java.util.zip.Deflater.BEST_COMPRESSION);
    try (var twice = new java.util.zip.DeflaterOutputStream(out, outer);
        var once = new java.util.zip.DeflaterOutputStream(twice, middle, 65_536)) {
      byte[] empty = {0x00, 0x00, 0x00, (byte) 0xff, (byte) 0xff};
      byte[] run = new byte[empty.length * 10_000];
      for (int i = 0; i < run.length; i++) run[i] = empty[i % empty.length];
      for (int i = 0; i < blocks / 10_000; i++) once.write(run);
      once.write(new byte[] {0x01, 0x00, 0x00, (byte) 0xff, (byte) 0xff});
    } finally {
      outer.end();
      middle.end();
    }
    return out.toByteArray();
  }

  private static InputStream failingAfter(int bytes) {
    return new SequenceInputStream(new ByteArrayInputStream(new byte[bytes]), new InputStream() {
      @Override
      public int read() throws IOException {
        throw new IOException("Connection reset");
      }
    });
  }

  private static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    }
    return out.toByteArray();
  }
}
