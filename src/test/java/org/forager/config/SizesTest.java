package org.forager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SizesTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(delimiter = '|', textBlock = """
      100B      | 100
      2MiB      | 2097152
      512KiB    | 524288
      1.5MiB    | 1572864
      1GiB      | 1073741824
      1048576   | 1048576
      0         | 0
      1.0B      | 1
      1.1KiB    | 1126
      ' 4 KiB ' | 4096
      """)
  void parses(String text, long bytes) {
    assertEquals(bytes, Sizes.parse(text));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
      big          | '"big" is not a size (use a number and B, KiB, MiB or GiB)'
      ''           | '"" is not a size (use a number and B, KiB, MiB or GiB)'
      -1KiB        | '"-1KiB" is negative; a size must be ≥ 0'
      2MB          | '"2MB" has an unknown unit "MB" (use B, KiB, MiB or GiB; 1 KiB = 1024 B)'
      2mib         | '"2mib" has an unknown unit "mib" (use B, KiB, MiB or GiB; 1 KiB = 1024 B)'
      1.5          | '"1.5" is not a whole number of bytes'
      1.5B         | '"1.5B" is not a whole number of bytes'
      9000000000GiB| '"9000000000GiB" is too large'
      """)
  void refuses(String text, String message) {
    var e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse(text));
    assertEquals(message, e.getMessage());
  }
}
