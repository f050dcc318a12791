package org.forager.warc;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Random (version 4) UUIDs for WARC-Record-ID, as {@link UUID#randomUUID()} makes them, from bytes
 * taken from a {@link SecureRandom} a few kilobytes at a time.
 *
 * <p>Why not {@code UUID.randomUUID()}: on Linux its generator (NativePRNG) holds two process-wide
 * monitors for every call and reads {@code /dev/urandom} every second UUID; a crawl makes two UUIDs
 * a page, and in thread dumps of a 1,000-origin crawl 30 to 70 of its threads at a time were blocked
 * there (issue 15, session 21). Here one lock guards a 16-byte copy, and the generator is asked once
 * per {@link #BATCH} UUIDs. The bits are as random as {@code randomUUID}'s: the same kind of
 * generator, the same 122 random bits. Thread-safe.
 */
final class RecordIds {

  /** UUIDs per refill of the buffer. */
  static final int BATCH = 256;

  private static final int UUID_BYTES = 16;

  private final SecureRandom random;
  private final ReentrantLock lock = new ReentrantLock();
  private final byte[] buffer = new byte[BATCH * UUID_BYTES];
  private int next = buffer.length; // empty: filled on first use

  RecordIds() {
    this(new SecureRandom());
  }

  RecordIds(SecureRandom random) {
    this.random = random;
  }

  /** A new random UUID (version 4, IETF variant). */
  UUID next() {
    long msb;
    long lsb;
    lock.lock();
    try {
      if (next == buffer.length) {
        random.nextBytes(buffer);
        next = 0;
      }
      msb = bigEndianLong(buffer, next);
      lsb = bigEndianLong(buffer, next + Long.BYTES);
      next += UUID_BYTES;
    } finally {
      lock.unlock();
    }
    // RFC 9562 section 5.4: version 4 in the 4 bits after the first 48, variant 10 at the top of the
    // second half; the rest random, as UUID.randomUUID sets them.
    msb = (msb & ~0xF000L) | 0x4000L;
    lsb = (lsb & ~(0xC0L << 56)) | (0x80L << 56);
    return new UUID(msb, lsb);
  }

  private static long bigEndianLong(byte[] b, int at) {
    long v = 0;
    for (int i = 0; i < Long.BYTES; i++) v = (v << 8) | (b[at + i] & 0xFF);
    return v;
  }
}
