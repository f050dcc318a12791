package org.forager.warc;

import java.util.function.UnaryOperator;

/**
 * For the benchmarks only (src/jmh, never in forager.jar): the record codec the crawl would use
 * for a {@link RecordCompression}, which the WARC package keeps to itself.
 */
public final class RecordCodecs {

  private RecordCodecs() {}

  /** Compresses a whole serialized record as the WARC writer does, with {@code compression}'s codec. */
  public static UnaryOperator<byte[]> of(RecordCompression compression) {
    RecordCodec codec = compression.codec();
    return codec::compress;
  }

  /** ISA-L igzip at its own {@code level}, 0 to 3 (0: its fastest, not stored). */
  public static UnaryOperator<byte[]> isal(int level) {
    RecordCodec codec = new IsalGzipMembers(level);
    return codec::compress;
  }

  /** ISA-L igzip's level 0 with Huffman tables fitted to the records compressed (gzip level 1's codec). */
  public static UnaryOperator<byte[]> isalFitted() {
    RecordCodec codec = IsalGzipMembers.fitted();
    return codec::compress;
  }
}
