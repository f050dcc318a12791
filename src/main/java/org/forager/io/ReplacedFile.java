package org.forager.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A file written whole or not at all: through a temporary file beside it ({@code .NAME.RANDOM.tmp}),
 * renamed over it when the writing is done, so that a failure (a full disk, an interrupt) leaves the
 * file as it was and never a part of the new one. Stateless.
 */
public final class ReplacedFile {

  /** Writes a file's content. */
  @FunctionalInterface
  public interface Writer<T> {
    T write(Path file) throws IOException;
  }

  private ReplacedFile() {}

  /** The same failure, said of {@code file}. */
  private static FileSystemException about(FileSystemException e, Path file) {
    FileSystemException same = switch (e) {
      case NoSuchFileException x -> new NoSuchFileException(file.toString(), null, x.getReason());
      case AccessDeniedException x -> new AccessDeniedException(file.toString(), null, x.getReason());
      default -> new FileSystemException(file.toString(), null, e.getReason());
    };
    same.initCause(e);
    return same;
  }

  /** Writes {@code target} by {@code writer} through a temporary file; returns what the writer returned. */
  public static <T> T write(Path target, Writer<T> writer) throws IOException {
    Path absolute = target.toAbsolutePath();
    // Not Files.createTempFile: its files are 0600, and exports and indexes are meant to be read by
    // others (mode as any new file's, like the WARC files': 0644 under the usual umask).
    Path temp = absolute.resolveSibling(
        "." + absolute.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
    try {
      Files.createFile(temp);
    } catch (FileSystemException e) {
      throw about(e, absolute); // the caller names the file it asked for, not the temporary one
    }
    try {
      T result = writer.write(temp);
      Files.move(temp, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return result;
    } finally {
      try {
        Files.deleteIfExists(temp);
      } catch (IOException e) {
        // Only a stray temporary file is left; the writing's own outcome is what matters.
      }
    }
  }
}
