package org.forager.store;

import java.nio.file.Path;

/**
 * The child process of {@link RocksCrawlStoreTest}'s killed-reader test: opens the store in
 * {@code args[0]} to read it, prints {@code open} and waits for standard input to end (or its kill).
 */
public final class ReaderChild {

  private ReaderChild() {}

  public static void main(String[] args) throws Exception {
    try (CrawlStore reader = RocksCrawlStore.openForReading(Path.of(args[0]), RocksCrawlStore.DEFAULT_MEMORY_BYTES)) {
      System.out.println("open " + reader.urlCount());
      System.out.flush();
      System.in.read();
    }
  }
}
