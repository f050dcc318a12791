package org.forager.warc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.netpreserve.jwarc.WarcRecord;

/**
 * A record to write: its version line, its header fields in the order they are written, and its
 * block's bytes in pieces (e.g. the HTTP head, then the payload), which {@link RecordBytes} writes
 * as they are. The fields include {@code Content-Length}, which must count the pieces' bytes.
 */
record RecordToWrite(String version, List<Field> fields, List<byte[]> block) {

  /** A header field, {@code name: value}. */
  record Field(String name, String value) {}

  /**
   * A record jwarc built (the warcinfo), its fields in jwarc's order.
   *
   * @throws IllegalArgumentException if the pieces are not the record's {@code Content-Length} long
   */
  static RecordToWrite of(WarcRecord record, List<byte[]> block) {
    long contentLength;
    try {
      contentLength = record.body().size();
    } catch (IOException e) { // a body built from a length, as every record written here is, never throws
      throw new UncheckedIOException(e);
    }
    if (blockLength(block) != contentLength) {
      throw new IllegalArgumentException(
          "block of " + blockLength(block) + " bytes for a Content-Length of " + contentLength);
    }
    List<Field> fields = new ArrayList<>();
    for (Map.Entry<String, List<String>> field : record.headers().map().entrySet()) {
      for (String value : field.getValue()) fields.add(new Field(field.getKey(), value));
    }
    return new RecordToWrite(record.version().toString(), List.copyOf(fields), block);
  }

  /** The bytes of the pieces together. */
  static long blockLength(List<byte[]> block) {
    long length = 0;
    for (byte[] piece : block) length += piece.length;
    return length;
  }
}
