package org.forager.config;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes as the configuration writes them: a non-negative number and a binary unit, {@code B KiB MiB
 * GiB} ({@code 100B}, {@code 512KiB}, {@code 1.5MiB}, {@code 2GiB}); 1 KiB is 1024 bytes. A bare whole
 * number is a number of bytes ({@code 1048576}). Decimal units ({@code KB}, {@code MB}) are refused
 * rather than guessed. A fraction of a byte is dropped ({@code 1.1KiB} is 1126 bytes), but a number of
 * bytes ({@code B} or no unit) must be whole. Stateless and thread-safe.
 */
public final class Sizes {

  private static final String UNITS = "B, KiB, MiB or GiB";
  private static final Pattern FORM = Pattern.compile("(-?)(\\d+(?:\\.\\d+)?)\\s*(\\p{Alpha}*)");
  private static final Map<String, Long> BYTES_PER_UNIT = Map.of(
      "B", 1L,
      "KiB", 1L << 10,
      "MiB", 1L << 20,
      "GiB", 1L << 30);

  private Sizes() {}

  /**
   * The number of bytes {@code text} stands for.
   *
   * @throws IllegalArgumentException when it is not a number and a known unit, is negative, is a
   *     fractional number of bytes, or exceeds {@code Long.MAX_VALUE}; the message quotes the text and
   *     says what is wrong in one line
   */
  public static long parse(String text) {
    Matcher m = FORM.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          ConfigException.quote(text) + " is not a size (use a number and " + UNITS + ")");
    }
    if (!m.group(1).isEmpty()) {
      throw new IllegalArgumentException(ConfigException.quote(text) + " is negative; a size must be ≥ 0");
    }
    BigDecimal number = new BigDecimal(m.group(2));
    String unit = m.group(3).isEmpty() ? "B" : m.group(3);
    Long bytesPerUnit = BYTES_PER_UNIT.get(unit);
    if (bytesPerUnit == null) {
      throw new IllegalArgumentException(ConfigException.quote(text) + " has an unknown unit "
          + ConfigException.quote(unit) + " (use " + UNITS + "; 1 KiB = 1024 B)");
    }
    if (bytesPerUnit == 1 && number.stripTrailingZeros().scale() > 0) {
      throw new IllegalArgumentException(ConfigException.quote(text) + " is not a whole number of bytes");
    }
    BigInteger bytes = number.multiply(BigDecimal.valueOf(bytesPerUnit)).setScale(0, RoundingMode.DOWN)
        .toBigIntegerExact();
    if (bytes.bitLength() >= Long.SIZE) {
      throw new IllegalArgumentException(ConfigException.quote(text) + " is too large");
    }
    return bytes.longValueExact();
  }
}
