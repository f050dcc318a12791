package org.forager.warc;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.zip.GZIPInputStream;

/**
 * The system's ISA-L (Intel's Intelligent Storage Acceleration Library, Debian/Ubuntu package
 * {@code libisal2}), its igzip compressor called through JNA's direct mapping: the stateless
 * (whole-buffer) API only, since a record is always one whole buffer. On the crawl's records its
 * level 1 compresses in 54 to 84 % of libdeflate level 1's CPU by content, for 4 to 5 % more bytes
 * (docs/benchmarks.md, "Issue 15: ISA-L").
 *
 * <p>igzip has no allocating constructor: the caller owns the {@code struct isal_zstream} and the
 * level's buffer, so this class lays them out by hand ({@link Stream}). The offsets are those of
 * {@code /usr/include/isa-l/igzip_lib.h} of libisal 2.30 on x86-64 (LP64), taken with
 * {@code offsetof}; the library exports no version, so on first use a round trip at every level
 * (compressed here, inflated by the JDK) must give the input back, or the engine is not used and
 * {@link #unavailable} says why (and a one-line warning is logged).
 *
 * <p>A {@link Stream} is not thread-safe; callers pool them. Loaded once.
 */
final class Isal {

  private static final System.Logger LOG = System.getLogger(Isal.class.getName());

  // struct isal_zstream, igzip_lib.h of libisal 2.30, x86-64 (offsetof / sizeof with gcc).
  private static final int NEXT_IN = 0; // uint8_t *
  private static final int AVAIL_IN = 8; // uint32_t; total_in at 12
  private static final int NEXT_OUT = 16; // uint8_t *
  private static final int AVAIL_OUT = 24; // uint32_t
  private static final int TOTAL_OUT = 28; // uint32_t; hufftables at 32
  private static final int LEVEL = 40; // uint32_t
  private static final int LEVEL_BUF_SIZE = 44; // uint32_t
  private static final int LEVEL_BUF = 48; // uint8_t *
  private static final int END_OF_STREAM = 56; // uint16_t
  private static final int FLUSH = 58; // uint16_t
  private static final int GZIP_FLAG = 60; // uint16_t
  private static final int HIST_BITS = 62; // uint16_t; internal_state follows at 64
  private static final int STREAM_SIZE = 82_384; // sizeof(struct isal_zstream), IGZIP_HIST_SIZE 32 KiB
  /**
   * What is allocated for the struct: room to spare, should a later 2.x (same soname) grow its
   * internal state; the self-check cannot be counted on to see writes past an exact allocation.
   */
  private static final int STREAM_ALLOCATION = 4 * STREAM_SIZE;
  /**
   * ISAL_DEF_LVL0_DEFAULT (none: level 0 keeps its small hash table in the struct) to
   * ISAL_DEF_LVL3_DEFAULT (the "large" sizes).
   */
  private static final int[] LEVEL_BUF_SIZES = {0, 282_624, 331_776, 348_160};
  private static final short IGZIP_GZIP = 1; // a gzip header (zlib's, byte for byte) and trailer
  private static final int COMP_OK = 0;
  // struct isal_huff_histogram (286 + 30 uint64_t counts, then an 8,192-entry uint16_t hash table the
  // histogram pass uses as scratch) and struct isal_hufftables, igzip_lib.h of libisal 2.30, x86-64.
  private static final int HISTOGRAM_SIZE = 18_912;
  private static final int HUFFTABLES_SIZE = 2_232;
  private static final int IGZIP_HUFFTABLE_CUSTOM = 0;

  /**
   * igzip's levels. Its level 0 is its fastest (one pass with the library's built-in Huffman
   * tables, no histogram), not a stored level: Forager's {@code gzip_level: 0} stores, and
   * igzip's 0 is asked for as {@code gzip_level: fastest} ({@link RecordCompression#fastest}).
   */
  static final int MIN_LEVEL = 0;
  static final int MAX_LEVEL = 3;

  /** Empty when ISA-L can be used here, else the one-line reason it cannot. */
  private static final Optional<String> UNAVAILABLE = probe();

  private Isal() {}

  private static Optional<String> probe() {
    if (!"amd64".equals(System.getProperty("os.arch"))) {
      return Optional.of("ISA-L is used on x86-64 only (its struct layout is written down for it)");
    }
    try {
      if (Native.SIZE_T_SIZE != Long.BYTES) return Optional.of("ISA-L is used on 64-bit JVMs only");
      // The ABI's own name: a future libisal.so.3 may lay the struct out differently.
      Native.register(Natives.class, NativeLibrary.getInstance("libisal.so.2"));
    } catch (LinkageError e) { // no library, one without a function, or JNA unable to load itself
      return Optional.of("ISA-L is not installed (Debian/Ubuntu: apt-get install libisal2)");
    }
    Optional<String> failed = selfCheck();
    failed.ifPresent(why -> LOG.log(System.Logger.Level.WARNING, "ISA-L not used: {0}", why));
    return failed;
  }

  /** Empty if a sample compressed at every level inflates back to itself, else what went wrong. */
  private static Optional<String> selfCheck() {
    byte[] sample = new byte[70_000]; // past one 64 KiB stored block, should the library fall back to one
    for (int i = 0; i < sample.length; i++) sample[i] = (byte) ("forager self-check " + i / 7).charAt(i % 19);
    try (Memory in = new Memory(sample.length); Memory out = new Memory(bound(sample.length))) {
      in.write(0, sample, 0, sample.length);
      for (int level = MIN_LEVEL; level <= MAX_LEVEL; level++) {
        int length = new Stream(level).gzip(in, sample.length, out, (int) out.size());
        byte[] member = out.getByteArray(0, length);
        if (!Arrays.equals(sample, gunzip(member))) {
          return Optional.of("libisal's self-check at level " + level + " gave other bytes back");
        }
      }
      // Tables fitted to a text, used on that text and on bytes they were not fitted to.
      Histogram histogram = new Histogram();
      histogram.add(in, sample.length);
      Tables tables = histogram.tables();
      byte[] noise = new byte[5_000];
      new Random(19).nextBytes(noise);
      for (byte[] input : List.of(sample, noise)) {
        in.write(0, input, 0, input.length);
        int length = new Stream(0).gzip(in, input.length, out, (int) out.size(), tables);
        if (!Arrays.equals(input, gunzip(out.getByteArray(0, length)))) {
          return Optional.of("libisal's self-check with fitted Huffman tables gave other bytes back");
        }
      }
      return Optional.empty();
    } catch (IOException | RuntimeException | LinkageError e) {
      return Optional.of("libisal's self-check failed: " + e);
    }
  }

  private static byte[] gunzip(byte[] member) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(member))) {
      return in.readAllBytes();
    }
  }

  /** Empty when ISA-L can be used, else why not. */
  static Optional<String> unavailable() {
    return UNAVAILABLE;
  }

  /**
   * The most bytes a gzip member of {@code length} bytes can take: igzip falls back to stored
   * blocks (5 bytes a 65,535) when compression does not pay, plus the gzip header and trailer, plus
   * slack for its 8-byte bit-buffer writes.
   */
  static int bound(int length) {
    return length + 5 * Math.max(1, (length + 65_534) / 65_535) + 18 + 64;
  }

  /**
   * A {@code struct isal_zstream} and its level's buffer, in native memory (freed with this
   * object, by JNA). Not thread-safe.
   */
  static final class Stream {
    private final int level;
    private final Memory struct = new Memory(STREAM_ALLOCATION);
    private final Optional<Memory> levelBuf; // none at level 0
    // A view of the struct's user fields: set without a JNI call each.
    private final ByteBuffer fields;

    /** A stream at {@code level} ({@link #MIN_LEVEL} to {@link #MAX_LEVEL}). */
    Stream(int level) {
      if (level < MIN_LEVEL || level > MAX_LEVEL) {
        throw new IllegalArgumentException("ISA-L level must be 0 to 3: " + level);
      }
      this.level = level;
      struct.clear(); // hist_bits and the internal state start at zero, as igzip expects of a new stream
      levelBuf = level == 0 ? Optional.empty() : Optional.of(new Memory(LEVEL_BUF_SIZES[level]));
      fields = struct.getByteBuffer(0, 64).order(ByteOrder.nativeOrder());
    }

    /**
     * Compresses {@code inLength} bytes at {@code in} into {@code out} as one whole gzip member
     * (zlib's 10-byte header, CRC-32 and length); returns its length. {@code outLength} must be at
     * least {@link #bound}{@code (inLength)}.
     */
    int gzip(Pointer in, int inLength, Pointer out, int outLength) {
      return gzip(in, inLength, out, outLength, level, null);
    }

    /**
     * As {@link #gzip(Pointer, int, Pointer, int)}, but at igzip's level 0 with {@code tables} (its
     * one pass, Huffman codes fitted to such records rather than its built-in ones), whatever this
     * stream's level.
     */
    int gzip(Pointer in, int inLength, Pointer out, int outLength, Tables tables) {
      return gzip(in, inLength, out, outLength, 0, tables);
    }

    private int gzip(Pointer in, int inLength, Pointer out, int outLength, int callLevel, Tables tables) {
      if (outLength < bound(inLength)) throw new IllegalArgumentException("ISA-L output under its bound");
      Natives.isal_deflate_stateless_init(struct);
      fields.putLong(NEXT_IN, Pointer.nativeValue(in)).putInt(AVAIL_IN, inLength)
          .putLong(NEXT_OUT, Pointer.nativeValue(out)).putInt(AVAIL_OUT, outLength)
          .putInt(LEVEL, callLevel).putInt(LEVEL_BUF_SIZE, LEVEL_BUF_SIZES[callLevel])
          .putLong(LEVEL_BUF, callLevel == 0 ? 0L : levelBuf.map(Pointer::nativeValue).orElse(0L))
          .putShort(END_OF_STREAM, (short) 1).putShort(FLUSH, (short) 0)
          .putShort(GZIP_FLAG, IGZIP_GZIP).putShort(HIST_BITS, (short) 0);
      if (tables != null) {
        int set = Natives.isal_deflate_set_hufftables(struct, tables.memory, IGZIP_HUFFTABLE_CUSTOM);
        if (set != COMP_OK) throw new IllegalStateException("isal_deflate_set_hufftables failed: " + set);
      }
      int status = Natives.isal_deflate_stateless(struct);
      Reference.reachabilityFence(levelBuf); // native memory the call used: not freed before it returned
      Reference.reachabilityFence(tables);
      Reference.reachabilityFence(struct);
      if (status != COMP_OK) throw new IllegalStateException("isal_deflate_stateless failed: " + status);
      return fields.getInt(TOTAL_OUT);
    }
  }

  /**
   * Counts of the DEFLATE symbols igzip's level 0 would emit for the bytes added (literals, match
   * lengths, distances): what {@link Tables} are fitted to. Not thread-safe.
   */
  static final class Histogram {
    private final Memory memory = new Memory(2L * HISTOGRAM_SIZE); // slack, as for the stream

    Histogram() {
      memory.clear();
    }

    /** Counts the symbols of {@code length} bytes at {@code in}. */
    void add(Pointer in, int length) {
      Natives.isal_update_histogram(in, length, memory);
      Reference.reachabilityFence(memory);
    }

    /** Huffman tables for the symbols counted; every symbol gets a code, counted or not. */
    Tables tables() {
      Memory tables = new Memory(2L * HUFFTABLES_SIZE);
      tables.clear();
      int status = Natives.isal_create_hufftables(tables, memory);
      Reference.reachabilityFence(memory);
      if (status != COMP_OK) throw new IllegalStateException("isal_create_hufftables failed: " + status);
      return new Tables(tables);
    }
  }

  /**
   * Huffman tables for igzip's level 0 ({@code struct isal_hufftables}): immutable once made, so any
   * number of streams may use them at once. Freed by JNA once unreachable.
   */
  static final class Tables {
    private final Memory memory;

    private Tables(Memory memory) {
      this.memory = memory;
    }
  }

  /** The C functions, bound by {@link Native#register}. */
  private static final class Natives {
    static native void isal_deflate_stateless_init(Pointer stream);

    static native int isal_deflate_stateless(Pointer stream);

    static native int isal_deflate_set_hufftables(Pointer stream, Pointer hufftables, int type);

    static native void isal_update_histogram(Pointer in, int length, Pointer histogram);

    static native int isal_create_hufftables(Pointer hufftables, Pointer histogram);
  }
}
