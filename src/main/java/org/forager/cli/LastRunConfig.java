package org.forager.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * The configuration file a crawl's last run was started with, kept in its data directory (its absolute
 * path, one line), so that {@code forager crawl --data-dir DIR} resumes with the same settings (user
 * agent, politeness, network pins, limits) rather than the defaults: a resume with the defaults once
 * sent another user agent and, without the run's {@code network.resolve}, pushed every page back by
 * its failures.
 */
final class LastRunConfig {

  static final String FILE_NAME = "last-run-config.txt";

  private LastRunConfig() {}

  /** Records {@code config} as the one this data directory's crawl runs with (written whole or not at all). */
  static void record(Path dataDir, Path config) throws IOException {
    Path file = dataDir.resolve(FILE_NAME);
    Path temporary = dataDir.resolve(FILE_NAME + ".tmp");
    Files.writeString(temporary, config.toAbsolutePath().normalize() + "\n", StandardCharsets.UTF_8);
    Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * The configuration file the last run of the crawl in {@code dataDir} was started with, if one was.
   *
   * @throws Unreadable naming the file and the way on, when it was recorded and cannot be read now
   */
  static Optional<Path> recorded(Path dataDir) throws Unreadable {
    Path file = dataDir.resolve(FILE_NAME);
    String line;
    try {
      line = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return Optional.empty(); // none, or one that cannot be read: the defaults, as before it existed
    }
    if (line.isEmpty()) return Optional.empty();
    Path config;
    try {
      config = Path.of(line);
    } catch (java.nio.file.InvalidPathException e) {
      return Optional.empty();
    }
    if (!Files.isRegularFile(config) || !Files.isReadable(config)) {
      throw new Unreadable(config, "the last run of the crawl in " + dataDir + " used --config " + config
          + ", which cannot be read now: give --config FILE to resume (or delete " + file
          + " to resume with the defaults)");
    }
    return Optional.of(config);
  }

  /** The recorded configuration file is gone or unreadable: a one-line usage error. */
  static final class Unreadable extends Exception {
    private static final long serialVersionUID = 1L;

    /** The recorded file. */
    final transient Path config;

    Unreadable(Path config, String message) {
      super(message);
      this.config = config;
    }
  }
}
