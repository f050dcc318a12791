package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The preload runs for a crawl only, on a daemon thread that ends once the libraries are loaded. */
class PreloadTest {

  @Test
  void aCrawlCommandLineLoadsTheNativeLibrariesOnADaemonThread() throws Exception {
    Thread preload = Preload.start(new String[] {"crawl", "--seed", "http://127.0.0.1:1/"}).orElseThrow();
    assertTrue(preload.isDaemon(), "a preload must not keep the JVM alive");
    assertEquals("forager-preload", preload.getName());
    assertTrue(preload.join(Duration.ofSeconds(30)), "the preload ends");
  }

  @Test
  void otherCommandLinesStartNothing() {
    assertEquals(Optional.empty(), Preload.start(new String[] {"audit", "--data-dir", "x"}));
    assertEquals(Optional.empty(), Preload.start(new String[] {"--version"}));
    assertFalse(Preload.start(new String[0]).isPresent());
  }
}
