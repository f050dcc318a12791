package org.forager.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.forager.config.ConfigLoader;
import org.forager.config.CrawlConfig;
import org.forager.config.Overrides;
import org.forager.store.CrawlStore;
import org.forager.store.Stores;
import picocli.CommandLine.Option;

/**
 * The crawl database a read-only command works on: the embedded store of {@code --data-dir}, or the
 * store a {@code --config} names (e.g. PostgreSQL).
 */
final class StoreOption {

  @Option(names = "--data-dir", paramLabel = "DIR", description = "The crawl's data directory.")
  Path dataDir;

  @Option(names = "--config", paramLabel = "FILE", description = "The crawl's configuration: its store "
      + "(and data_dir unless --data-dir is given) are used.")
  Path config;

  /** What to open, or a one-line reason why there is nothing to open. */
  CrawlConfig resolve() throws UsageError {
    if (dataDir == null && config == null) throw new UsageError("give --data-dir DIR or --config FILE");
    return resolve(Optional.ofNullable(config), Optional.ofNullable(dataDir));
  }

  /** The crawl of {@code config} and {@code dataDir} (at least one given), or why there is none to open. */
  static CrawlConfig resolve(Optional<Path> config, Optional<Path> dataDir) throws UsageError {
    CrawlConfig cfg = ConfigLoader.load(config,
        new Overrides(java.util.List.of(), Optional.empty(), dataDir, Optional.empty()));
    if (cfg.store().kind().equals("embedded") && !Files.isDirectory(Stores.embeddedDirectory(cfg.dataDir()))) {
      throw new UsageError(cfg.dataDir() + " holds no crawl (no " + Stores.embeddedDirectory(cfg.dataDir()) + ")");
    }
    Path current = Stores.embeddedDirectory(cfg.dataDir()).resolve("CURRENT");
    if (cfg.store().kind().equals("embedded") && !Files.isRegularFile(current)) {
      // A store directory a crawl created and died in before RocksDB wrote a byte, or someone else's.
      throw new UsageError(cfg.dataDir() + " holds no crawl (no " + current + ")");
    }
    return cfg;
  }

  /** The store, to read: a running crawl's too (as of now), and a copy whose lock cannot be taken. */
  CrawlStore open(CrawlConfig cfg) {
    return Stores.openForReading(cfg);
  }

  /** A problem with the command line, reported as one line with exit status 2. */
  static final class UsageError extends Exception {
    private static final long serialVersionUID = 1L;

    UsageError(String message) {
      super(message);
    }
  }
}
