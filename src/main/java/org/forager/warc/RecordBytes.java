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

  /** Room for a record's WARC header beside its block: most are well under this, the stream grows if not. */
  private static final int HEADER_ROOM = 2048;

  /** A serialized record: the first {@code length} bytes of {@code bytes} (no copy cut to size). */
  record Serialized(byte[] bytes, int length) {}

  /** A stream whose buffer is handed over as it is: the record is compressed from it, then dropped. */
  private static final class Buffer extends ByteArrayOutputStream {
    Buffer(int size) {
      super(size);
    }

    Serialized serialized() {
      return new Serialized(buf, count);
    }
  }

  private RecordBytes() {}

  static Serialized of(WarcRecord record) {
    try {
      // Sized for the whole record: growing by doubling from 8 KiB copied a 30 KB page three times.
      long size = record.body().size() + HEADER_ROOM;
      Buffer out = new Buffer((int) Math.min(size, 1 << 24));
      new WarcWriter(Channels.newChannel(out), WarcCompression.NONE).write(record);
      return out.serialized();
    } catch (IOException e) {
      // Only in-memory streams here: an IOException means the record's own body failed.
      throw new UncheckedIOException(e);
    }
  }
}
