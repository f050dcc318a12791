package org.forager.extract;

import static org.forager.extract.RobotsDirectives.NOFOLLOW;
import static org.forager.extract.RobotsDirectives.NOINDEX;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RobotsDirectivesTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "noindex | 1",
    "NOFOLLOW | 2",
    "none | 3",
    "noindex,nofollow | 3",
    "noindex nofollow | 3",
    "'  noindex ,\tnofollow  ' | 3",
    "index, follow | 0",
    "all | 0",
    "noindexx, nofollowing, nones | 0",
    "max-snippet:-1, noindex | 1",
    "'' | 0",
  })
  void meta(String content, int bits) {
    assertEquals(bits, RobotsDirectives.ofMeta(content));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "noindex, nofollow | 3",
    "ForagerBot: noindex | 1",
    "foragerbot:nofollow | 2",
    "ForagerBot : none | 3",
    "ForagerBot: noindex, nofollow | 3",
    "otherbot: noindex | 0",
    "otherbot: noindex, nofollow | 0",
    "Forager: noindex | 0",
    "ForagerBotX: noindex | 0",
    "googlebot: noindex, ForagerBot: nofollow | 2",
    "ForagerBot: nofollow, googlebot: noindex | 2",
    "noindex, otherbot: nofollow | 1",
    "unavailable_after: 25 Jun 2010 15:00:00 PST | 0",
    "'unavailable_after: Friday, 25-Jun-2010 15:00:00 GMT, noindex' | 1",
    "max-snippet: 20, nofollow | 2",
    "': noindex' | 1",
    "':::,,,' | 0",
    "'' | 0",
  })
  void header(String value, int bits) {
    assertEquals(bits, RobotsDirectives.ofHeader(value, "ForagerBot"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {"noindex | 1", "nofollow | 2"})
  void bitsAreTheDocumentedOnes(String content, int bits) {
    assertEquals(content.equals("noindex") ? NOINDEX : NOFOLLOW, bits);
    assertEquals(bits, RobotsDirectives.ofMeta(content));
  }
}
