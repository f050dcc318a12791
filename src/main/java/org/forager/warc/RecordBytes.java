package org.forager.warc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcWriter;

/** Serializes a record, uncompressed, in memory (WARC 1.1 section 4). Stateless and thread-safe. */
final class RecordBytes {

  private RecordBytes() {}

  static byte[] of(WarcRecord record) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
    try {
      new WarcWriter(Channels.newChannel(out), WarcCompression.NONE).write(record);
    } catch (IOException e) {
      // Only in-memory streams here: an IOException means the record's own body failed.
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
