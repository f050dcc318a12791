package org.forager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code log} section: rotation and retention of the crawl log. */
class LogConfigTest {

  @TempDir Path dir;

  private CrawlConfig load(String yaml) throws IOException {
    return YamlFiles.load(dir, yaml);
  }

  private String error(String yaml) throws IOException {
    return YamlFiles.error(dir, yaml);
  }

  @Test
  void rotationAt256MiBKeepingEverythingUnlessConfigured() throws IOException {
    assertEquals(new CrawlConfig.Log(256L << 20, false, Optional.empty()), load("max_actions: 1").log());
    assertEquals(CrawlConfig.Log.defaults(), CrawlConfig.defaults().log());
  }

  @Test
  void everyKeyRead() throws IOException {
    assertEquals(new CrawlConfig.Log(1L << 20, true, Optional.of(Duration.ofDays(30))),
        load("log: { rotate_size: 1MiB, rotate_at_start: true, keep: 30d }").log());
  }

  @Test
  void aBadValueOrAnUnknownKeyIsOneLineNamingIt() throws IOException {
    assertEquals("config: log.rotate_size: must be > 0", error("log: { rotate_size: 0 }"));
    assertEquals("config: log.keep: must be > 0", error("log: { keep: 0 }"));
    assertEquals("config: log: unknown key 'rotate_sise' (did you mean 'rotate_size'?)",
        error("log: { rotate_sise: 1MiB }"));
  }
}
