package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A CDXJ line is written without Jackson's generator and a date formatter (issue 15): the same bytes
 * as they write, for every char a value may hold and any date.
 */
class CdxjLinesTest {

  private static final JsonFactory JACKSON = new JsonFactory();
  private static final DateTimeFormatter FORMATTER =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  @Test
  void aValueIsEscapedAsJacksonEscapesIt() throws IOException {
    List<String> values = new ArrayList<>(List.of("", "plain", "\"quoted\"", "back\\slash", "tab\there",
        "line\nbreak\r\n", "\b\f\u0000\u0001\u001f\u007f", "caf\u00e9 \u2028 \u2029 \ud83d\ude00", "lone \ud800 surrogate",
        "https://example.org/a?b=\"c\"&d=\\e#f"));
    for (char c = 0; c < 0x100; c++) values.add("x" + c + "y" + c);
    Random random = new Random(15);
    for (int i = 0; i < 2_000; i++) {
      StringBuilder s = new StringBuilder();
      for (int n = random.nextInt(40); n > 0; n--) {
        s.append(random.nextInt(4) == 0 ? (char) random.nextInt(0x40) : (char) random.nextInt(0x10000));
      }
      values.add(s.toString());
    }
    for (String value : values) {
      StringBuilder ours = new StringBuilder();
      CdxjLines.quoted(ours, value);
      assertEquals(jackson(value), ours.toString(), () -> "escaped differently: " + value.chars().boxed().toList());
    }
  }

  @Test
  void theTimestampIsTheFormattersForAnyDate() {
    List<Instant> dates = new ArrayList<>(List.of(Instant.EPOCH, Instant.parse("2026-11-30T01:02:03.999999999Z"),
        Instant.parse("0999-12-31T23:59:59Z"), Instant.parse("1000-01-01T00:00:00Z"), Instant.parse("9999-12-31T23:59:59Z"),
        Instant.parse("+10000-01-01T00:00:00Z"), Instant.parse("-0001-06-15T12:00:00Z"), Instant.parse("1969-12-31T23:59:59.5Z")));
    Random random = new Random(30);
    for (int i = 0; i < 5_000; i++) dates.add(Instant.ofEpochSecond(random.nextLong(-100_000_000_000L, 300_000_000_000L)));
    for (Instant date : dates) {
      StringBuilder ours = new StringBuilder();
      CdxjLines.timestamp(ours, date);
      assertEquals(FORMATTER.format(date), ours.toString(), date::toString);
    }
  }

  @Test
  void aLineHasItsFieldsInWarciosOrder() {
    String line = CdxjLines.start(new CdxjLines.Fields("http://example.org/a\"b", Instant.parse("2026-11-30T01:02:03Z"),
        CdxjLines.Kind.RESPONSE, Optional.of("text/html; charset=utf-8"), Optional.of(200), Optional.of("sha1:ABC")));
    assertEquals(CdxjLines.urlKey("http://example.org/a\"b") + " 20261130010203 {\"url\":\"http://example.org/a\\\"b\",\"mime\":\"text/html\","
        + "\"status\":\"200\",\"digest\":\"ABC\"", line);
    String revisit = CdxjLines.start(new CdxjLines.Fields("http://example.org/", Instant.parse("2026-11-30T01:02:03Z"),
        CdxjLines.Kind.REVISIT, Optional.empty(), Optional.empty(), Optional.empty()));
    assertEquals("org,example)/ 20261130010203 {\"url\":\"http://example.org/\",\"mime\":\"warc/revisit\"", revisit);
  }

  @Test
  void theFileFieldIsJacksonsStringOfTheName() throws IOException {
    for (String name : List.of("forager-20261130-00000.warc.gz", "odd \"name\"\\.warc.gz", "caf\u00e9\u0001.warc")) {
      assertEquals(",\"filename\":" + jackson(name) + "}", CdxjLines.fileField(name));
    }
  }

  private static String jackson(String value) throws IOException {
    StringWriter out = new StringWriter();
    try (JsonGenerator json = JACKSON.createGenerator(out)) {
      json.writeString(value);
    }
    return out.toString();
  }
}
