package org.forager.store;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.CodeSource;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * Loads RocksDB's native library from a copy kept in the user's cache, one per build of the library,
 * rather than the fresh temporary file RocksJava unpacks from its jar at every start: that unpacking
 * (14.8 MB inflated) cost 0.15-0.2 s a start, and every process killed before its exit left its copy
 * in {@code /tmp} (a test machine had 790 of them, 11.7 GB). The copy lives in
 * {@code $XDG_CACHE_HOME/forager/native/} (else {@code ~/.cache/forager/native/}), in a directory named
 * by the size and CRC-32 of the library in the jar, so that another RocksJava version never loads
 * another's library; it is written to a temporary name and moved into place, so a copy is whole or
 * absent. Whatever goes wrong (no jar, an unwritable cache, a copy the system refuses to load),
 * RocksJava's own way is taken, as before. Thread-safe.
 */
final class RocksNativeLibrary {

  /** Whether RocksJava's own way loaded it: from a temporary file the JVM deletes at its exit. */
  private static volatile boolean fromTemporaryFile;

  private RocksNativeLibrary() {}

  /**
   * Loads the library once; later calls return at once. Synchronized: RocksJava lets a second caller
   * return, unloaded, when the first one's attempt fails meanwhile; one at a time, the one that sees
   * the cached copy fail goes on to RocksJava's own way (the preload and the store's open may both call).
   */
  static synchronized void load() {
    Optional<Path> cached = cacheRoot().flatMap(RocksNativeLibrary::cachedCopy);
    if (cached.isPresent()) {
      try {
        RocksDB.loadLibrary(List.of(cached.get().getParent().toString()));
        return;
      } catch (UnsatisfiedLinkError e) {
        // RocksJava's own way below.
      }
    }
    RocksDB.loadLibrary();
    fromTemporaryFile = true;
  }

  /** Whether the library was loaded from a temporary file that only the JVM's own exit deletes. */
  static boolean fromTemporaryFile() {
    return fromTemporaryFile;
  }

  /**
   * The copy under {@code cache}, made now if missing or not whole, under the name
   * {@link RocksDB#loadLibrary(List)} looks for; empty when there can be none.
   */
  static Optional<Path> cachedCopy(Path cache) {
    try {
      Optional<Path> jar = rocksJar();
      if (jar.isEmpty()) return Optional.empty();
      String resource = Environment.getJniLibraryFileName("rocksdb"); // the library in the jar
      // What RocksDB.loadLibrary(paths) asks each directory for (RocksJava 9.8 doubles "jni" in it).
      String asked = Environment.getJniLibraryFileName("rocksdbjni");
      try (JarFile file = new JarFile(jar.get().toFile())) {
        ZipEntry entry = file.getEntry(resource);
        if (entry == null || entry.getSize() <= 0) return Optional.empty();
        Path dir = cache.resolve(String.format(Locale.ROOT, "rocksdbjni-%d-%08x", entry.getSize(), entry.getCrc()));
        Path copy = dir.resolve(asked);
        if (Files.isRegularFile(copy) && Files.size(copy) == entry.getSize()) return Optional.of(copy);
        Files.createDirectories(dir);
        Path part = Files.createTempFile(dir, asked, ".part");
        try {
          try (InputStream in = file.getInputStream(entry)) {
            Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
          }
          if (Files.size(part) != entry.getSize()) return Optional.empty();
          try {
            Files.move(part, copy, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
          } catch (AtomicMoveNotSupportedException e) {
            Files.move(part, copy, StandardCopyOption.REPLACE_EXISTING);
          }
        } finally {
          Files.deleteIfExists(part);
        }
        return Optional.of(copy);
      }
    } catch (IOException | URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The jar RocksJava's classes come from; empty when they do not come from a jar file. */
  private static Optional<Path> rocksJar() throws URISyntaxException {
    CodeSource source = RocksDB.class.getProtectionDomain().getCodeSource();
    if (source == null || source.getLocation() == null) return Optional.empty();
    Path path = Path.of(source.getLocation().toURI());
    return Files.isRegularFile(path) ? Optional.of(path) : Optional.empty();
  }

  /** {@code $XDG_CACHE_HOME/forager/native}, else {@code ~/.cache/forager/native}; empty without either. */
  private static Optional<Path> cacheRoot() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
      return Optional.of(Path.of(xdg, "forager", "native"));
    }
    String home = System.getProperty("user.home");
    if (home == null || home.isBlank() || home.equals("?")) return Optional.empty();
    return Optional.of(Path.of(home, ".cache", "forager", "native"));
  }
}
