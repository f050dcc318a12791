package org.forager.sitemap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** sitemaps.org's W3C Datetime forms, and the range a server-supplied lastmod is believed in. */
class LastmodTest {

  private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

  private static Optional<Instant> parse(String text) {
    return Lastmod.parse(text, NOW);
  }

  @Test
  void readsEveryW3cDatetimeForm() {
    assertEquals(Optional.of(Instant.parse("2005-01-01T00:00:00Z")), parse("2005"));
    assertEquals(Optional.of(Instant.parse("2005-03-01T00:00:00Z")), parse("2005-03"));
    assertEquals(Optional.of(Instant.parse("2005-03-07T00:00:00Z")), parse(" 2005-03-07\n"));
    assertEquals(Optional.of(Instant.parse("2005-03-07T17:30:00Z")), parse("2005-03-07T18:30+01:00"));
    assertEquals(Optional.of(Instant.parse("2004-12-23T18:00:15Z")), parse("2004-12-23T18:00:15+00:00"));
    assertEquals(Optional.of(Instant.parse("2004-12-23T23:00:15.5Z")), parse("2004-12-23T18:00:15.5-05:00"));
    assertEquals(Optional.of(Instant.parse("2004-12-23T18:00:15Z")), parse("2004-12-23t18:00:15z"));
    assertEquals(Optional.of(Instant.parse("2004-12-23T18:00:15Z")), parse("2004-12-23T18:00:15"), "no zone: UTC");
  }

  @Test
  void aYear99999Or1970OrAnyDateOutOfRangeIsDroppedNotThrown() {
    for (String text : new String[] {"99999-12-31", "99999-12-31T00:00:00+00:00", "+99999-12-31T00:00:00Z",
        "+999999999-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z", "2999-01-01", "2026-11-26", "1970-01-01",
        "1970-01-01T00:00:00Z", "0000-01-01", "-5000-01-01", "1990-12-31T23:59:59Z", "99999", "2005-13-01",
        "2005-02-30", "2005-01-01T25:00:00Z", "2005-01-01T00:00:00+25:00", "yesterday", "", "2".repeat(100)}) {
      assertEquals(Optional.empty(), parse(text), text);
    }
  }

  @Test
  void aLastmodUpToADayAheadIsBelievedFurtherIsNot() {
    assertEquals(Optional.of(NOW.plusSeconds(86_400)), parse("2026-11-25T12:00:00Z"));
    assertEquals(Optional.empty(), parse("2026-11-25T12:00:01Z"));
    assertEquals(Optional.of(Instant.parse("1991-01-01T00:00:00Z")), parse("1991-01-01"));
  }
}
