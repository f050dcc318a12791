package org.forager.warc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

/**
 * WARC-Record-IDs (WARC 1.1 section 5.2): random (version 4) UUIDs as {@code <urn:uuid:...>}, what
 * {@code UUID.randomUUID} makes, read from one {@link SecureRandom} a block of 256 at a time. A
 * crawl makes two a fetch; {@code UUID.randomUUID} takes the platform generator's process-wide
 * locks for each one, and tens of fetches at a time waited there (docs/benchmarks.md, session 21).
 * Thread-safe.
 */
final class RecordIds {

  private static final int IDS_PER_BLOCK = 256;
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final SecureRandom random = new SecureRandom();
  private final ReentrantLock lock = new ReentrantLock();
  private final byte[] block = new byte[IDS_PER_BLOCK * 16];
  private int next = block.length;

  /** A new random ID, {@code <urn:uuid:...>}. */
  String next() {
    long high;
    long low;
    lock.lock();
    try {
      if (next == block.length) {
        random.nextBytes(block);
        next = 0;
      }
      high = (long) LONGS.get(block, next);
      low = (long) LONGS.get(block, next + 8);
      next += 16;
    } finally {
      lock.unlock();
    }
    // RFC 9562 section 5.4: version 4, variant 10, 122 random bits.
    high = (high & ~0xF000L) | 0x4000L;
    low = (low & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
    return "<urn:uuid:" + new UUID(high, low) + ">";
  }
}
