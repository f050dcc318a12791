package org.forager.natives;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where Forager's own native libraries are: the ones {@code bin/native-libraries} builds from
 * {@code src/main/c} into {@code target/native} (the WARC's SHA-1 pair, the simhash). Each is optional:
 * its user does the same work in Java where it is missing. Stateless.
 */
public final class NativeLibraries {

  /** Overrides where the libraries are looked for (a directory). */
  public static final String DIRECTORY_PROPERTY = "forager.native.dir";

  private NativeLibraries() {}

  /**
   * The library file {@code name}, in the property's directory, else in {@code native/} beside the
   * code's jar or class directory ({@code target/forager.jar} or {@code target/classes}: either way
   * {@code target/native}); empty when it is not there.
   */
  public static Optional<Path> find(String name) {
    String configured = System.getProperty(DIRECTORY_PROPERTY);
    Path directory;
    if (configured != null) {
      directory = Path.of(configured);
    } else {
      try {
        var source = NativeLibraries.class.getProtectionDomain().getCodeSource();
        if (source == null) return Optional.empty();
        directory = Path.of(source.getLocation().toURI()).getParent().resolve("native");
      } catch (URISyntaxException | RuntimeException e) {
        return Optional.empty();
      }
    }
    Path file = directory.resolve(name).toAbsolutePath();
    return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
  }
}
