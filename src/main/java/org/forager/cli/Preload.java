package org.forager.cli;

import java.util.Optional;
import org.forager.store.Stores;
import org.forager.warc.RecordCompression;

/**
 * What a crawl's start needs from native libraries, done on a second thread while the first parses
 * the command line and the configuration: RocksDB's library (unpacked from its jar, about 0.15 s) and
 * the WARC's compressor (ISA-L's self-check). A one-page crawl starts about 0.1 s sooner (10 alternating
 * runs, docs/benchmarks.md, session 27). Nothing here is final: what fails is done again, and reported,
 * where it is needed.
 */
final class Preload {

  private Preload() {}

  /** Starts the preload for a {@code crawl} command line (its thread); does nothing for the others. */
  static Optional<Thread> start(String[] args) {
    if (args.length == 0 || !args[0].equals("crawl")) return Optional.empty();
    return Optional.of(Thread.ofPlatform().daemon().name("forager-preload").start(Preload::run));
  }

  private static void run() {
    try {
      Stores.loadNativeLibrary();
    } catch (RuntimeException | LinkageError e) {
      // The store's open loads it again and says why it cannot (a PostgreSQL store never needs it).
    }
    try {
      RecordCompression.isalUnavailable();
    } catch (RuntimeException | LinkageError e) {
      // The WARC's open chooses its engine again and says why.
    }
  }
}
