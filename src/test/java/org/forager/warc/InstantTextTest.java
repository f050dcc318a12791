package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link InstantText} against {@link Instant#toString()}, which it replaces. */
class InstantTextTest {

  @Test
  void writesWhatInstantToStringWrites() {
    for (String text : new String[] {"1970-01-01T00:00:00Z", "2026-12-03T21:38:54.025Z",
        "2026-12-03T21:38:54.025054Z", "2026-12-03T21:38:54.025054614Z", "2000-02-29T23:59:59.999999999Z",
        "1969-12-31T23:59:59.000000001Z", "1900-03-01T00:00:00Z", "0000-01-01T00:00:00Z",
        "9999-12-31T23:59:59.100Z", "2024-02-29T12:00:00Z", "2100-02-28T00:00:00Z"}) {
      Instant instant = Instant.parse(text);
      assertEquals(instant.toString(), InstantText.of(instant), text);
    }
  }

  @Test
  void leavesYearsOutsideFourDigitsToTheFormatter() {
    for (Instant instant : new Instant[] {Instant.parse("-0001-12-31T23:59:59Z"),
        Instant.parse("+10000-01-01T00:00:00Z"), Instant.MIN, Instant.MAX}) {
      assertEquals(instant.toString(), InstantText.of(instant));
    }
  }

  @Test
  void agreesOnRandomInstantsOfEveryPrecision() {
    SplittableRandom random = new SplittableRandom(15);
    long first = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
    long last = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
    for (int i = 0; i < 300_000; i++) {
      long seconds = i % 2 == 0 ? random.nextLong(first, last + 1) : random.nextLong(0, 4_102_444_800L);
      int nanos = switch (i % 4) {
        case 0 -> 0;
        case 1 -> random.nextInt(1000) * 1_000_000;
        case 2 -> random.nextInt(1_000_000) * 1000;
        default -> random.nextInt(1_000_000_000);
      };
      Instant instant = Instant.ofEpochSecond(seconds, nanos);
      assertEquals(instant.toString(), InstantText.of(instant));
    }
  }
}
