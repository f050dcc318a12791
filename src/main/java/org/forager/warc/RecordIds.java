package org.forager.warc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * WARC-Record-IDs (WARC 1.1 section 5.2): random (version 4) UUIDs as {@code <urn:uuid:...>}, what
 * {@code UUID.randomUUID} makes, read from a {@link SecureRandom} a block of 256 at a time. A crawl
 * makes two a fetch; {@code UUID.randomUUID} takes the platform generator's process-wide locks for
 * each one, and tens of fetches at a time waited there (docs/benchmarks.md, session 21). Taking an ID
 * is one atomic add on the current block: no lock, so no thread waits behind one reading the next
 * block from the operating system (a lock held across that read queued 42 fetches at once, session
 * 34). The thread that finds the block used up reads the next and puts it in place. Thread-safe.
 */
final class RecordIds {

  private static final int IDS_PER_BLOCK = 256;
  private static final int ID_BYTES = 16;
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /** Random bytes for {@value #IDS_PER_BLOCK} IDs, and how far they were handed out. */
  private static final class Block {
    final byte[] bytes = new byte[IDS_PER_BLOCK * ID_BYTES];
    final AtomicInteger taken = new AtomicInteger();

    Block(SecureRandom random) {
      random.nextBytes(bytes);
    }
  }

  private final SecureRandom random = new SecureRandom();
  private final AtomicReference<Block> current = new AtomicReference<>(new Block(random));

  /** A new random ID, {@code <urn:uuid:...>}; no two alike, whatever the threads. */
  String next() {
    long high;
    long low;
    while (true) {
      Block block = current.get();
      int at = block.taken.getAndAdd(ID_BYTES);
      if (at < block.bytes.length) {
        high = (long) LONGS.get(block.bytes, at);
        low = (long) LONGS.get(block.bytes, at + 8);
        break;
      }
      // Used up: a fresh block replaces it (threads that raced here read one each; one wins, and
      // every byte handed out comes from exactly one block, once).
      current.compareAndSet(block, new Block(random));
    }
    // RFC 9562 section 5.4: version 4, variant 10, 122 random bits.
    high = (high & ~0xF000L) | 0x4000L;
    low = (low & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
    return "<urn:uuid:" + new UUID(high, low) + ">";
  }
}
