package org.forager.warc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import org.netpreserve.jwarc.URIs;

/**
 * Formats the CDXJ line of one record, as pywb and warcio write them: {@code SURT TIMESTAMP {json}},
 * where SURT is the URL's canonical SURT form (jwarc's, pywb's canonicalization: host reversed,
 * {@code www.} and default ports dropped, query arguments sorted, lower case), TIMESTAMP the
 * {@code WARC-Date} as {@code yyyyMMddHHmmss} in UTC, and the JSON object has {@code url},
 * {@code mime} (the HTTP Content-Type without parameters; {@code warc/revisit} for a revisit),
 * {@code status}, {@code digest} (the payload digest without its {@code sha1:} label),
 * {@code length} and {@code offset} (of the compressed record in the file) and {@code filename};
 * all values strings, a field without a value left out (warcio's choices, so its index of the same
 * file matches line for line).
 *
 * <p>The one formatter of both ways a line is made: from the values a record was written with
 * ({@link CaptureRecords}) and from a record read back ({@link ReadCaptures}), so an index built at
 * either time has the same bytes. A line is made in two steps because where a record lies is known
 * only once it is in the file: {@link #start} (everything but the position, off the file's lock),
 * then {@link #line}. Stateless and thread-safe.
 */
final class CdxjLines {

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);
  // The object is closed by line(), after the position: the generator must not close it first.
  private static final JsonFactory JSON = JsonFactory.builder()
      .disable(StreamWriteFeature.AUTO_CLOSE_CONTENT)
      .build();

  /**
   * What a line says of one response, revisit or resource record, as its headers say it.
   *
   * @param url the {@code WARC-Target-URI}
   * @param date the {@code WARC-Date}
   * @param revisit whether the record is a revisit, whose mime is {@code warc/revisit}
   * @param contentType the HTTP {@code Content-Type} field's value as a reader parses it (of the
   *     record itself for a non-HTTP record), parameters and all
   * @param status the HTTP status, when the record holds an HTTP response head
   * @param payloadDigest the {@code WARC-Payload-Digest}, label and all
   */
  record Fields(String url, Instant date, boolean revisit, Optional<String> contentType, Optional<Integer> status,
      Optional<String> payloadDigest) {}

  private CdxjLines() {}

  /**
   * The line up to where the record lies: key, timestamp and the JSON object's first fields, the
   * object left open for {@link #line}.
   *
   * @throws RuntimeException if the URL has no SURT form (jwarc cannot parse it): the record has no line
   */
  static String start(Fields fields) {
    StringWriter line = new StringWriter(256);
    line.append(urlKey(fields.url())).append(' ').append(TIMESTAMP.format(fields.date())).append(' ');
    try (JsonGenerator json = JSON.createGenerator(line)) {
      json.writeStartObject();
      json.writeStringField("url", fields.url());
      Optional<String> mime = mime(fields);
      if (mime.isPresent()) json.writeStringField("mime", mime.get());
      if (fields.status().isPresent()) json.writeStringField("status", fields.status().get().toString());
      if (fields.payloadDigest().isPresent()) json.writeStringField("digest", withoutLabel(fields.payloadDigest().get()));
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return line.toString();
  }

  /**
   * The whole line: {@code start} followed by the record's place in its file.
   *
   * @param fileField {@link #fileField} of the file's name
   */
  static String line(String start, RecordSpan span, String fileField) {
    return start + ",\"length\":\"" + span.length() + "\",\"offset\":\"" + span.offset() + "\"" + fileField;
  }

  /** The end of every line of the file {@code filename}: its field, and the end of the object. */
  static String fileField(String filename) {
    StringWriter out = new StringWriter(filename.length() + 16);
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeString(filename);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ",\"filename\":" + out + "}";
  }

  /** The URL's SURT, with the characters that would break a CDXJ line escaped. */
  static String urlKey(String url) {
    return URIs.toNormalizedSurt(url).replace(" ", "%20").replace("\n", "%0A").replace("\r", "%0D");
  }

  private static Optional<String> mime(Fields fields) {
    if (fields.revisit()) return Optional.of("warc/revisit");
    return fields.contentType().map(t -> t.split(";", 2)[0].trim()).filter(t -> !t.isEmpty());
  }

  private static String withoutLabel(String digest) {
    int colon = digest.indexOf(':');
    return colon < 0 ? digest : digest.substring(colon + 1);
  }
}
