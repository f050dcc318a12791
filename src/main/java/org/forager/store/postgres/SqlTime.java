package org.forager.store.postgres;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * Instants in and out of PostgreSQL. A {@code timestamptz} keeps microseconds; an instant the store
 * must give back exactly is a {@code timestamptz} column plus a {@code *_nanos} column with the
 * nanoseconds below the microsecond. Stateless.
 */
final class SqlTime {

  /** The range of {@code timestamptz}: 4713 BC to 294276 AD, kept well inside. */
  private static final Instant MIN = Instant.parse("-4712-01-01T00:00:00Z");
  private static final Instant MAX = Instant.parse("+294275-12-31T00:00:00Z");

  private SqlTime() {}

  /** The instant truncated to the microsecond, as PostgreSQL compares it. */
  static OffsetDateTime micros(Instant instant) {
    if (instant.isBefore(MIN) || instant.isAfter(MAX)) {
      throw new IllegalArgumentException("instant outside PostgreSQL's timestamptz range: " + instant);
    }
    return instant.truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC);
  }

  /** The nanoseconds of the instant below the microsecond, 0..999. */
  static short subMicroNanos(Instant instant) {
    return (short) (instant.getNano() % 1000);
  }

  /** A cutoff, saturated into the {@code timestamptz} range (a cutoff beyond it means "everything"). */
  static OffsetDateTime cutoff(Instant instant) {
    if (instant.isAfter(MAX)) instant = MAX;
    if (instant.isBefore(MIN)) instant = MIN;
    return micros(instant);
  }

  /** Binds an exact instant to parameters {@code index} (timestamptz) and {@code index + 1} (nanos). */
  static void setExact(PreparedStatement statement, int index, Instant instant) throws SQLException {
    statement.setObject(index, micros(instant));
    statement.setShort(index + 1, subMicroNanos(instant));
  }

  /** Reads an exact instant from columns {@code column} (timestamptz) and {@code column + "_nanos"}. */
  static Instant getExact(ResultSet row, String column) throws SQLException {
    OffsetDateTime micros = row.getObject(column, OffsetDateTime.class);
    return micros.toInstant().plusNanos(row.getShort(column + "_nanos"));
  }

  /** Reads a plain timestamptz column. */
  static Instant get(ResultSet row, String column) throws SQLException {
    return row.getObject(column, OffsetDateTime.class).toInstant();
  }
}
