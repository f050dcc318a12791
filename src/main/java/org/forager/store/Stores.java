package org.forager.store;

import java.nio.file.Path;
import org.forager.config.CrawlConfig;
import org.forager.store.postgres.PostgresCrawlStore;

/** Opens the crawl database a configuration names. */
public final class Stores {

  private Stores() {}

  /**
   * The embedded store in {@code data_dir/store}, or the PostgreSQL database of {@code store.url}.
   *
   * @throws StoreException naming the store when it cannot be opened (locked, corrupt, unreachable)
   */
  public static CrawlStore open(CrawlConfig config) {
    return switch (config.store().kind()) {
      case "postgres" -> PostgresCrawlStore.open(config.store());
      default -> RocksCrawlStore.open(embeddedDirectory(config.dataDir()), config.store().memoryBytes());
    };
  }

  /**
   * The same store, to read it while a crawl runs on it (or from a copy whose lock cannot be taken): the
   * embedded one as {@link RocksCrawlStore#openForReading} (as of the open, writes refused), PostgreSQL's
   * as {@link PostgresCrawlStore#openForReading} (read-only transactions, the schema as it is; its
   * readers never wait for a crawl).
   *
   * @throws StoreException naming the store when it cannot be read (missing, corrupt, unreachable)
   */
  public static CrawlStore openForReading(CrawlConfig config) {
    return switch (config.store().kind()) {
      case "postgres" -> PostgresCrawlStore.openForReading(config.store());
      default -> RocksCrawlStore.openForReading(embeddedDirectory(config.dataDir()), config.store().memoryBytes());
    };
  }

  /**
   * Loads the embedded store's native library (RocksDB's: from the user's cache, unpacked there once,
   * see {@link RocksNativeLibrary}), so that a caller with a core to spare can have it done before
   * {@link #open} needs it. Failing here is not final: {@link #open} loads it again and says why it cannot.
   */
  public static void loadNativeLibrary() {
    RocksNativeLibrary.load();
  }

  /**
   * Whether RocksDB's library was unpacked to a temporary file that the JVM deletes at its exit (its
   * copy in the user's cache could not be used), so that the process must end through that exit.
   */
  public static boolean nativeLibraryInTemporaryFile() {
    return RocksNativeLibrary.fromTemporaryFile();
  }

  /** Where the embedded store of a data directory lives. */
  public static Path embeddedDirectory(Path dataDir) {
    return dataDir.resolve("store");
  }
}
