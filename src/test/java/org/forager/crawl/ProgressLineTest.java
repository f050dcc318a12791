package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.forager.record.RunSummary;
import org.junit.jupiter.api.Test;

/** The progress line says first when the crawl sends nothing: a forgotten pause read as a slow crawl. */
class ProgressLineTest {

  @Test
  void aPausedOrHeldCrawlSaysSoFirst() {
    AtomicReference<Optional<String>> held = new AtomicReference<>(Optional.empty());
    Progress.Ticker ticker = new Progress.Ticker(new RunSummary(), () -> 3, () -> 42, held::get, Long.MAX_VALUE, 0);
    String running = ticker.line(1_000_000_000L);
    assertTrue(running.startsWith("forager: 0m01s  0 actions ("), running);
    assertTrue(running.contains("3 origins active  42 URLs known"), running);

    held.set(Optional.of("PAUSED (forager ctl resume)"));
    String paused = ticker.line(2_000_000_000L);
    assertTrue(paused.startsWith("forager: 0m02s  PAUSED (forager ctl resume)  0 actions ("), paused);
  }
}
