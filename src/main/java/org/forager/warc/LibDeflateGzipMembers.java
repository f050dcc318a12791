package org.forager.warc;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.lang.ref.Cleaner;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * {@link GzipMembers}' gzip members, the DEFLATE stream made by the system's {@link LibDeflate}
 * instead of the JDK's zlib: the same framing (header, CRC-32, length), a different and smaller
 * compressed stream that every gzip reader reads. Thread-safe.
 *
 * <p>Each pooled slot holds a compressor and native buffers for a record and its output, reused:
 * JNA would otherwise copy Java arrays in and out of native memory on every call anyway. Buffers
 * grown past {@link #KEEP_BUFFER_BYTES} by an unusually large record are not kept.
 */
final class LibDeflateGzipMembers implements RecordCodec {

  private static final Cleaner CLEANER = Cleaner.create();
  private static final long KEEP_BUFFER_BYTES = 4L << 20;

  private final int level;
  private final ConcurrentLinkedQueue<Slot> pool = new ConcurrentLinkedQueue<>();

  /** A compressor and its buffers; used by one thread at a time. */
  private static final class Slot {
    final Pointer compressor;
    Memory in;
    Memory out;

    Slot(int level) {
      compressor = LibDeflate.compressor(level);
    }

    void free() {
      LibDeflate.free(compressor);
    }
  }

  /** @throws IllegalStateException if libdeflate is not available ({@link LibDeflate#unavailable}) */
  LibDeflateGzipMembers(int level) {
    if (level < 1 || level > 9) throw new IllegalArgumentException("libdeflate gzip level must be 1 to 9: " + level);
    if (LibDeflate.unavailable().isPresent()) throw new IllegalStateException(LibDeflate.unavailable().get());
    this.level = level;
    ConcurrentLinkedQueue<Slot> slots = pool; // the cleaning action must not hold this codec
    CLEANER.register(this, () -> {
      for (Slot slot; (slot = slots.poll()) != null; ) slot.free();
    });
  }

  @Override
  public byte[] compress(byte[] plain, int plainLength) {
    Slot slot = pool.poll();
    if (slot == null) slot = new Slot(level);
    try {
      int bound = LibDeflate.bound(slot.compressor, plainLength);
      if (slot.in == null || slot.in.size() < plainLength) slot.in = new Memory(Math.max(plainLength, 64 * 1024));
      if (slot.out == null || slot.out.size() < bound) slot.out = new Memory(Math.max(bound, 64 * 1024));
      slot.in.write(0, plain, 0, plainLength);
      int length = LibDeflate.compress(slot.compressor, slot.in, plainLength, slot.out, (int) slot.out.size());
      if (length <= 0) throw new IllegalStateException("libdeflate found no room within its own bound");
      byte[] member = GzipMembers.frame(plain, plainLength, length);
      slot.out.read(0, member, GzipMembers.HEADER_LENGTH, length);
      if (slot.in.size() > KEEP_BUFFER_BYTES) slot.in = null;
      if (slot.out.size() > KEEP_BUFFER_BYTES) slot.out = null;
      return member;
    } finally {
      pool.offer(slot);
    }
  }
}
