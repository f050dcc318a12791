package org.forager.warc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.List;
import java.util.Optional;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResource;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;

/**
 * What the CDXJ line of a record read back from a WARC file says ({@link CdxjLines.Fields}), parsed
 * by jwarc from the record's head: for files indexed after they were written (repaired, or written
 * before indexes existed). Only {@code response}, {@code revisit} and {@code resource} records have
 * a line; requests, metadata and warcinfo have none, as in pywb. Stateless.
 */
final class ReadCaptures {

  private ReadCaptures() {}

  /**
   * The line's fields of the record at {@code span}, read through {@code heads}, or empty for a
   * record that has no line.
   *
   * @throws IOException if the span holds no readable record
   */
  static Optional<CdxjLines.Fields> of(RecordHeads heads, RecordSpan span) throws IOException {
    byte[] head = heads.head(span);
    try {
      return of(head);
    } catch (IOException | RuntimeException e) {
      if (head.length < RecordHeads.HEAD_BYTES) throw e;
      return of(heads.whole(span)); // headers longer than the head read
    }
  }

  /** The fields of a record whose uncompressed bytes begin with {@code bytes}. */
  private static Optional<CdxjLines.Fields> of(byte[] bytes) throws IOException {
    // The bytes as the reader's buffer, behind a channel with nothing more: no copy, no buffer of its own.
    try (WarcReader reader = new WarcReader(Channels.newChannel(InputStream.nullInputStream()), ByteBuffer.wrap(bytes))) {
      WarcRecord record = reader.next().orElseThrow(() -> new IOException("no record"));
      if (!(record instanceof WarcResponse || record instanceof WarcRevisit || record instanceof WarcResource)) {
        return Optional.empty();
      }
      WarcCaptureRecord capture = (WarcCaptureRecord) record;
      CdxjLines.Kind kind = record instanceof WarcRevisit ? CdxjLines.Kind.REVISIT
          : record instanceof WarcResource ? CdxjLines.Kind.RESOURCE : CdxjLines.Kind.RESPONSE;
      return Optional.of(new CdxjLines.Fields(capture.target(), capture.date(), kind,
          kind == CdxjLines.Kind.REVISIT ? Optional.empty() : contentType(capture), status(capture),
          capture.headers().first("WARC-Payload-Digest")));
    }
  }

  /** The HTTP Content-Type of an HTTP response, else the record's own; several fields' values joined. */
  private static Optional<String> contentType(WarcCaptureRecord record) throws IOException {
    List<String> values = record instanceof WarcResponse response && isHttp(record)
        ? response.http().headers().all("Content-Type")
        : record.headers().all("Content-Type");
    return values.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", values));
  }

  private static Optional<Integer> status(WarcCaptureRecord record) throws IOException {
    if (!isHttp(record)) return Optional.empty();
    if (record instanceof WarcResponse response) return Optional.of(response.http().status());
    if (!(record instanceof WarcRevisit revisit)) return Optional.empty();
    try {
      return Optional.of(revisit.http().status());
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // a revisit may hold no HTTP head at all (WARC 1.1 section 6.7)
    }
  }

  private static boolean isHttp(WarcRecord record) {
    return record.contentType().base().equals(MediaType.HTTP);
  }
}
