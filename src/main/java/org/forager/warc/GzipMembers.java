package org.forager.warc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.zip.GZIPOutputStream;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcWriter;

/**
 * Serializes a record into one complete gzip member ("record-at-time compression", WARC 1.1
 * annex D), in memory. Stateless and thread-safe.
 *
 * <p>Why not a {@code WarcWriter} with {@link WarcCompression#GZIP} on the file: that compresses
 * while the caller holds the file, so every crawling thread would wait for one core to deflate.
 * Compressing each record apart lets threads compress in parallel and only the append is serial.
 * The bytes are the same shape either way: jwarc serializes the record, the JDK's gzip writes the
 * member (at the default level, faster than jwarc's best-compression level for a few percent of
 * size), and the member's deflater is released at once instead of waiting for the garbage
 * collector.
 */
final class GzipMembers {

  private GzipMembers() {}

  static byte[] of(WarcRecord record) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
    try (GZIPOutputStream gzip = new GZIPOutputStream(out, 16 * 1024)) {
      // The writer only serializes; closing the gzip stream finishes the member.
      new WarcWriter(Channels.newChannel(gzip), WarcCompression.NONE).write(record);
    } catch (IOException e) {
      // Only in-memory streams here: an IOException means the record's own body failed.
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
