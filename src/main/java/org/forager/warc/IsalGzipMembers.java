package org.forager.warc;

import com.sun.jna.Memory;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * {@link GzipMembers}' gzip members made whole by the system's {@link Isal} (igzip) instead of the
 * JDK's zlib: the same header and trailer byte for byte, a different DEFLATE stream that every gzip
 * reader reads. Thread-safe.
 *
 * <p>Each pooled slot holds an igzip stream with its level buffer and native buffers for a record
 * and its member, reused (a pool, not a thread-local: crawl threads are virtual threads, and only
 * about one per core compresses at a time). Buffers grown past {@link #KEEP_BUFFER_BYTES} by an
 * unusually large record are not kept. All of it is JNA {@link Memory}, freed by JNA once unreachable.
 */
final class IsalGzipMembers implements RecordCodec {

  private static final long KEEP_BUFFER_BYTES = 4L << 20;

  private final int level;
  private final ConcurrentLinkedQueue<Slot> pool = new ConcurrentLinkedQueue<>();

  /** A stream and its buffers; used by one thread at a time. */
  private static final class Slot {
    final Isal.Stream stream;
    Memory in;
    Memory out;

    Slot(int level) {
      stream = new Isal.Stream(level);
    }
  }

  /**
   * Members at igzip's {@code level}, 0 (its fastest) to 3.
   *
   * @throws IllegalStateException if ISA-L is not available ({@link Isal#unavailable})
   */
  IsalGzipMembers(int level) {
    if (level < Isal.MIN_LEVEL || level > Isal.MAX_LEVEL) {
      throw new IllegalArgumentException("ISA-L level must be 0 to 3: " + level);
    }
    if (Isal.unavailable().isPresent()) throw new IllegalStateException(Isal.unavailable().get());
    this.level = level;
  }

  @Override
  public byte[] compress(byte[] plain, int plainLength) {
    Slot slot = pool.poll();
    if (slot == null) slot = new Slot(level);
    try {
      int bound = Isal.bound(plainLength);
      if (slot.in == null || slot.in.size() < plainLength) slot.in = new Memory(Math.max(plainLength, 64 * 1024));
      if (slot.out == null || slot.out.size() < bound) slot.out = new Memory(Math.max(bound, 64 * 1024));
      if (plainLength > 0) slot.in.write(0, plain, 0, plainLength);
      int length = slot.stream.gzip(slot.in, plainLength, slot.out, (int) slot.out.size());
      byte[] member = slot.out.getByteArray(0, length);
      if (slot.in.size() > KEEP_BUFFER_BYTES) slot.in = null;
      if (slot.out.size() > KEEP_BUFFER_BYTES) slot.out = null;
      return member;
    } finally {
      pool.offer(slot);
    }
  }
}
