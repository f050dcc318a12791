package org.forager.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.forager.io.IoFailures;

/**
 * The embedded store's claim on its data directory: an exclusive lock on {@code store/forager.lock},
 * taken before RocksDB touches the directory (a refused RocksDB open would still rotate the running
 * crawl's RocksDB log) and held until {@link #close}. The operating system releases it when the
 * process ends, however it ends ({@code kill -9} included), so a lock never outlives its crawl. The
 * file holds the owner's process id, for the message of whoever is refused. Not thread-safe; one
 * holder per directory per process.
 */
final class DirectoryLock implements AutoCloseable {

  static final String FILE_NAME = "forager.lock";

  /**
   * Directories this process holds: a second lock from the same process is refused here, since the
   * operating system would grant it (locks belong to processes), and closing its channel would drop
   * the first one's.
   */
  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

  private final Path key;
  private final FileChannel channel;

  private DirectoryLock(Path key, FileChannel channel) {
    this.key = key;
    this.channel = channel;
  }

  /**
   * Locks {@code storeDir} (which must exist) for this process.
   *
   * @throws StoreException in one line naming the data directory and the lock file when another
   *     process (or this one) holds it, or when the lock file cannot be written
   */
  static DirectoryLock acquire(Path storeDir) {
    Path file = storeDir.resolve(FILE_NAME);
    Path key;
    try {
      key = storeDir.toRealPath();
    } catch (IOException e) {
      throw new StoreException("cannot lock the crawl store at " + storeDir + ": " + IoFailures.reason(e, storeDir), e);
    }
    if (!HELD.add(key)) throw inUse(storeDir, file, "this process", "");
    try {
      FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e;
      }
      if (lock == null) {
        String owner = owner(channel);
        channel.close();
        throw inUse(storeDir, file, "another forager process", owner);
      }
      channel.truncate(0);
      channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
      return new DirectoryLock(key, channel);
    } catch (IOException e) {
      HELD.remove(key);
      throw new StoreException("cannot lock the crawl store at " + storeDir + ": " + IoFailures.reason(e, file) + " (" + file + ")", e);
    } catch (RuntimeException e) {
      HELD.remove(key);
      throw e;
    }
  }

  /** Releases the lock (closing the file releases it); a second call does nothing. */
  @Override
  public void close() {
    if (!channel.isOpen()) return;
    try {
      channel.close();
    } catch (IOException e) {
      // The lock goes with the descriptor, which is gone whatever close reports.
    } finally {
      HELD.remove(key);
    }
  }

  private static StoreException inUse(Path storeDir, Path file, String who, String owner) {
    Path dataDir = storeDir.getParent() == null ? storeDir : storeDir.getParent();
    return new StoreException("data dir " + dataDir + " is in use by " + who + " (" + owner + "lock " + file
        + "); stop it or use another --data-dir");
  }

  /** "pid N, " from the file the holder wrote, or nothing when it cannot be read. */
  private static String owner(FileChannel channel) {
    try {
      ByteBuffer buffer = ByteBuffer.allocate(32);
      channel.read(buffer, 0);
      String pid = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).strip();
      return pid.matches("[0-9]{1,19}") ? "pid " + pid + ", " : "";
    } catch (IOException e) {
      return "";
    }
  }
}
