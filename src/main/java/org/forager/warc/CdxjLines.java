package org.forager.warc;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import org.netpreserve.jwarc.URIs;

/**
 * Formats the CDXJ line of one record, as pywb and warcio write them: {@code SURT TIMESTAMP {json}},
 * where SURT is the URL's canonical SURT form (jwarc's, pywb's canonicalization: host reversed,
 * {@code www.} and default ports dropped, query arguments sorted, lower case), TIMESTAMP the
 * {@code WARC-Date} as {@code yyyyMMddHHmmss} in UTC, and the JSON object has {@code url},
 * {@code mime} (the HTTP Content-Type without parameters; {@code warc/revisit} for a revisit, the
 * record's Content-Type for a resource),
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
  /** The kinds of record an index lists, each with its own rule for {@code mime}. */
  enum Kind {
    /** {@code mime} is the HTTP Content-Type without parameters. */
    RESPONSE,
    /** {@code mime} is {@code warc/revisit}. */
    REVISIT,
    /** {@code mime} is the record's own Content-Type, parameters and all (warcio's choice). */
    RESOURCE
  }

  /**
   * What a line says of one response, revisit or resource record, as its headers say it.
   *
   * @param url the {@code WARC-Target-URI}
   * @param date the {@code WARC-Date}
   * @param contentType the {@code Content-Type} field's value as a reader parses it (the HTTP one of a
   *     response, the record's own of a resource), parameters and all; the values of several such
   *     fields joined with {@code ", "}, as warcio (a fetch API {@code Headers}) reads them
   * @param status the HTTP status, when the record holds an HTTP response head
   * @param payloadDigest the {@code WARC-Payload-Digest}, label and all
   */
  record Fields(String url, Instant date, Kind kind, Optional<String> contentType, Optional<Integer> status,
      Optional<String> payloadDigest) {}

  private CdxjLines() {}

  /**
   * The line up to where the record lies: key, timestamp and the JSON object's first fields, the
   * object left open for {@link #line}.
   *
   * @throws RuntimeException if the URL has no SURT form (jwarc cannot parse it): the record has no line
   */
  static String start(Fields fields) {
    // Written directly, not through Jackson's generator and a date formatter: a line a page record
    // (issue 15: about half a per cent of a crawl's CPU); CdxjLinesTest compares with both.
    StringBuilder line = new StringBuilder(256);
    line.append(urlKey(fields.url())).append(' ');
    timestamp(line, fields.date());
    line.append(" {");
    field(line, "url", fields.url());
    Optional<String> mime = mime(fields);
    if (mime.isPresent()) field(line.append(','), "mime", mime.get());
    if (fields.status().isPresent()) field(line.append(','), "status", fields.status().get().toString());
    Optional<String> digest = fields.payloadDigest().flatMap(CdxjLines::withoutLabel);
    if (digest.isPresent()) field(line.append(','), "digest", digest.get());
    return line.toString();
  }

  /** {@code "name":"value"}, the value escaped as Jackson escapes it by default. */
  private static void field(StringBuilder line, String name, String value) {
    line.append('"').append(name).append("\":");
    quoted(line, value);
  }

  /**
   * A JSON string as Jackson's default generator writes it: quote, backslash and the C0 controls
   * escaped (backspace, tab, newline, form feed and carriage return by their letter, the others as a
   * backslash, {@code u00} and two upper-case hex digits), every other char as it is.
   */
  static void quoted(StringBuilder out, String value) {
    out.append('"');
    int from = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      out.append(value, from, i);
      from = i + 1;
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        case '\f' -> out.append("\\f");
        case '\r' -> out.append("\\r");
        default -> out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
      }
    }
    out.append(value, from, value.length()).append('"');
  }

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  /** {@code yyyyMMddHHmmss} in UTC, as {@link #TIMESTAMP} formats it. */
  static void timestamp(StringBuilder out, Instant date) {
    LocalDateTime t = LocalDateTime.ofEpochSecond(date.getEpochSecond(), 0, ZoneOffset.UTC);
    if (t.getYear() < 1000 || t.getYear() > 9999) { // four digits or the formatter's rules (a sign, an era)
      out.append(TIMESTAMP.format(date));
      return;
    }
    out.append(t.getYear());
    twoDigits(out, t.getMonthValue());
    twoDigits(out, t.getDayOfMonth());
    twoDigits(out, t.getHour());
    twoDigits(out, t.getMinute());
    twoDigits(out, t.getSecond());
  }

  private static void twoDigits(StringBuilder out, int value) {
    out.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
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
    StringBuilder field = new StringBuilder(filename.length() + 16).append(",\"filename\":");
    quoted(field, filename);
    return field.append('}').toString();
  }

  /** The URL's SURT, with the characters that would break a CDXJ line escaped. */
  static String urlKey(String url) {
    String plain = PlainSurt.of(url);
    if (plain != null) return plain;
    return URIs.toNormalizedSurt(url).replace(" ", "%20").replace("\n", "%0A").replace("\r", "%0D");
  }

  /**
   * The {@code mime} field as warcio writes it: none for a missing or empty Content-Type, but an
   * empty one for a Content-Type of parameters only ({@code ;charset=utf-8}).
   */
  private static Optional<String> mime(Fields fields) {
    Optional<String> type = fields.contentType().filter(t -> !t.isEmpty());
    return switch (fields.kind()) {
      case REVISIT -> Optional.of("warc/revisit");
      case RESPONSE -> type.map(CdxjLines::withoutParameters);
      case RESOURCE -> type;
    };
  }

  /** A Content-Type up to its first {@code ;}, trimmed: {@code text/html} of {@code text/html; charset=utf-8}. */
  private static String withoutParameters(String type) {
    int semicolon = type.indexOf(';');
    return (semicolon < 0 ? type : type.substring(0, semicolon)).trim();
  }

  /** The digest without its label: {@code sha1:ABC} gives {@code ABC}; one without a label has none (as in warcio). */
  private static Optional<String> withoutLabel(String digest) {
    int colon = digest.indexOf(':');
    if (colon < 0) return Optional.empty();
    int next = digest.indexOf(':', colon + 1);
    return Optional.of(digest.substring(colon + 1, next < 0 ? digest.length() : next));
  }
}
