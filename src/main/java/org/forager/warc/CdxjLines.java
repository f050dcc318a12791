package org.forager.warc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.URIs;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResource;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;

/**
 * The CDXJ line of one record, as pywb and warcio write them: {@code SURT TIMESTAMP {json}}, where
 * SURT is the URL's canonical SURT form (jwarc's, pywb's canonicalization: host reversed,
 * {@code www.} and default ports dropped, query arguments sorted, lower case), TIMESTAMP the
 * {@code WARC-Date} as {@code yyyyMMddHHmmss} in UTC, and the JSON object has {@code url},
 * {@code mime} (the HTTP Content-Type without parameters; {@code warc/revisit} for a revisit),
 * {@code status}, {@code digest} (the payload digest without its {@code sha1:} label),
 * {@code length} and {@code offset} (of the compressed record in the file) and {@code filename};
 * all values strings, a field without a value left out (warcio's choices, so its index of the same
 * file matches line for line). Only {@code response}, {@code revisit} and {@code resource}
 * records have a line; requests, metadata and warcinfo have none, as in pywb. Stateless.
 */
final class CdxjLines {

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);
  private static final JsonFactory JSON = new JsonFactory();

  private CdxjLines() {}

  /**
   * The line of the record at {@code span}, read through {@code heads}, or empty for a record that has none.
   *
   * @throws IOException if the span holds no readable record
   */
  static Optional<String> of(RecordHeads heads, String filename, RecordSpan span) throws IOException {
    byte[] head = heads.head(span);
    try {
      return of(head, filename, span);
    } catch (IOException | RuntimeException e) {
      if (head.length < RecordHeads.HEAD_BYTES) throw e;
      return of(heads.whole(span), filename, span); // headers longer than the head read
    }
  }

  /** The line of a record whose uncompressed bytes begin with {@code bytes}. */
  private static Optional<String> of(byte[] bytes, String filename, RecordSpan span) throws IOException {
    // The bytes as the reader's buffer, behind a channel with nothing more: no copy, no buffer of its own.
    try (WarcReader reader = new WarcReader(Channels.newChannel(InputStream.nullInputStream()), ByteBuffer.wrap(bytes))) {
      WarcRecord record = reader.next().orElseThrow(() -> new IOException("no record"));
      if (!(record instanceof WarcResponse || record instanceof WarcRevisit || record instanceof WarcResource)) {
        return Optional.empty();
      }
      WarcCaptureRecord capture = (WarcCaptureRecord) record;
      String url = capture.target();
      StringWriter line = new StringWriter(256);
      line.append(urlKey(url)).append(' ').append(TIMESTAMP.format(capture.date())).append(' ');
      try (JsonGenerator json = JSON.createGenerator(line)) {
        json.writeStartObject();
        json.writeStringField("url", url);
        Optional<String> mime = mime(capture);
        if (mime.isPresent()) json.writeStringField("mime", mime.get());
        Optional<Integer> status = status(capture);
        if (status.isPresent()) json.writeStringField("status", status.get().toString());
        Optional<String> digest = capture.headers().first("WARC-Payload-Digest");
        if (digest.isPresent()) json.writeStringField("digest", withoutLabel(digest.get()));
        json.writeStringField("length", Long.toString(span.length()));
        json.writeStringField("offset", Long.toString(span.offset()));
        json.writeStringField("filename", filename);
        json.writeEndObject();
      }
      return Optional.of(line.toString());
    }
  }

  /** The URL's SURT, with the characters that would break a CDXJ line escaped. */
  static String urlKey(String url) {
    return URIs.toNormalizedSurt(url).replace(" ", "%20").replace("\n", "%0A").replace("\r", "%0D");
  }

  private static Optional<String> mime(WarcCaptureRecord record) throws IOException {
    if (record instanceof WarcRevisit) return Optional.of("warc/revisit");
    Optional<String> type = record instanceof WarcResponse response && isHttp(record)
        ? response.http().headers().first("Content-Type")
        : record.headers().first("Content-Type");
    return type.map(t -> t.split(";", 2)[0].trim()).filter(t -> !t.isEmpty());
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

  private static String withoutLabel(String digest) {
    int colon = digest.indexOf(':');
    return colon < 0 ? digest : digest.substring(colon + 1);
  }
}
