package org.forager.store;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.forager.url.Origin;

/**
 * The byte layout of the store's keys. RocksDB orders keys as unsigned bytes, so every numeric
 * field is fixed-width big-endian, and a 0x00 byte ends a variable-length string that is followed
 * by more fields (normalized URLs and origins never contain NUL). Stateless.
 *
 * <ul>
 *   <li>URL table: {@code url}
 *   <li>due index: {@code origin 0x00 due(8) depth(2) url}, {@code due} {@code 0xFFFF - priority}
 *       for a never-crawled URL (its quantized priority, {@link Ranking#quantize}: highest first),
 *       otherwise the due time's epoch millis with the sign bit flipped (so that negative times
 *       still sort before positive ones), at least {@link #FIRST_RECRAWL_FIELD}: every never-crawled
 *       URL sorts before every crawled one, and a store written before priorities (due 0 for every
 *       new URL) reads as priority 1.
 *   <li>history: {@code url 0x00 seconds(8, sign flipped) nanos(4) sequence(4)}, every crawl of the URL
 *       but its last (the record's own, {@link #FORMAT_VERSION})
 *   <li>meta table: {@code 'S' origin} (scope: a seed's origin), {@code 'D' origin} (scope: an
 *       origin taken on while crawling, never also under 'S'), {@code 'O' origin} (origin state),
 *       {@code 'M' name}
 *       (the store's own values: URL count, format), {@code 'C' name} (crawl settings,
 *       {@link CrawlStore#setting}), {@code 'W' field(8) origin} (the agenda, {@link
 *       CrawlStore#agenda}: {@link #NEW_WORK_FIELD} for an origin with never-crawled URLs, else a
 *       due field as the due index's), {@code 'w' origin} (the field of the origin's timed agenda
 *       entry, so that {@link CrawlStore#settle} can replace it), {@code 'B' host} (an operator's
 *       block, {@link CrawlStore#blocks}), {@code 'U' origin} (how many URLs the store holds of the
 *       origin, 8 bytes: {@link OriginUrlCounts})
 * </ul>
 */
final class Keys {

  /** The smallest due field of a crawled URL; never-crawled URLs' fields are below it. */
  static final long FIRST_RECRAWL_FIELD = 0x10000L;
  static final int MAX_DEPTH = 0xFFFF;
  static final byte[] URL_COUNT = meta('M', "url-count");
  static final byte[] FORMAT = meta('M', "format");
  /**
   * Present once every origin's {@code 'U'} count was counted from its URLs (a store written before the
   * counts is counted at its first opening for writes); no format change, so an older Forager still
   * opens the store (the URLs it adds are not counted: a count only ever short).
   */
  static final byte[] ORIGIN_URLS_COUNTED = meta('M', "origin-url-counts");
  /**
   * The store's format: 3 since the history family keeps a URL's crawls before its last, the last
   * being its record's (2 had the last in both, and reads the same; older Forager versions refuse 3, whose
   * histories they would read without the last crawl); 2 since the agenda (1 had none).
   */
  static final int FORMAT_VERSION = 3;
  /** The first format with the agenda. */
  static final int AGENDA_FORMAT = 2;
  /** The agenda field of an origin with never-crawled URLs: before every due time's. */
  static final long NEW_WORK_FIELD = 0L;

  private Keys() {}

  static byte[] url(String url) {
    return url.getBytes(StandardCharsets.UTF_8);
  }

  static String url(byte[] key) {
    return new String(key, StandardCharsets.UTF_8);
  }

  /** The due field of a URL crawled before and due again at {@code at}. */
  static long dueField(Instant at) {
    long field = saturatedMillis(at) ^ Long.MIN_VALUE;
    // Fields compare unsigned; only times some 292 million years ago fall below the floor.
    return Long.compareUnsigned(field, FIRST_RECRAWL_FIELD) < 0 ? FIRST_RECRAWL_FIELD : field;
  }

  /** The time a due field of a crawled URL (or an agenda field) stands for; {@code NEW_WORK} below them. */
  static Instant fieldTime(long field) {
    if (Long.compareUnsigned(field, FIRST_RECRAWL_FIELD) < 0) return AgendaEntry.NEW_WORK;
    return Instant.ofEpochMilli(field ^ Long.MIN_VALUE);
  }

  /** The due field of a never-crawled URL of quantized priority {@code priority}. */
  static long newField(int priority) {
    return 0xFFFFL - priority;
  }

  static byte[] due(String origin, long dueField, int depth, String url) {
    return due(origin, dueField, depth, utf8(url));
  }

  /** The due key, given the URL already encoded (its URL-table key). */
  static byte[] due(String origin, long dueField, int depth, byte[] urlBytes) {
    byte[] originBytes = origin.getBytes(StandardCharsets.UTF_8);
    return new ByteWriter(originBytes.length + urlBytes.length + 11)
        .writeBytes(originBytes)
        .writeByte(0)
        .writeLongBigEndian(dueField)
        .writeShortBigEndian(depth)
        .writeBytes(urlBytes)
        .toByteArray();
  }

  /** The due key of a URL as its record has it. */
  static byte[] due(String origin, UrlRecord url) {
    long field = url.fetchCount() == 0 ? newField(Ranking.quantize(url.priority())) : dueField(url.nextFetchAt());
    return due(origin, field, url.depth(), url.url());
  }

  /** The agenda entry of {@code origin} at {@code field}. */
  static byte[] agenda(long field, String origin) {
    byte[] originBytes = utf8(origin);
    return new ByteWriter(originBytes.length + 9).writeByte('W').writeLongBigEndian(field)
        .writeBytes(originBytes).toByteArray();
  }

  /** The agenda key of an entry. */
  static byte[] agenda(AgendaEntry entry) {
    long field = entry.at().equals(AgendaEntry.NEW_WORK) ? NEW_WORK_FIELD : dueField(entry.at());
    return agenda(field, entry.origin().toString());
  }

  /** The first agenda key after every entry at or before {@code cutoff}. */
  static byte[] agendaUpperBound(Instant cutoff) {
    long field = dueField(cutoff);
    if (field == -1L) return new byte[] {'W' + 1};
    return new ByteWriter(9).writeByte('W').writeLongBigEndian(field + 1).toByteArray();
  }

  /** The field of an agenda key. */
  static long agendaField(byte[] key) {
    return new ByteReader(key, 1).readLongBigEndian();
  }

  /** The origin of an agenda key. */
  static String agendaOrigin(byte[] key) {
    return new String(key, 9, key.length - 9, StandardCharsets.UTF_8);
  }

  /** The key holding the field of {@code origin}'s timed agenda entry. */
  static byte[] agendaOf(String origin) {
    return meta('w', origin);
  }

  /** Key of the exact-duplicate index: {@code origin 0x00 digest}. */
  static byte[] digest(String origin, String digest) {
    return new ByteWriter(96).writeBytes(utf8(origin)).writeByte(0).writeBytes(utf8(digest)).toByteArray();
  }

  static byte[] duePrefix(Origin origin) {
    return duePrefix(origin.toString());
  }

  static byte[] duePrefix(String origin) {
    return new ByteWriter(64).writeBytes(utf8(origin)).writeByte(0).toByteArray();
  }

  /** The first due key of {@code origin}'s crawled URLs: the end of its never-crawled ones. */
  static byte[] firstRecrawl(Origin origin) {
    return firstRecrawl(origin.toString());
  }

  static byte[] firstRecrawl(String origin) {
    return new ByteWriter(64).writeBytes(utf8(origin)).writeByte(0)
        .writeLongBigEndian(FIRST_RECRAWL_FIELD).toByteArray();
  }

  /** The first key after every due key of {@code origin} due at or before {@code cutoff}. */
  static byte[] dueUpperBound(Origin origin, Instant cutoff) {
    long field = dueField(cutoff);
    ByteWriter key = new ByteWriter(64).writeBytes(utf8(origin.toString()));
    if (field == -1L) return key.writeByte(1).toByteArray(); // the largest field: the origin's end
    return key.writeByte(0).writeLongBigEndian(field + 1).toByteArray();
  }

  /** Depth and URL of a due key, given the length of its prefix. */
  static ByteReader dueSuffix(byte[] key, int prefixLength) {
    return new ByteReader(key, prefixLength + 8);
  }

  static byte[] history(String url, Instant fetchedAt, int sequence) {
    byte[] urlBytes = utf8(url);
    return new ByteWriter(urlBytes.length + 17)
        .writeBytes(urlBytes)
        .writeByte(0)
        .writeLongBigEndian(fetchedAt.getEpochSecond() ^ Long.MIN_VALUE)
        .writeShortBigEndian(fetchedAt.getNano() >>> 16)
        .writeShortBigEndian(fetchedAt.getNano() & 0xFFFF)
        .writeShortBigEndian(sequence >>> 16)
        .writeShortBigEndian(sequence & 0xFFFF)
        .toByteArray();
  }

  static byte[] historyPrefix(String url) {
    return new ByteWriter(url.length() + 1).writeBytes(utf8(url)).writeByte(0).toByteArray();
  }

  static byte[] scope(Origin origin) {
    return meta('S', origin.toString());
  }

  static byte[] discovered(Origin origin) {
    return meta('D', origin.toString());
  }

  static byte[] originState(Origin origin) {
    return meta('O', origin.toString());
  }

  static byte[] setting(String name) {
    return meta('C', name);
  }

  /** How many URLs the store holds of {@code origin} ({@link OriginUrlCounts}). */
  static byte[] originUrls(String origin) {
    return meta('U', origin);
  }

  /** An operator's block of a host ({@link CrawlStore#blocks}). */
  static byte[] block(String host) {
    return meta('B', host);
  }

  static byte[] meta(char table, String name) {
    return new ByteWriter(name.length() + 1).writeByte(table).writeBytes(utf8(name)).toByteArray();
  }

  /** The first key that does not start with {@code prefix} (prefix must not end in 0xFF). */
  static byte[] prefixEnd(byte[] prefix) {
    byte[] end = prefix.clone();
    end[end.length - 1]++;
    return end;
  }


  private static long saturatedMillis(Instant at) {
    try {
      return at.toEpochMilli();
    } catch (ArithmeticException e) {
      return at.isBefore(Instant.EPOCH) ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
