package org.forager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DurationsTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(delimiter = '|', textBlock = """
      500ms    | PT0.5S
      1.5s     | PT1.5S
      30m      | PT30M
      7d       | PT168H
      2w       | PT336H
      1h       | PT1H
      0        | PT0S
      0.0      | PT0S
      0s       | PT0S
      '  10 s '| PT10S
      0.25ms   | PT0.00025S
      1.5h     | PT1H30M
      120s     | PT2M
      """)
  void parses(String text, String iso) {
    assertEquals(Duration.parse(iso), Durations.parse(text));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
      fast    | '"fast" is not a duration (use a number and ms, s, m, h, d or w)'
      ''      | '"" is not a duration (use a number and ms, s, m, h, d or w)'
      1.s     | '"1.s" is not a duration (use a number and ms, s, m, h, d or w)'
      .5s     | '".5s" is not a duration (use a number and ms, s, m, h, d or w)'
      s       | '"s" is not a duration (use a number and ms, s, m, h, d or w)'
      1s 2ms  | '"1s 2ms" is not a duration (use a number and ms, s, m, h, d or w)'
      -1s     | '"-1s" is negative; a duration must be ≥ 0'
      5       | '"5" has no unit (use ms, s, m, h, d or w)'
      1.5     | '"1.5" has no unit (use ms, s, m, h, d or w)'
      5x      | '"5x" has an unknown unit "x" (use ms, s, m, h, d or w)'
      5S      | '"5S" has an unknown unit "S" (use ms, s, m, h, d or w)'
      3mo     | '"3mo" has an unknown unit "mo" (use ms, s, m, h, d or w)'
      1y      | '"1y" has an unknown unit "y" (use ms, s, m, h, d or w)'
      20000w  | '"20000w" is too long (at most about 292 years)'
      """)
  void refuses(String text, String message) {
    var e = assertThrows(IllegalArgumentException.class, () -> Durations.parse(text));
    assertEquals(message, e.getMessage());
  }

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource(delimiter = '|', textBlock = """
      PT0S         | 0
      PT0.5S       | 500ms
      PT1.5S       | 1500ms
      PT2M         | 2m
      PT90S        | 90s
      PT168H       | 1w
      PT48H        | 2d
      PT0.00025S   | 0.00025s
      """)
  void formatsTheShortestTextThatParsesBack(String iso, String text) {
    Duration duration = Duration.parse(iso);
    assertEquals(text, Durations.format(duration));
    assertEquals(duration, Durations.parse(text));
  }
}
