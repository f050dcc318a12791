package org.forager.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.forager.store.OriginState.RobotsTxt;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A Crawl-delay the parser cannot hold as an int once counted as no delay at all. */
class HugeCrawlDelaysTest {

  private static Optional<Duration> crawlDelay(String value) {
    byte[] body = ("User-agent: *\nCrawl-delay: " + value + "\nDisallow: /private\n").getBytes(StandardCharsets.UTF_8);
    Instant now = Instant.now();
    return RobotsRules.of(new RobotsTxt(200, body, now, now.plusSeconds(60)), "https://example.org/robots.txt",
        "ForagerBot").crawlDelay();
  }

  @ParameterizedTest
  @ValueSource(strings = {"99999999999999999999", "3000000000", "1e308", "1E5", "Infinity", "+99999999999"})
  void aHugeCrawlDelayIsReadAsSixtyEightYears(String value) {
    assertEquals(Optional.of(Duration.ofSeconds(Integer.MAX_VALUE)), crawlDelay(value));
  }

  @ParameterizedTest
  @ValueSource(strings = {"5", "0.5", "2147483647"})
  void ordinaryValuesAreReadAsWritten(String value) {
    assertEquals(Optional.of(Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000))), crawlDelay(value));
  }

  @ParameterizedTest
  @ValueSource(strings = {"User-agent: *\nDisallow: /\n", "Crawl-delay: soon\n", "# crawl-delay: 99999999999999\n"})
  void aFileWithoutAHugeValueIsLeftAsItIs(String text) {
    byte[] body = text.getBytes(StandardCharsets.UTF_8);
    assertSame(body, HugeCrawlDelays.capped(body));
  }
}
