package org.forager.warc;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Compresses a serialized record into one complete gzip member ("record-at-time compression",
 * WARC 1.1 annex D), in memory, at a chosen deflate level. Thread-safe.
 *
 * <p>Why not a jwarc {@code WarcWriter} with gzip compression on the file: that compresses
 * while the caller holds the file, so every crawling thread would wait for one core to deflate.
 * Compressing each record apart lets threads compress in parallel and only the append is serial.
 * Deflaters are pooled (a few per core are ever busy) rather than made per record: each holds
 * native zlib state that is costly to set up.
 *
 * <p>The level is the main CPU lever of a crawl: deflate dominates the cost of a page at level 6
 * (see docs/benchmarks.md), while level 1 costs a fifth of that for output about 10 % larger.
 */
final class GzipMembers implements RecordCodec {

  private static final byte[] HEADER = {
    0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, (byte) 0xff // no flags, no mtime, unknown OS
  };

  /** The header's length: where the DEFLATE stream starts. */
  static final int HEADER_LENGTH = 10;

  private final int level;
  private final ConcurrentLinkedQueue<Deflater> pool = new ConcurrentLinkedQueue<>();

  GzipMembers(int level) {
    if (level < 0 || level > 9) throw new IllegalArgumentException("gzip level must be 0 to 9: " + level);
    this.level = level;
  }

  @Override
  public byte[] compress(byte[] plain, int plainLength) {
    Deflater deflater = pool.poll();
    if (deflater == null) deflater = new Deflater(level, true);
    try {
      deflater.setInput(plain, 0, plainLength);
      deflater.finish();
      ByteArrayOutputStream deflated = new ByteArrayOutputStream(plainLength / 2 + 64);
      byte[] buffer = new byte[16 * 1024];
      while (!deflater.finished()) {
        int n = deflater.deflate(buffer);
        deflated.write(buffer, 0, n);
      }
      byte[] member = frame(plain, plainLength, deflated.size());
      System.arraycopy(deflated.toByteArray(), 0, member, HEADER_LENGTH, deflated.size());
      return member;
    } finally {
      deflater.reset();
      pool.offer(deflater);
    }
  }

  /**
   * A gzip member of {@code plain} with room for {@code deflatedLength} bytes of raw DEFLATE at
   * {@link #HEADER_LENGTH}, for the caller to fill: this class's header and the trailer (CRC-32 and
   * length of {@code plain}) are written.
   */
  static byte[] frame(byte[] plain, int plainLength, int deflatedLength) {
    byte[] member = new byte[HEADER_LENGTH + deflatedLength + 8];
    System.arraycopy(HEADER, 0, member, 0, HEADER_LENGTH);
    CRC32 crc = new CRC32();
    crc.update(plain, 0, plainLength);
    int at = HEADER_LENGTH + deflatedLength;
    putIntLe(member, at, (int) crc.getValue());
    putIntLe(member, at + 4, plainLength);
    return member;
  }

  private static void putIntLe(byte[] to, int at, int value) {
    for (int i = 0; i < 4; i++) to[at + i] = (byte) (value >>> (8 * i));
  }


}
