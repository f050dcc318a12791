package org.forager.store;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import org.forager.url.Origin;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The embedded crawl store: a RocksDB directory. See {@code docs/store.md} for the key layout.
 *
 * <p>Safe for concurrent use. Every method's writes go in one RocksDB write batch, so they are
 * atomic; the write-ahead log is written on every batch but not synced, so a return means the
 * write survives the process being killed, while a machine crash may lose the last moments.
 * The check-and-write of URL deduplication runs under one short lock. Only one process can have a
 * directory open at a time.
 *
 * <p>The validators a {@link DueCandidate} carries are those of the URL's last 2xx response,
 * updated by later 304 responses; crawl actions that brought no representation keep them.
 */
public final class RocksCrawlStore implements CrawlStore {

  private final RocksDatabase rocks;
  private final Clock clock;
  private final WriteOptions writeOptions = new WriteOptions().setSync(false);
  /** Serializes check-and-write of the URL table and the URL counter. */
  private final ReentrantLock writeLock = new ReentrantLock();
  /** Read-held by every operation, write-held by close: native handles must not be used closed. */
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
  private boolean closed;
  private volatile long urlCount;

  private RocksCrawlStore(RocksDatabase rocks, Clock clock) {
    this.rocks = rocks;
    this.clock = clock;
  }

  /**
   * Opens the store in {@code dir}, creating it when missing.
   *
   * @throws StoreException naming the directory and the reason when it cannot be opened: it is
   *     locked by another process, its files are corrupt or of an unknown format, or unreadable
   */
  public static RocksCrawlStore open(Path dir) {
    return open(dir, Clock.systemUTC());
  }

  static RocksCrawlStore open(Path dir, Clock clock) {
    RocksCrawlStore store = new RocksCrawlStore(RocksDatabase.open(dir), clock);
    try {
      store.loadMeta();
      return store;
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  private void loadMeta() {
    call(() -> {
      byte[] format = rocks.db.get(rocks.meta, Keys.FORMAT);
      if (format == null) {
        rocks.db.put(rocks.meta, writeOptions, Keys.FORMAT, new byte[] {1});
      } else if (format.length != 1 || format[0] != 1) {
        throw new StoreException("cannot open the crawl store at " + rocks.dir
            + ": unknown store format " + Arrays.toString(format));
      }
      byte[] count = rocks.db.get(rocks.meta, Keys.URL_COUNT);
      urlCount = count == null ? 0 : new ByteReader(count).readLongBigEndian();
      return null;
    });
  }

  @Override
  public void addScope(Collection<Origin> origins) {
    call(() -> {
      try (WriteBatch batch = new WriteBatch()) {
        for (Origin origin : origins) {
          batch.put(rocks.meta, Keys.scope(origin), Values.encodeOrigin(origin));
        }
        rocks.db.write(writeOptions, batch);
      }
      return null;
    });
  }

  @Override
  public Set<Origin> scope() {
    return call(() -> {
      Set<Origin> scope = new TreeSet<>();
      byte[] prefix = Keys.meta('S', "");
      scan(rocks.meta, prefix, Keys.prefixEnd(prefix), Integer.MAX_VALUE,
          (key, value) -> scope.add(Values.decodeOrigin(value)));
      return Collections.unmodifiableSet(scope);
    });
  }

  @Override
  public int addCandidates(Collection<Candidate> candidates) {
    Map<String, Pending> unique = CandidateBatch.unique(candidates, Optional.empty());
    if (unique.isEmpty()) return 0;
    Instant now = clock.instant();
    return call(() -> {
      writeLock.lock();
      try (WriteBatch batch = new WriteBatch()) {
        int added = putNew(batch, unique, now);
        if (added > 0) commit(batch, added);
        return added;
      } finally {
        writeLock.unlock();
      }
    });
  }

  @Override
  public List<DueCandidate> due(Origin origin, Instant cutoff, int limit) {
    if (limit <= 0) return List.of();
    byte[] prefix = Keys.duePrefix(origin);
    return call(() -> {
      List<DueCandidate> due = new ArrayList<>(Math.min(limit, 1024));
      scan(rocks.due, prefix, Keys.dueUpperBound(origin, cutoff), limit, (key, value) -> {
        ByteReader suffix = Keys.dueSuffix(key, prefix.length);
        int depth = suffix.readShortBigEndian();
        String url = suffix.readRestAsString();
        Values.DueEntry entry = Values.decodeDue(value);
        due.add(new DueCandidate(url, depth, entry.etag(), entry.lastModified(), entry.fetchCount()));
      });
      return due;
    });
  }

  @Override
  public void record(CrawlRecord record, Collection<Candidate> discovered) {
    String origin = CandidateBatch.origin(record.url());
    Map<String, Pending> unique = CandidateBatch.unique(discovered, Optional.of(record.url()));
    Instant now = clock.instant();
    call(() -> {
      writeLock.lock();
      try (WriteBatch batch = new WriteBatch()) {
        byte[] urlKey = Keys.url(record.url());
        byte[] old = rocks.db.get(rocks.urls, urlKey);
        int added = old == null ? 1 : 0;
        UrlRecord previous = old == null
            ? new UrlRecord(record.url(), 0, Optional.empty(), now, 0, Optional.empty(), Instant.EPOCH)
            : Values.decodeUrl(record.url(), old);
        Values.DueEntry validators = new Values.DueEntry(0, Optional.empty(), Optional.empty());
        if (old != null) {
          byte[] oldDueKey = dueKey(origin, previous);
          byte[] oldDue = rocks.db.get(rocks.due, oldDueKey);
          if (oldDue != null) validators = Values.decodeDue(oldDue);
          batch.delete(rocks.due, oldDueKey);
        }
        int fetchCount = previous.fetchCount() + 1;
        UrlRecord next = new UrlRecord(record.url(), previous.depth(), previous.discoveredFrom(),
            previous.discoveredAt(), fetchCount, Optional.of(record), record.nextFetchAt());
        batch.put(rocks.urls, urlKey, Values.encodeUrl(next));
        batch.put(rocks.history, Keys.history(record.url(), record.fetchedAt(), fetchCount),
            Values.encodeCrawl(record));
        batch.put(rocks.due, dueKey(origin, next),
            Values.encodeDue(Validators.after(validators, record, fetchCount)));
        added += putNew(batch, unique, now);
        commit(batch, added);
        return null;
      } finally {
        writeLock.unlock();
      }
    });
  }

  @Override
  public Optional<UrlRecord> url(String url) {
    return call(() -> {
      byte[] value = rocks.db.get(rocks.urls, Keys.url(url));
      return value == null ? Optional.empty() : Optional.of(Values.decodeUrl(url, value));
    });
  }

  @Override
  public List<CrawlRecord> history(String url) {
    byte[] prefix = Keys.historyPrefix(url);
    return call(() -> {
      List<CrawlRecord> history = new ArrayList<>();
      scan(rocks.history, prefix, Keys.prefixEnd(prefix), Integer.MAX_VALUE,
          (key, value) -> history.add(Values.decodeCrawl(url, value)));
      return history;
    });
  }

  @Override
  public Optional<OriginState> originState(Origin origin) {
    return call(() -> {
      byte[] value = rocks.db.get(rocks.meta, Keys.originState(origin));
      return value == null ? Optional.empty() : Optional.of(Values.decodeOriginState(value));
    });
  }

  @Override
  public void saveOriginState(OriginState state) {
    call(() -> {
      rocks.db.put(rocks.meta, writeOptions, Keys.originState(state.origin()),
          Values.encodeOriginState(state));
      return null;
    });
  }

  /** {@inheritDoc} Sees the URLs as they were when it started; must not close the store. */
  @Override
  public void forEachUrl(Consumer<UrlRecord> visitor) {
    call(() -> {
      try (ReadOptions options = new ReadOptions().setFillCache(false);
          RocksIterator it = rocks.db.newIterator(rocks.urls, options)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          byte[] key = it.key();
          visitor.accept(Values.decodeUrl(Keys.url(key), it.value()));
        }
        it.status();
      }
      return null;
    });
  }

  @Override
  public long urlCount() {
    return urlCount;
  }

  /** Flushes and releases the directory; closing twice is harmless. */
  @Override
  public void close() {
    lifecycle.writeLock().lock();
    try {
      if (closed) return;
      closed = true;
      writeOptions.close();
      rocks.close();
    } finally {
      lifecycle.writeLock().unlock();
    }
  }

  /** Adds the URL and due-index entries of the candidates not known yet; caller holds writeLock. */
  private int putNew(WriteBatch batch, Map<String, Pending> unique, Instant now)
      throws RocksDBException {
    if (unique.isEmpty()) return 0;
    List<byte[]> keys = new ArrayList<>(unique.size());
    for (Pending pending : unique.values()) keys.add(pending.urlKey());
    List<byte[]> found =
        rocks.db.multiGetAsList(Collections.nCopies(keys.size(), rocks.urls), keys);
    int added = 0;
    int i = 0;
    for (Pending pending : unique.values()) {
      if (found.get(i++) != null) continue;
      Candidate candidate = pending.candidate();
      UrlRecord fresh = new UrlRecord(candidate.url(), candidate.depth(),
          candidate.discoveredFrom(), now, 0, Optional.empty(), Instant.EPOCH);
      batch.put(rocks.urls, pending.urlKey(), Values.encodeUrl(fresh));
      batch.put(rocks.due, dueKey(pending.origin(), fresh), CandidateBatch.NEW_DUE_VALUE);
      added++;
    }
    return added;
  }

  /** Writes the batch with the new URL count; caller holds writeLock. */
  private void commit(WriteBatch batch, int added) throws RocksDBException {
    long count = urlCount + added;
    batch.put(rocks.meta, Keys.URL_COUNT, new ByteWriter(8).writeLongBigEndian(count).toByteArray());
    rocks.db.write(writeOptions, batch);
    urlCount = count;
  }

  private static byte[] dueKey(String origin, UrlRecord url) {
    long field = url.fetchCount() == 0 ? Keys.NEVER_CRAWLED : Keys.dueField(url.nextFetchAt());
    return Keys.due(origin, field, url.depth(), url.url());
  }

  private interface EntryVisitor {
    void visit(byte[] key, byte[] value);
  }

  /** Visits up to {@code limit} entries in [from, to). */
  private void scan(ColumnFamilyHandle family, byte[] from, byte[] to, int limit,
      EntryVisitor visitor) throws RocksDBException {
    try (Slice upper = new Slice(to);
        ReadOptions options = new ReadOptions().setIterateUpperBound(upper);
        RocksIterator it = rocks.db.newIterator(family, options)) {
      int seen = 0;
      for (it.seek(from); it.isValid() && seen < limit; it.next(), seen++) {
        visitor.visit(it.key(), it.value());
      }
      it.status();
    }
  }

  private interface RocksCall<T> {
    T call() throws RocksDBException;
  }

  private <T> T call(RocksCall<T> body) {
    lifecycle.readLock().lock();
    try {
      if (closed) throw new IllegalStateException("the crawl store at " + rocks.dir + " is closed");
      return body.call();
    } catch (RocksDBException e) {
      throw new StoreException("crawl store at " + rocks.dir + ": " + e.getMessage(), e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }
}
