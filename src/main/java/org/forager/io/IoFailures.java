package org.forager.io;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * The reason a file operation failed, as a user's one-line message says it: "permission denied", "no
 * such file or directory", the system's own words ("No space left on device", "Read-only file
 * system"), never the exception's class name. The caller names the file; the reason adds the one the
 * system refused when that is another (a parent directory, a lock file). Stateless.
 */
public final class IoFailures {

  private IoFailures() {}

  /** Why {@code failure} happened, in words. */
  public static String reason(Throwable failure) {
    return reason(failure, null);
  }

  /** Why {@code failure} happened to {@code named} (the file the caller's message names), in words. */
  public static String reason(Throwable failure, Path named) {
    if (failure instanceof UncheckedIOException unchecked) return reason(unchecked.getCause(), named);
    if (failure instanceof FileSystemException fs) {
      String file = fs.getFile();
      return file == null || named != null && sameFile(file, named) ? words(fs) : words(fs) + " (" + file + ")";
    }
    if (failure instanceof EOFException) return "unexpected end of file";
    String message = failure.getMessage();
    return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
  }

  private static boolean sameFile(String file, Path named) {
    try {
      return Path.of(file).toAbsolutePath().normalize().equals(named.toAbsolutePath().normalize());
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static String words(FileSystemException fs) {
    // The system's own reason where the JDK kept it ("Read-only file system", "Is a directory").
    if (fs.getReason() != null && !fs.getReason().isBlank()) return fs.getReason();
    if (fs instanceof AccessDeniedException) return "permission denied";
    if (fs instanceof NoSuchFileException) return "no such file or directory";
    if (fs instanceof FileAlreadyExistsException) return "already exists";
    if (fs instanceof NotDirectoryException) return "not a directory";
    if (fs instanceof DirectoryNotEmptyException) return "directory not empty";
    return "file system error";
  }
}
