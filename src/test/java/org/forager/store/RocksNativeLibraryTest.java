package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * RocksDB's native library is copied once into the cache, whole, and used from there: a second start
 * copies nothing, a copy cut short is made again, and a store opens with the library so loaded.
 */
class RocksNativeLibraryTest {

  @TempDir Path cache;

  @Test
  void theLibraryIsCopiedOnceAndWhole() throws Exception {
    Path copy = RocksNativeLibrary.cachedCopy(cache).orElseThrow();
    assertTrue(copy.startsWith(cache), copy.toString());
    assertEquals(Environment.getJniLibraryFileName("rocksdbjni"), copy.getFileName().toString(),
        "the name RocksDB.loadLibrary(paths) asks for");
    byte[] inJar;
    try (InputStream in = RocksDB.class.getClassLoader()
        .getResourceAsStream(Environment.getJniLibraryFileName("rocksdb"))) {
      inJar = in.readAllBytes();
    }
    assertArrayEquals(inJar, Files.readAllBytes(copy));

    FileTime old = FileTime.fromMillis(1_000_000L);
    Files.setLastModifiedTime(copy, old);
    assertEquals(copy, RocksNativeLibrary.cachedCopy(cache).orElseThrow());
    assertEquals(old, Files.getLastModifiedTime(copy), "a whole copy is used as it is");

    Files.write(copy, new byte[] {1, 2, 3}); // a copy cut short (a disk full, a hand)
    assertEquals(copy, RocksNativeLibrary.cachedCopy(cache).orElseThrow());
    assertArrayEquals(inJar, Files.readAllBytes(copy));
    try (Stream<Path> files = Files.walk(cache)) {
      assertEquals(List.of(copy), files.filter(Files::isRegularFile).toList(), "no part file left behind");
    }
  }

  @Test
  void aCacheThatCannotBeWrittenGivesNoCopy() throws Exception {
    Path notADirectory = Files.writeString(cache.resolve("file"), "x");
    assertTrue(RocksNativeLibrary.cachedCopy(notADirectory).isEmpty());
  }

  @Test
  void aStoreOpensWithTheLibraryLoaded(@TempDir Path dir) {
    RocksNativeLibrary.load();
    try (RocksCrawlStore store = RocksCrawlStore.open(dir.resolve("store"))) {
      assertEquals(0, store.urlCount());
    }
  }
}
