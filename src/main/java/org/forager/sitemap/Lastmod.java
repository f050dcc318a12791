package org.forager.sitemap;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * A sitemap {@code <lastmod>}: W3C Datetime (sitemaps.org, "XML tag definitions"), read leniently and
 * kept only within a sane range, since it is a time a server supplies (issue 19 item 5). Stateless.
 */
final class Lastmod {

  /** Longer text is no date of any W3C Datetime form; it is not parsed. */
  static final int MAX_LENGTH = 64;
  /** Nothing on the web was modified before its first page went up (1991). */
  static final Instant FLOOR = Instant.parse("1991-01-01T00:00:00Z");
  /**
   * How far ahead of the crawler's clock a lastmod is still believed (and then taken as now by the
   * recrawl policy): a local time labelled UTC is at most 14 hours early. Further ahead is a lie.
   */
  static final Duration SKEW = Duration.ofDays(1);

  private Lastmod() {}

  /**
   * The instant {@code text} names, when it is a W3C Datetime (date only, year-month, year, or date
   * and time with or without a zone; no zone is read as UTC) from {@link #FLOOR} to {@code now}
   * plus {@link #SKEW}; empty otherwise, never an exception (a year 99999 or 1970 is simply dropped).
   */
  static Optional<Instant> parse(CharSequence text, Instant now) {
    String s = text.toString().strip();
    if (s.isEmpty() || s.length() > MAX_LENGTH) return Optional.empty();
    try {
      Instant instant = instant(s);
      if (instant.isBefore(FLOOR) || instant.isAfter(now.plus(SKEW))) return Optional.empty();
      return Optional.of(instant);
    } catch (DateTimeException | ArithmeticException e) {
      return Optional.empty();
    }
  }

  private static Instant instant(String s) {
    if (s.length() > 10) { // a date and a time (ISO parsers ignore the case of T and Z)
      try {
        return OffsetDateTime.parse(s).toInstant();
      } catch (DateTimeParseException e) {
        return LocalDateTime.parse(s).toInstant(ZoneOffset.UTC);
      }
    }
    LocalDate day = switch (s.length()) {
      case 4 -> Year.parse(s).atDay(1);
      case 7 -> YearMonth.parse(s).atDay(1);
      default -> LocalDate.parse(s);
    };
    return day.atStartOfDay().toInstant(ZoneOffset.UTC);
  }
}
