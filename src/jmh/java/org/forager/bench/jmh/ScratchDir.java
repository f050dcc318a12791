package org.forager.bench.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A fresh directory under {@code java.io.tmpdir} for one trial, deleted with everything in it. */
final class ScratchDir {

  private ScratchDir() {}

  static Path create(String name) {
    try {
      return Files.createTempDirectory("forager-jmh-" + name + "-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void delete(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) Files.delete(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
