package org.forager.warc;

import java.util.Optional;

/**
 * How each WARC record is compressed: every record on its own, so that a record can be read from
 * its offset alone. Immutable.
 *
 * @param format gzip members (WARC 1.1 annex D, {@code .warc.gz}) or zstd frames (the IIPC
 *     warc-zstd proposal, {@code .warc.zst})
 * @param level the compression level: 0 (store) to 9 for gzip (0 to 3 with {@link GzipEngine#ISAL}),
 *     or {@link #FASTEST}; 1 to 19 for zstd
 * @param engine for gzip, what deflates (ignored for zstd)
 */
public record RecordCompression(Format format, int level, GzipEngine engine) {

  /** What makes a gzip member's DEFLATE stream; the members read the same either way. */
  public enum GzipEngine {
    /**
     * {@link #ISAL} at levels 1 to 3 when the system has it, else {@link #LIBDEFLATE} when it has
     * that, else {@link #ZLIB}.
     */
    AUTO,
    /**
     * The system's ISA-L igzip ({@link Isal}), gzip levels 1 to 3 only and {@link #FASTEST} (igzip's
     * 0 with its built-in Huffman tables). Level 1 is igzip's 0 with tables fitted to the records
     * ({@link HuffmanFit}): 0.72 to 0.8 of igzip level 1's CPU for 0.4 to 3.8 % more bytes; 2 and 3 are
     * igzip's own (igzip's 1 took 54 to 84 % of libdeflate's CPU at level 1 by content, output 4 to 5 %
     * larger).
     */
    ISAL,
    /** The system's libdeflate ({@link LibDeflate}): about 2.5 times zlib's speed at level 1, smaller. */
    LIBDEFLATE,
    /** The JDK's zlib. */
    ZLIB
  }

  /** With the gzip engine chosen for the system ({@link GzipEngine#AUTO}). */
  public RecordCompression(Format format, int level) {
    this(format, level, GzipEngine.AUTO);
  }

  /** The container of each record, and the file name suffix that says which. */
  public enum Format {
    /** One gzip member per record: every WARC reader reads it. */
    GZIP(".warc.gz"),
    /** One zstd frame per record, no dictionary: about a third of gzip's CPU, fewer readers. */
    ZSTD(".warc.zst");

    private final String suffix;

    Format(String suffix) {
      this.suffix = suffix;
    }

    /** The file name suffix, e.g. {@code .warc.gz}. */
    public String suffix() {
      return suffix;
    }
  }

  /**
   * The gzip "level" that asks for the engine's fastest mode, which is not a zlib level: ISA-L
   * igzip's level 0 (no histogram pass; on the bench's records 1.36 times as fast as its level 1 for
   * output 7 % larger, and 1.6 % of a crawl's CPU for a WARC 6 % larger, docs/benchmarks.md),
   * libdeflate's and zlib's level 1.
   */
  public static final int FASTEST = -1;

  /** The gzip level the crawl uses unless configured: fast (see docs/benchmarks.md). */
  public static final int DEFAULT_GZIP_LEVEL = 1;
  /** The zstd level the crawl uses unless configured: fast (see docs/benchmarks.md). */
  public static final int DEFAULT_ZSTD_LEVEL = 1;

  /** @throws IllegalArgumentException if the level is out of the format's range */
  public RecordCompression {
    switch (format) {
      case GZIP -> {
        if (level < FASTEST || level > 9) {
          throw new IllegalArgumentException("gzip level must be 0 to 9 or FASTEST: " + level);
        }
        if (engine == GzipEngine.ISAL && level > 3) {
          throw new IllegalArgumentException("ISA-L compresses at gzip levels 1 to 3 only: " + level);
        }
      }
      case ZSTD -> {
        // 20 to 22 are zstd's "ultra" levels: windows past the 8 MiB warc-zstd readers must support.
        if (level < 1 || level > 19) throw new IllegalArgumentException("zstd level must be 1 to 19: " + level);
      }
    }
  }

  /** Gzip members at {@code level}. */
  public static RecordCompression gzip(int level) {
    return new RecordCompression(Format.GZIP, level);
  }

  /**
   * Gzip members at {@code level}, deflated by {@code engine}.
   *
   * @throws IllegalStateException for {@link GzipEngine#ISAL} or {@link GzipEngine#LIBDEFLATE} when
   *     the system does not have that library, with the one-line reason
   * @throws IllegalArgumentException for {@link GzipEngine#ISAL} at a level above 3
   */
  public static RecordCompression gzip(int level, GzipEngine engine) {
    if (engine == GzipEngine.ISAL && Isal.unavailable().isPresent()) {
      throw new IllegalStateException("warc.gzip_engine is isal, but " + Isal.unavailable().get());
    }
    if (engine == GzipEngine.LIBDEFLATE && LibDeflate.unavailable().isPresent()) {
      throw new IllegalStateException("warc.gzip_engine is libdeflate, but " + LibDeflate.unavailable().get());
    }
    return new RecordCompression(Format.GZIP, level, engine);
  }

  /** Empty when ISA-L can be used here, else the one-line reason it cannot. */
  public static Optional<String> isalUnavailable() {
    return Isal.unavailable();
  }

  /** Empty when libdeflate can be used here, else the one-line reason it cannot. */
  public static Optional<String> libdeflateUnavailable() {
    return LibDeflate.unavailable();
  }

  /**
   * The engine that deflates gzip members here: {@link GzipEngine#AUTO} resolved for this level
   * (ISA-L has levels 1 to 3 and {@link #FASTEST} only; level 0 stores, whichever engine is named).
   */
  public GzipEngine effectiveEngine() {
    if (engine != GzipEngine.AUTO) return engine;
    if ((level == FASTEST || (level >= 1 && level <= 3)) && Isal.unavailable().isEmpty()) return GzipEngine.ISAL;
    return LibDeflate.unavailable().isEmpty() ? GzipEngine.LIBDEFLATE : GzipEngine.ZLIB;
  }

  /**
   * What compresses the records, for the operator: e.g. {@code gzip level 1 (ISA-L igzip)},
   * {@code gzip fastest (ISA-L igzip level 0)} or {@code zstd level 3}.
   */
  public String describe() {
    if (format == Format.ZSTD) return "zstd level " + level;
    if (level == 0) return "gzip level 0 (stored)";
    String name = switch (effectiveEngine()) {
      case ISAL -> "ISA-L igzip";
      case LIBDEFLATE -> "libdeflate";
      case ZLIB, AUTO -> "the JDK's zlib";
    };
    if (level == FASTEST) return "gzip fastest (" + name + " level " + engineLevel() + ")";
    if (fitsTables()) return "gzip level 1 (ISA-L igzip level 0, Huffman tables fitted to the records)";
    return "gzip level " + level + " (" + name + ")";
  }

  /**
   * Whether level 1 is igzip's level 0 with Huffman tables fitted to the records ({@link HuffmanFit}):
   * with ISA-L it is, as that costs level 0's CPU for about igzip level 1's bytes.
   */
  private boolean fitsTables() {
    return format == Format.GZIP && level == 1 && effectiveEngine() == GzipEngine.ISAL;
  }

  /** The gzip level in the engine's own terms: {@link #FASTEST} is igzip's 0, the others' 1. */
  private int engineLevel() {
    if (level != FASTEST) return level;
    return effectiveEngine() == GzipEngine.ISAL ? 0 : 1;
  }

  /** Zstd frames at {@code level}. */
  public static RecordCompression zstd(int level) {
    return new RecordCompression(Format.ZSTD, level);
  }

  /** What the crawl writes unless configured otherwise: gzip at {@link #DEFAULT_GZIP_LEVEL}. */
  public static RecordCompression defaults() {
    return gzip(DEFAULT_GZIP_LEVEL);
  }

  /** A compressor of records in this format. */
  RecordCodec codec() {
    return switch (format) {
      // Level 0 stores the record: zlib's stored blocks cost nothing either.
      case GZIP -> level == 0 ? new GzipMembers(0) : switch (effectiveEngine()) {
        case ISAL -> fitsTables() ? IsalGzipMembers.fitted() : new IsalGzipMembers(engineLevel());
        case LIBDEFLATE -> new LibDeflateGzipMembers(engineLevel());
        case ZLIB, AUTO -> new GzipMembers(engineLevel());
      };
      case ZSTD -> new ZstdFrames(level);
    };
  }
}
