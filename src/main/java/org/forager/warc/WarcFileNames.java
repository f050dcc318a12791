package org.forager.warc;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/**
 * Names WARC files {@code forager-TIMESTAMP-SERIAL-TOKEN.warc.gz} (or {@code .warc.zst}, after the
 * records' compression): TIMESTAMP is the file's creation
 * time in UTC ({@code yyyyMMddHHmmssSSS}), SERIAL counts this recorder's files from {@code 00000},
 * TOKEN is random per recorder so processes sharing a directory never pick the same name. Names are
 * never built from URL text. Not thread-safe: {@link WarcRecorder} serializes access.
 */
final class WarcFileNames {

  static final String PREFIX = "forager-";

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS").withZone(ZoneOffset.UTC);

  private final String suffix;
  private final String token;
  private int serial;

  /** @param suffix the file name's end, e.g. {@code .warc.gz} */
  WarcFileNames(String suffix) {
    this.suffix = suffix;
    byte[] random = new byte[4];
    new SecureRandom().nextBytes(random);
    this.token = HexFormat.of().formatHex(random);
  }

  String next(Instant now) {
    return PREFIX + TIMESTAMP.format(now) + "-" + String.format("%05d", serial++) + "-" + token + suffix;
  }
}
