package org.forager.config;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** A configuration file written into a test's directory and loaded as the command line would. */
final class YamlFiles {

  private YamlFiles() {}

  /** Writes {@code yaml} as {@code dir/forager.yaml} and loads it. */
  static CrawlConfig load(Path dir, String yaml) throws IOException {
    Path file = Files.writeString(dir.resolve("forager.yaml"), yaml);
    return ConfigLoader.load(Optional.of(file), Overrides.none());
  }

  /** The one-line message loading {@code yaml} fails with (the test fails if it loads). */
  static String error(Path dir, String yaml) throws IOException {
    Path file = Files.writeString(dir.resolve("forager.yaml"), yaml);
    return assertThrows(ConfigException.class, () -> ConfigLoader.load(Optional.of(file), Overrides.none()))
        .getMessage();
  }
}
