package org.forager.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.forager.io.IoFailures;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * An open RocksDB directory with the store's column families: opening it (with a clear reason when
 * that fails) and closing it (flushed, lock released). RocksDB itself is thread-safe; closing
 * must not race with use, which {@link RocksCrawlStore} guarantees.
 */
final class RocksDatabase {

  final Path dir;
  final RocksDB db;
  final ColumnFamilyHandle meta;
  final ColumnFamilyHandle urls;
  final ColumnFamilyHandle due;
  final ColumnFamilyHandle history;
  final ColumnFamilyHandle digests;
  /** The column families' IDs, for batches built in Java ({@link BatchBytes}). */
  final BatchBytes.Families families;
  private final RocksTuning tuning;
  private final List<ColumnFamilyHandle> handles;
  /** What closing gives back: the directory lock (a writer's), the reader's own directory (a reader's). */
  private final AutoCloseable release;
  /** Opened by {@link #openForReading}: a RocksDB secondary instance, which refuses every write. */
  final boolean forReading;

  private RocksDatabase(Path dir, RocksDB db, RocksTuning tuning, List<ColumnFamilyHandle> handles,
      AutoCloseable release, boolean forReading) {
    this.dir = dir;
    this.db = db;
    this.tuning = tuning;
    this.handles = handles;
    this.release = release;
    this.forReading = forReading;
    this.meta = handles.get(RocksTuning.META);
    this.urls = handles.get(RocksTuning.URLS);
    this.due = handles.get(RocksTuning.DUE);
    this.history = handles.get(RocksTuning.HISTORY);
    this.digests = handles.get(RocksTuning.DIGESTS);
    this.families = new BatchBytes.Families(handles);
  }

  /**
   * Opens (or creates) the store in {@code dir}, locked for this process first.
   *
   * @throws StoreException in one line: the directory is in use (naming the lock), cannot be
   *     created, or RocksDB refuses it (corrupt, unreadable, no space)
   */
  static RocksDatabase open(Path dir, long memoryBytes) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new StoreException("cannot open the crawl store at " + dir
          + ": cannot create the directory: " + IoFailures.reason(e, dir), e);
    }
    DirectoryLock lock = DirectoryLock.acquire(dir);
    RocksTuning tuning;
    try {
      tuning = new RocksTuning(memoryBytes);
    } catch (RuntimeException e) {
      lock.close();
      throw e;
    }
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try {
      RocksDB db = RocksDB.open(tuning.dbOptions(), dir.toString(), tuning.families(), handles);
      return new RocksDatabase(dir, db, tuning, handles, lock, false);
    } catch (RocksDBException e) {
      tuning.close();
      lock.close();
      throw new StoreException("cannot open the crawl store at " + dir + ": " + reason(e), e);
    }
  }

  /**
   * Opens the store in {@code dir} to read it, without its lock: as a RocksDB secondary instance, which
   * reads the files a running crawl (the primary) writes, or those of a stopped one, and writes nothing
   * there (its own log goes to a temporary directory of its own, removed at {@link #close}). What it
   * reads is the store as of the open, the write-ahead log included; every SST file is opened then
   * (max_open_files -1), so the primary's compactions cannot take one away while it is read.
   *
   * @throws StoreException in one line: no store there, or RocksDB cannot read it
   */
  static RocksDatabase openForReading(Path dir, long memoryBytes) {
    if (!Files.isRegularFile(dir.resolve("CURRENT"))) {
      throw new StoreException("no crawl store at " + dir + " (no CURRENT file in it)");
    }
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    ReaderDirectory own;
    try {
      own = ReaderDirectory.create(tmp);
    } catch (IOException e) {
      throw new StoreException("cannot read the crawl store at " + dir + ": cannot create a temporary directory: "
          + IoFailures.reason(e, tmp), e);
    }
    RocksTuning tuning;
    try {
      tuning = new RocksTuning(memoryBytes);
      tuning.dbOptions().setCreateIfMissing(false).setCreateMissingColumnFamilies(false).setMaxOpenFiles(-1);
    } catch (RuntimeException e) {
      own.close();
      throw e;
    }
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try {
      RocksDB db;
      try {
        db = RocksDB.openAsSecondary(tuning.dbOptions(), dir.toString(), own.path.toString(), tuning.families(), handles);
      } catch (RocksDBException e) {
        // The running crawl may delete a write-ahead log file between the listing and the opening of it
        // (after a flush): once more, with the listing as it is now.
        if (e.getStatus() == null || (e.getStatus().getCode() != Status.Code.IOError
            && e.getStatus().getCode() != Status.Code.NotFound)) {
          throw e;
        }
        handles.clear();
        db = RocksDB.openAsSecondary(tuning.dbOptions(), dir.toString(), own.path.toString(), tuning.families(), handles);
      }
      return new RocksDatabase(dir, db, tuning, handles, own, true);
    } catch (RocksDBException e) {
      tuning.close();
      own.close();
      throw new StoreException("cannot read the crawl store at " + dir + ": " + reason(e), e);
    }
  }

  /**
   * Flushes the memtables (so the next open replays no WAL) and releases the directory lock; a reader
   * only closes its instance and removes its own directory.
   */
  void close() {
    if (!forReading) {
      try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
        db.flush(flush, handles);
      } catch (RocksDBException e) {
        // Not fatal: everything is in the WAL and the next open replays it.
      }
    }
    try {
      handles.forEach(ColumnFamilyHandle::close);
      db.closeE();
    } catch (RocksDBException e) {
      throw new StoreException("closing the crawl store at " + dir + " failed: " + e.getMessage(), e);
    } finally {
      tuning.close();
      closeQuietly(release); // last: the directory is free once RocksDB has let go of it
    }
  }

  private static void closeQuietly(AutoCloseable release) {
    try {
      release.close();
    } catch (Exception e) {
      throw new StoreException("releasing the crawl store failed: " + e.getMessage(), e);
    }
  }

  private static String reason(RocksDBException e) {
    String message = String.valueOf(e.getMessage());
    Status status = e.getStatus();
    Status.Code code = status == null ? Status.Code.Undefined : status.getCode();
    if (code == Status.Code.IOError && message.toLowerCase(Locale.ROOT).contains("lock")) {
      return "it is locked: another process (or this one) has it open (" + message + ")";
    }
    if (code == Status.Code.Corruption) return "its files are corrupt (" + message + ")";
    return message;
  }
}
