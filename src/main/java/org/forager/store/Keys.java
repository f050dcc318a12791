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
 *   <li>history: {@code url 0x00 seconds(8, sign flipped) nanos(4) sequence(4)}
 *   <li>meta table: {@code 'S' origin} (scope: a seed's origin), {@code 'D' origin} (scope: an
 *       origin taken on while crawling, never also under 'S'), {@code 'O' origin} (origin state),
 *       {@code 'M' name}
 *       (the store's own values: URL count, format), {@code 'C' name} (crawl settings,
 *       {@link CrawlStore#setting})
 * </ul>
 */
final class Keys {

  /** The smallest due field of a crawled URL; never-crawled URLs' fields are below it. */
  static final long FIRST_RECRAWL_FIELD = 0x10000L;
  static final int MAX_DEPTH = 0xFFFF;
  static final byte[] URL_COUNT = meta('M', "url-count");
  static final byte[] FORMAT = meta('M', "format");

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

  /** Key of the exact-duplicate index: {@code origin 0x00 digest}. */
  static byte[] digest(String origin, String digest) {
    return new ByteWriter(96).writeBytes(utf8(origin)).writeByte(0).writeBytes(utf8(digest)).toByteArray();
  }

  static byte[] duePrefix(Origin origin) {
    return new ByteWriter(64).writeBytes(utf8(origin.toString())).writeByte(0).toByteArray();
  }

  /** The first due key of {@code origin}'s crawled URLs: the end of its never-crawled ones. */
  static byte[] firstRecrawl(Origin origin) {
    return new ByteWriter(64).writeBytes(utf8(origin.toString())).writeByte(0)
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
