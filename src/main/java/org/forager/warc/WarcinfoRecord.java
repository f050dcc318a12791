package org.forager.warc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.Warcinfo;

/**
 * The {@code warcinfo} record that starts every file (WARC 1.1 section 6.2), its block in
 * {@code application/warc-fields} form with the fields the specification's annex suggests.
 */
final class WarcinfoRecord {

  static final String FORMAT = "WARC File Format 1.1";
  static final String CONFORMS_TO =
      "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/";

  private WarcinfoRecord() {}

  static RecordToWrite of(String filename, String software, Optional<String> hostname, Instant created) {
    byte[] block = block(software, hostname);
    return RecordToWrite.of(record(filename, block, created), List.of(block));
  }

  /** The record as jwarc builds it, its body {@link #block}. */
  static Warcinfo record(String filename, byte[] block, Instant created) {
    return new Warcinfo.Builder()
        .version(MessageVersion.WARC_1_1)
        .date(created.truncatedTo(ChronoUnit.MILLIS))
        .filename(filename)
        .blockDigest(Digests.sha1(block))
        .body(MediaType.WARC_FIELDS, block)
        .build();
  }

  /** The record's block: its fields in the {@code application/warc-fields} form. */
  static byte[] block(String software, Optional<String> hostname) {
    ByteArrayOutputStream fields = new ByteArrayOutputStream();
    field(fields, "software", software);
    field(fields, "format", FORMAT);
    field(fields, "conformsTo", CONFORMS_TO);
    hostname.ifPresent(h -> field(fields, "hostname", h));
    return fields.toByteArray();
  }

  private static void field(ByteArrayOutputStream out, String name, String value) {
    String clean = value.replace('\r', ' ').replace('\n', ' ');
    out.writeBytes((name + ": " + clean + "\r\n").getBytes(StandardCharsets.UTF_8));
  }
}
