package org.forager.store.postgres;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.forager.config.CrawlConfig;
import org.forager.store.StoreException;

/**
 * Where the password of the crawl database comes from, so that it need not be written in
 * {@code store.url}: a {@code password=} in the URL wins; else {@code store.password_file}; else the
 * environment variable {@value #FORAGER_ENV}; else {@value #LIBPQ_ENV}. With none of them, the
 * driver may still find one in {@code ~/.pgpass} or the file {@code PGPASSFILE} names (pgjdbc reads
 * those itself). Stateless.
 */
final class Passwords {

  static final String FORAGER_ENV = "FORAGER_STORE_PASSWORD";
  static final String LIBPQ_ENV = "PGPASSWORD";

  private static final Pattern URL_PASSWORD = Pattern.compile("[?&]password=");
  /** What libpq accepts of a password file: nothing for group or others. */
  private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.of(
      PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private Passwords() {}

  /**
   * The password to hand the driver, or empty when the URL has its own or none is given.
   *
   * @param env the environment ({@code System::getenv} but in tests)
   * @throws StoreException naming the file when {@code store.password_file} cannot be used: missing,
   *     unreadable, open to group or others, empty or of more than one line
   */
  static Optional<String> of(CrawlConfig.Store store, UnaryOperator<String> env) {
    if (store.url() != null && URL_PASSWORD.matcher(store.url()).find()) return Optional.empty();
    if (store.passwordFile().isPresent()) return Optional.of(readFile(store.passwordFile().get()));
    return nonEmpty(env.apply(FORAGER_ENV)).or(() -> nonEmpty(env.apply(LIBPQ_ENV)));
  }

  /** The password a file holds: its one line, without the line end. */
  static String readFile(Path file) {
    refuseOpenToOthers(file);
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw problem(file, "cannot be read (" + e + ")");
    }
    // Secret files (Docker, Kubernetes) often end with a line break; the password itself may not.
    String password = text.endsWith("\r\n") ? text.substring(0, text.length() - 2)
        : text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    if (password.isEmpty()) throw problem(file, "is empty: it must hold the password");
    if (password.contains("\n") || password.contains("\r")) {
      throw problem(file, "holds more than one line: it must hold the password alone (not a .pgpass table)");
    }
    return password;
  }

  private static void refuseOpenToOthers(Path file) {
    PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
    if (posix == null) return; // no POSIX permissions here (Windows): nothing to check
    Set<PosixFilePermission> permissions;
    try {
      permissions = posix.readAttributes().permissions();
    } catch (IOException e) {
      throw problem(file, "cannot be read (" + e + ")");
    }
    if (permissions.stream().anyMatch(GROUP_OR_OTHERS::contains)) {
      throw problem(file, "is open to group or others (" + PosixFilePermissions.toString(permissions)
          + "); allow its owner only, as libpq requires of .pgpass: chmod 600 " + file);
    }
  }

  private static StoreException problem(Path file, String what) {
    return new StoreException("store.password_file " + file + " " + what);
  }

  private static Optional<String> nonEmpty(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }
}
