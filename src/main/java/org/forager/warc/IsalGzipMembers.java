package org.forager.warc;

import com.sun.jna.Memory;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link GzipMembers}' gzip members made whole by the system's {@link Isal} (igzip) instead of the
 * JDK's zlib: the same header and trailer byte for byte, a different DEFLATE stream that every gzip
 * reader reads. Thread-safe.
 *
 * <p>Each pooled slot holds an igzip stream with its level buffer and native buffers for a record
 * and its member, reused (a pool, not a thread-local: crawl threads are virtual threads, and only
 * about one per core compresses at a time). {@link #compressed} writes the member into a native
 * output buffer of a second pool instead and hands it over as it is: the recorder writes it to the
 * file from there (no copy into the Java heap and back out into the JDK's own native buffer) and
 * gives it back once written; the stream's slot is free again as soon as the member is made. At
 * most {@link #MAX_LENT_OUTPUTS} outputs of {@link #MAX_LENT_BYTES} in all are out at once (many
 * writers can wait for the file's lock, e.g. while a full file is flushed to disk): past that a
 * member is copied to the heap as {@link #compress} does, so native memory stays bounded. Buffers
 * grown past {@link #KEEP_BUFFER_BYTES} (outputs past {@link #KEEP_OUTPUT_BYTES}) by an unusually
 * large record are not kept. All of it is JNA {@link Memory}, freed by JNA once unreachable.
 */
final class IsalGzipMembers implements RecordCodec {

  private static final long KEEP_BUFFER_BYTES = 4L << 20;
  /**
   * Outputs kept for the next members: a page's member is tens of KB, and up to
   * {@link #MAX_LENT_OUTPUTS} of them are kept, so a crawl of a few multi-MB pages would otherwise pin
   * that many large native buffers for good (64 of 4 MiB: 256 MiB). Larger ones are dropped when given
   * back and freed by JNA once unreachable.
   */
  static final long KEEP_OUTPUT_BYTES = 256 * 1024;
  private static final int MIN_BUFFER_BYTES = 64 * 1024;
  /**
   * Outputs out at once (and kept): many, since members wait for the file's lock in the virtual
   * threads parked behind it, not one per core. At 12 (2 cores), a bench crawl copied 37 % of its
   * members to the heap (0.47 GB of allocation and a copy out again into the JDK's buffer); 64 page
   * members hold about 4 MiB of native memory.
   */
  static final int MAX_LENT_OUTPUTS = Math.max(64, 4 * Runtime.getRuntime().availableProcessors() + 4);
  /** The native bytes out at once: 64 members of multi-MB pages must not hold hundreds of MiB. */
  static final long MAX_LENT_BYTES = 8L << 20;

  private final int level;
  /** Tables fitted to the records, used at igzip's level 0 once there are some; null: igzip's {@link #level} as it is. */
  private final HuffmanFit fit;
  private final ConcurrentLinkedQueue<Slot> pool = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Output> outputs = new ConcurrentLinkedQueue<>();
  private final AtomicInteger pooledOutputs = new AtomicInteger();
  private final AtomicInteger lentOutputs = new AtomicInteger();
  private final AtomicLong lentBytes = new AtomicLong();

  /** A stream and its buffers; used by one thread at a time. */
  private static final class Slot {
    final Isal.Stream stream;
    Memory in;
    Memory out;

    Slot(int level) {
      stream = new Isal.Stream(level);
    }
  }

  /** A native output buffer with a view of it made once; used by one thread at a time. */
  private static final class Output {
    final Memory memory;
    final ByteBuffer view;

    Output(long size) {
      memory = new Memory(size);
      view = memory.getByteBuffer(0, size);
    }
  }

  /**
   * Members at igzip's {@code level}, 0 (its fastest) to 3.
   *
   * @throws IllegalStateException if ISA-L is not available ({@link Isal#unavailable})
   */
  IsalGzipMembers(int level) {
    this(level, null);
  }

  private IsalGzipMembers(int level, HuffmanFit fit) {
    if (level < Isal.MIN_LEVEL || level > Isal.MAX_LEVEL) {
      throw new IllegalArgumentException("ISA-L level must be 0 to 3: " + level);
    }
    if (Isal.unavailable().isPresent()) throw new IllegalStateException(Isal.unavailable().get());
    this.level = level;
    this.fit = fit;
  }

  /**
   * Members at igzip's level 0 with Huffman tables fitted to the records ({@link HuffmanFit}): level
   * 0's CPU for about level 1's bytes; at level 1 while a kind of record has no tables yet.
   *
   * @throws IllegalStateException if ISA-L is not available ({@link Isal#unavailable})
   */
  static IsalGzipMembers fitted() {
    return fitted(new HuffmanFit());
  }

  /** {@link #fitted()} with {@code fit}'s amounts (tests). */
  static IsalGzipMembers fitted(HuffmanFit fit) {
    return new IsalGzipMembers(1, fit);
  }

  @Override
  public byte[] compress(byte[] plain, int plainLength) {
    Slot slot = takeSlot();
    try {
      int bound = Isal.bound(plainLength);
      if (slot.out == null || slot.out.size() < bound) slot.out = new Memory(Math.max(bound, MIN_BUFFER_BYTES));
      int length = gzip(slot, plain, plainLength, slot.out);
      byte[] member = slot.out.getByteArray(0, length);
      if (slot.out.size() > KEEP_BUFFER_BYTES) slot.out = null;
      return member;
    } finally {
      pool.offer(slot);
    }
  }

  @Override
  public Compressed compressed(byte[] plain, int plainLength) {
    long least = Math.max(Isal.bound(plainLength), MIN_BUFFER_BYTES); // what takeOutput gives at least
    // Both counted (no short circuit), both undone: past either bound, native memory stays bounded.
    if (lentOutputs.incrementAndGet() > MAX_LENT_OUTPUTS | lentBytes.addAndGet(least) > MAX_LENT_BYTES) {
      lentOutputs.decrementAndGet();
      lentBytes.addAndGet(-least);
      return Compressed.of(compress(plain, plainLength)); // a heap copy
    }
    Output out;
    try {
      out = takeOutput(Isal.bound(plainLength));
    } catch (RuntimeException | Error e) {
      lentOutputs.decrementAndGet();
      lentBytes.addAndGet(-least);
      throw e;
    }
    lentBytes.addAndGet(out.memory.size() - least); // a pooled output may be larger
    int length;
    Slot slot = null;
    try {
      slot = takeSlot();
      length = gzip(slot, plain, plainLength, out.memory);
    } catch (RuntimeException | Error e) {
      giveBack(out);
      throw e;
    } finally {
      if (slot != null) pool.offer(slot);
    }
    return new Compressed(out.view.clear().limit(length), () -> giveBack(out));
  }

  private Slot takeSlot() {
    Slot slot = pool.poll();
    return slot != null ? slot : new Slot(level);
  }

  /** The member of {@code plain}'s first {@code plainLength} bytes, written into {@code out}; its length. */
  private int gzip(Slot slot, byte[] plain, int plainLength, Memory out) {
    if (slot.in == null || slot.in.size() < plainLength) slot.in = new Memory(Math.max(plainLength, MIN_BUFFER_BYTES));
    if (plainLength > 0) slot.in.write(0, plain, 0, plainLength);
    Isal.Tables tables = null;
    if (fit != null) {
      tables = fit.tablesFor(plainLength);
      fit.sample(slot.in, plainLength);
    }
    int length = tables == null ? slot.stream.gzip(slot.in, plainLength, out, (int) out.size())
        : slot.stream.gzip(slot.in, plainLength, out, (int) out.size(), tables);
    if (slot.in.size() > KEEP_BUFFER_BYTES) slot.in = null;
    return length;
  }

  private Output takeOutput(int bound) {
    Output out = outputs.poll();
    if (out != null) {
      pooledOutputs.decrementAndGet();
      if (out.memory.size() >= bound) return out;
      // Too small: dropped, so that the pool comes to hold buffers that fit the crawl's records.
    }
    return new Output(Math.max(bound, MIN_BUFFER_BYTES));
  }

  /** The native bytes the pool keeps for the next members (not counting those lent out). */
  long keptOutputBytes() {
    long bytes = 0;
    for (Output out : outputs) bytes += out.memory.size();
    return bytes;
  }

  private void giveBack(Output out) {
    lentOutputs.decrementAndGet();
    lentBytes.addAndGet(-out.memory.size());
    if (out.memory.size() > KEEP_OUTPUT_BYTES) return;
    if (pooledOutputs.incrementAndGet() > MAX_LENT_OUTPUTS) {
      pooledOutputs.decrementAndGet();
      return;
    }
    outputs.offer(out);
  }
}
