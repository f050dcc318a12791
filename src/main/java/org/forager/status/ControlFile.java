package org.forager.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * {@code DATA_DIR/control.json}: where a running crawl's control API listens and its token, for
 * {@code forager ctl}. Written at the crawl's start, readable by its owner only (mode 0600, set
 * when the file is created, before a byte of the token is in it); removed at a clean exit, so one
 * left behind is a crawl that was killed (the address then refuses connections).
 *
 * @param url the control API's base, e.g. {@code http://127.0.0.1:40123/}
 * @param token the bearer token ({@link ControlToken#value})
 * @param pid the crawl's process id
 * @param started when the crawl started
 * @param statusPage the status page, when the crawl serves one
 */
public record ControlFile(URI url, String token, long pid, Instant started, Optional<URI> statusPage) {

  public static final String NAME = "control.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The file in {@code dataDir}. */
  public static Path in(Path dataDir) {
    return dataDir.resolve(NAME);
  }

  /**
   * Writes (or replaces) the file in {@code dataDir}: first a new file of mode 0600 beside it, then
   * moved over the old one at once, so a reader never sees half of it.
   *
   * @throws UncheckedIOException naming the file when it cannot be written
   */
  public void write(Path dataDir) {
    Path file = in(dataDir);
    Path temporary = dataDir.resolve(NAME + ".new");
    ObjectNode json = JSON.createObjectNode();
    json.put("url", url.toString());
    json.put("token", token);
    json.put("pid", pid);
    json.put("started", started.toString());
    statusPage.ifPresent(page -> json.put("status_page", page.toString()));
    try {
      // Whose file it is: a copy of the data directory (a backup taken while the crawl ran) carries it
      // along, and must not pass for the crawl, nor hand out the token that steers it.
      json.put("data_dir", dataDir.toRealPath().toString());
      Files.deleteIfExists(temporary); // left by a crash: its mode is not to be trusted
      // Created and written through one channel: no moment in which another user of a shared data
      // directory could put a link of theirs in its place and catch the token.
      try (SeekableByteChannel channel = createPrivate(temporary)) {
        ByteBuffer bytes = ByteBuffer.wrap(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(json));
        while (bytes.hasRemaining()) channel.write(bytes);
      }
      try {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  private static SeekableByteChannel createPrivate(Path file) throws IOException {
    Set<StandardOpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try {
      return Files.newByteChannel(file, options,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException notPosix) {
      return Files.newByteChannel(file, options); // the directory's access control decides who reads it
    } catch (FileAlreadyExistsException e) {
      throw new IOException("another process writes " + file + " at the same time", e);
    }
  }

  /**
   * The file in {@code dataDir}, when there is one.
   *
   * @throws CopiedException when it was written by a crawl of another directory: {@code dataDir} is a copy
   * @throws IOException when it cannot be read or is not what a crawl writes
   */
  public static Optional<ControlFile> read(Path dataDir) throws IOException {
    Path file = in(dataDir);
    if (!Files.exists(file)) return Optional.empty();
    JsonNode json;
    try {
      json = JSON.readTree(Files.readAllBytes(file));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IOException(file + " is not JSON: " + e.getOriginalMessage());
    }
    String owner = json.path("data_dir").asText("");
    // Only where the crawl's own directory is in view, and another: a crawl in a container or on a mount
    // seen here under another path (its directory not found here) is taken at its word.
    if (!owner.isEmpty() && Files.isDirectory(Path.of(owner)) && !sameDirectory(Path.of(owner), dataDir)) {
      throw new CopiedException(file + " was written by a crawl of " + owner + ", not of " + dataDir
          + " (a copy of its data directory?): no crawl runs here");
    }
    try {
      String page = json.path("status_page").asText("");
      return Optional.of(new ControlFile(URI.create(json.required("url").asText()), json.required("token").asText(),
          json.path("pid").asLong(), Instant.parse(json.required("started").asText()),
          page.isEmpty() ? Optional.empty() : Optional.of(URI.create(page))));
    } catch (IllegalArgumentException | java.time.format.DateTimeParseException e) {
      throw new IOException(file + " is not a crawl's control file: " + e.getMessage());
    }
  }

  private static boolean sameDirectory(Path a, Path b) {
    try {
      return Files.isSameFile(a, b);
    } catch (IOException e) {
      return false; // the crawl's directory is gone (moved, deleted): this one is not it
    }
  }

  /** A control file found in a directory other than the crawl's own: a copy of its data directory. */
  public static final class CopiedException extends IOException {
    private static final long serialVersionUID = 1L;

    CopiedException(String message) {
      super(message);
    }
  }

  /** Removes the file from {@code dataDir} if it is still this one (a crawl started since left its own). */
  public void remove(Path dataDir) {
    try {
      Optional<ControlFile> current = read(dataDir);
      if (current.isPresent() && current.get().token().equals(token)) Files.deleteIfExists(in(dataDir));
    } catch (IOException e) {
      // Left behind: the next crawl replaces it, and ctl finds nothing listening meanwhile.
    }
  }

  /** Never the token itself. */
  @Override
  public String toString() {
    return "ControlFile[url=" + url + ", pid=" + pid + "]";
  }
}
