package org.forager.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The temporary directory of one reader of a crawl's store (a RocksDB secondary instance keeps its log
 * there), in java.io.tmpdir, locked for as long as the reader is open. A reader killed before its close
 * leaves its directory behind; the next reader removes the ones whose lock it can take. The lock dies
 * with its process, in whatever PID namespace: a process id in the name would, on a temporary directory
 * shared between containers, name another container's reader as dead.
 */
final class ReaderDirectory implements AutoCloseable {

  /** Its name: this, the process id (for a person looking), a dash, a random part. */
  static final String PREFIX = "forager-store-reader-";
  static final String LOCK_FILE = "reader.lock";
  /** A directory without a lock file (an older Forager's, or one made an instant ago) is left this long. */
  private static final Duration UNLOCKED_GRACE = Duration.ofMinutes(1);

  /** This process's open readers: a lock this JVM holds cannot be probed (closing the probe would drop it). */
  private static final Set<Path> OWN = ConcurrentHashMap.newKeySet();

  final Path path;
  private final FileChannel lock;

  private ReaderDirectory(Path path, FileChannel lock) {
    this.path = path;
    this.lock = lock;
  }

  /** Removes abandoned readers' directories, then makes and locks a new one. */
  static ReaderDirectory create(Path tmp) throws IOException {
    removeAbandoned(tmp);
    Path dir = Files.createTempDirectory(tmp, PREFIX + ProcessHandle.current().pid() + "-");
    OWN.add(dir);
    try {
      FileChannel channel = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      try {
        channel.lock(); // a file just made: nobody else waits on it
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e;
      }
      return new ReaderDirectory(dir, channel);
    } catch (IOException | RuntimeException e) {
      OWN.remove(dir);
      deleteTree(dir);
      throw e;
    }
  }

  /** Releases the lock and removes the directory. */
  @Override
  public void close() {
    try {
      lock.close();
    } catch (IOException e) {
      // The lock goes with the channel anyway; the directory is removed below.
    }
    deleteTree(path);
    OWN.remove(path);
  }

  /** The directories of readers gone without closing: their lock is free. */
  static void removeAbandoned(Path tmp) {
    try (var dirs = Files.newDirectoryStream(tmp, PREFIX + "*")) {
      for (Path dir : dirs) {
        if (!OWN.contains(dir) && abandoned(dir)) deleteTree(dir);
      }
    } catch (IOException | RuntimeException e) {
      // Nothing of the crawl's is in them: left for the next reader, or the system's cleaning.
    }
  }

  private static boolean abandoned(Path dir) throws IOException {
    Path lockFile = dir.resolve(LOCK_FILE);
    if (!Files.exists(lockFile)) {
      return Files.getLastModifiedTime(dir).toInstant().isBefore(Instant.now().minus(UNLOCKED_GRACE));
    }
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
      FileLock taken = channel.tryLock();
      if (taken == null) return false;
      taken.release();
      return true;
    } catch (OverlappingFileLockException e) {
      return false; // held in this JVM by a reader opened since the listing
    }
  }

  private static void deleteTree(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | java.io.UncheckedIOException e) {
      // A temporary directory left behind: nothing of the crawl's is in it.
    }
  }
}
