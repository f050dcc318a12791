package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import org.forager.config.CrawlConfig.Politeness;
import org.junit.jupiter.api.Test;

class OriginPolitenessTest {

  private static final Politeness CONFIG =
      new Politeness(Duration.ofSeconds(1), Duration.ofSeconds(120), 0, Duration.ofHours(1), Duration.ofHours(1));

  /** An earlier run's delay holds until an operator sets one: then the operator's order is the delay. */
  @Test
  void anOperatorsDelayOverridesTheDelayAnEarlierRunLeft() {
    OriginPoliteness p = new OriginPoliteness(CONFIG);
    p.restore(8_000);
    assertEquals(8_000, p.delayMillis());
    p.operatorDelay(OptionalLong.of(2_000));
    assertEquals(2_000, p.delayMillis(), "at once, not after the restored delay decayed");
    p.operatorDelay(OptionalLong.empty());
    assertEquals(8_000, p.delayMillis());
    p.answeredNormally();
    assertEquals(6_000, p.delayMillis(), "decays by a quarter an answer, as a penalty does");
  }

  /** A rate limit of this run still floors an operator's delay; so does the site's Crawl-delay. */
  @Test
  void theSitesOwnAsksStillFloorAnOperatorsDelay() {
    OriginPoliteness p = new OriginPoliteness(CONFIG);
    p.rateLimited();
    p.operatorDelay(OptionalLong.of(200));
    assertEquals(2_000, p.delayMillis());
    p.crawlDelay(Optional.of(Duration.ofSeconds(5)));
    assertEquals(5_000, p.delayMillis());
  }
}
