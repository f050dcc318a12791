package org.forager.warc;

/**
 * Compresses one serialized WARC record into a self-contained unit (a gzip member, a zstd frame)
 * that a reader can decompress from its offset alone. Implementations are thread-safe: crawling
 * threads compress their own records in parallel.
 */
interface RecordCodec {

  /** The record's bytes, compressed as one complete unit. */
  byte[] compress(byte[] record);
}
