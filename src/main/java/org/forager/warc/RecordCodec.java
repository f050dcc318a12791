package org.forager.warc;

/**
 * Compresses one serialized WARC record into a self-contained unit (a gzip member, a zstd frame)
 * that a reader can decompress from its offset alone. Implementations are thread-safe: crawling
 * threads compress their own records in parallel.
 */
interface RecordCodec {

  /** The record's bytes, compressed as one complete unit. */
  default byte[] compress(byte[] record) {
    return compress(record, record.length);
  }

  /** The first {@code length} bytes of {@code record}, compressed as one complete unit. */
  byte[] compress(byte[] record, int length);

  /**
   * As {@link #compress(byte[], int)}, into a buffer the caller closes once it has written it: a
   * codec with native buffers hands its own over instead of copying them into a new array.
   */
  default Compressed compressed(byte[] record, int length) {
    return Compressed.of(compress(record, length));
  }
}
