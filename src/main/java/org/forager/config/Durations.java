package org.forager.config;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as the configuration writes them: a non-negative number, decimals allowed, and a unit,
 * {@code ms s m h d w} ({@code 500ms}, {@code 1.5s}, {@code 30m}, {@code 7d}, {@code 2w}); a day is 24
 * hours and a week 7 days. A zero needs no unit ({@code 0}). Spaces around the text and between number
 * and unit are allowed; units are lower case ({@code M} could be minutes or months). Fractions finer
 * than a nanosecond are dropped. Stateless and thread-safe.
 */
public final class Durations {

  private static final String UNITS = "ms, s, m, h, d or w";
  private static final Pattern FORM = Pattern.compile("(-?)(\\d+(?:\\.\\d+)?)\\s*(\\p{Alpha}*)");
  private static final Map<String, Long> NANOS_PER_UNIT = Map.of(
      "ms", 1_000_000L,
      "s", 1_000_000_000L,
      "m", 60_000_000_000L,
      "h", 3_600_000_000_000L,
      "d", 86_400_000_000_000L,
      "w", 604_800_000_000_000L);
  /** Largest unit first, for {@link #format}. */
  private static final List<String> FORMAT_UNITS = List.of("w", "d", "h", "m", "s", "ms");

  private Durations() {}

  /**
   * The duration {@code text} stands for.
   *
   * @throws IllegalArgumentException when it is not a number and a known unit, is negative, or is longer
   *     than {@code Long.MAX_VALUE} nanoseconds (about 292 years); the message quotes the text and says
   *     what is wrong in one line
   */
  public static Duration parse(String text) {
    Matcher m = FORM.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          ConfigException.quote(text) + " is not a duration (use a number and " + UNITS + ")");
    }
    if (!m.group(1).isEmpty()) {
      throw new IllegalArgumentException(ConfigException.quote(text) + " is negative; a duration must be ≥ 0");
    }
    BigDecimal number = new BigDecimal(m.group(2));
    String unit = m.group(3);
    if (unit.isEmpty()) {
      if (number.signum() == 0) return Duration.ZERO;
      throw new IllegalArgumentException(ConfigException.quote(text) + " has no unit (use " + UNITS + ")");
    }
    Long nanosPerUnit = NANOS_PER_UNIT.get(unit);
    if (nanosPerUnit == null) {
      throw new IllegalArgumentException(ConfigException.quote(text) + " has an unknown unit "
          + ConfigException.quote(unit) + " (use " + UNITS + ")");
    }
    BigInteger nanos = number.multiply(BigDecimal.valueOf(nanosPerUnit)).setScale(0, RoundingMode.DOWN)
        .toBigIntegerExact();
    // Past Long.MAX_VALUE nanoseconds Duration.toNanos() throws; no crawl setting needs that long.
    if (nanos.bitLength() >= Long.SIZE) {
      throw new IllegalArgumentException(ConfigException.quote(text) + " is too long (at most about 292 years)");
    }
    return Duration.ofNanos(nanos.longValueExact());
  }

  /**
   * The shortest text {@link #parse} reads back as {@code duration}: the largest unit that divides it
   * ({@code 2h}, {@code 90s}, {@code 1500ms}), seconds with decimals below a millisecond, {@code 0} for
   * zero.
   *
   * @throws IllegalArgumentException when the duration is negative
   */
  public static String format(Duration duration) {
    if (duration.isNegative()) throw new IllegalArgumentException("negative duration: " + duration);
    if (duration.isZero()) return "0";
    BigInteger nanos = BigInteger.valueOf(duration.getSeconds()).multiply(BigInteger.valueOf(1_000_000_000L))
        .add(BigInteger.valueOf(duration.getNano()));
    for (String unit : FORMAT_UNITS) {
      BigInteger[] quotientAndRemainder = nanos.divideAndRemainder(BigInteger.valueOf(NANOS_PER_UNIT.get(unit)));
      if (quotientAndRemainder[1].signum() == 0) return quotientAndRemainder[0] + unit;
    }
    return new BigDecimal(nanos).movePointLeft(9).stripTrailingZeros().toPlainString() + "s";
  }
}
