package org.forager.warc;

/**
 * Where one record lies in a WARC file: its gzip member or zstd frame, {@code length} compressed
 * bytes from {@code offset}. What a CDX index points at: a reader seeks to the offset and
 * decompresses that unit alone.
 */
record RecordSpan(long offset, long length) {}
