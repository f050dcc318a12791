package org.forager.store;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import org.forager.url.Origin;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The embedded crawl store: a RocksDB directory. See {@code docs/store.md} for the key layout.
 *
 * <p>Safe for concurrent use. Every method's writes go in one RocksDB write batch, so they are
 * atomic; the write-ahead log is written on every batch but not synced, so a return means the
 * write survives the process being killed, while a machine crash may lose the last moments.
 * Writes go through {@link GroupCommit}: lookups outside any lock, then concurrent calls written
 * together as one batch under one lock, which keeps deduplication exact. Only one process can
 * have a directory open at a time.
 *
 * <p>The validators a {@link DueCandidate} carries are those of the URL's last 2xx response,
 * updated by later 304 responses; crawl actions that brought no representation keep them.
 */
public final class RocksCrawlStore implements CrawlStore {

  /** RocksDB's native memory unless told otherwise: enough for crawls of about 10^7 URLs. */
  public static final long DEFAULT_MEMORY_BYTES = RocksTuning.DEFAULT_MEMORY_BYTES;
  /** The smallest budget accepted. */
  public static final long MIN_MEMORY_BYTES = RocksTuning.MIN_MEMORY_BYTES;

  private static final System.Logger LOG = System.getLogger(RocksCrawlStore.class.getName());

  private final RocksDatabase rocks;
  private final Clock clock;
  private final WriteOptions writeOptions = new WriteOptions().setSync(false);
  /** Read-held by every operation, write-held by close: native handles must not be used closed. */
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
  private boolean closed;
  /** Serializes the scope's writes: a discovered origin is written only when it is no seed's. */
  private final Object scopeLock = new Object();
  /** The exact-duplicate index ({@link #firstWithDigest}). */
  private final DigestIndex digests;
  /** The write path; set once the URL count is loaded. */
  private GroupCommit writes;

  /** Entries of the table of link targets ({@link LinkTargets}). */
  private final int linkTargets;

  private RocksCrawlStore(RocksDatabase rocks, Clock clock, int linkTargets) {
    this.rocks = rocks;
    this.clock = clock;
    this.linkTargets = linkTargets;
    this.digests = new DigestIndex(rocks);
  }

  /**
   * Opens the store in {@code dir}, creating it when missing.
   *
   * @throws StoreException naming the directory and the reason when it cannot be opened: it is
   *     locked by another process, its files are corrupt or of an unknown format, or unreadable
   */
  public static RocksCrawlStore open(Path dir) {
    return open(dir, DEFAULT_MEMORY_BYTES);
  }

  /**
   * Like {@link #open(Path)}, with a budget for RocksDB's native memory (block cache and memtables,
   * outside the Java heap; {@code store.memory}).
   *
   * @param memoryBytes at least {@link #MIN_MEMORY_BYTES}
   */
  public static RocksCrawlStore open(Path dir, long memoryBytes) {
    return open(dir, memoryBytes, Clock.systemUTC());
  }

  static RocksCrawlStore open(Path dir, Clock clock) {
    return open(dir, DEFAULT_MEMORY_BYTES, clock);
  }

  private static RocksCrawlStore open(Path dir, long memoryBytes, Clock clock) {
    return open(dir, memoryBytes, clock, LinkTargets.defaultCapacity());
  }

  /** With a table of {@code linkTargets} entries ({@link LinkTargets}; tests: a small one). */
  static RocksCrawlStore open(Path dir, long memoryBytes, Clock clock, int linkTargets) {
    return loaded(new RocksCrawlStore(RocksDatabase.open(dir, memoryBytes), clock, linkTargets));
  }

  /**
   * Opens the store in {@code dir} to read it, while a crawl runs on it or not, and whatever holds its
   * lock: for {@code forager status} and {@code export}. It sees the store as of the open (what the crawl
   * had written by then) and refuses every write with a {@link StoreException}; nothing in {@code dir}
   * changes, an old store's format is read as it is, not raised. See {@link RocksDatabase#openForReading}.
   *
   * @throws StoreException naming the directory when there is no store there or it cannot be read
   */
  public static RocksCrawlStore openForReading(Path dir, long memoryBytes) {
    return loaded(new RocksCrawlStore(RocksDatabase.openForReading(dir, memoryBytes), Clock.systemUTC(),
        LinkTargets.MIN_CAPACITY));
  }

  private static RocksCrawlStore loaded(RocksCrawlStore store) {
    try {
      store.loadMeta();
      return store;
    } catch (RuntimeException e) {
      try {
        store.close();
      } catch (RuntimeException closing) {
        // After a failed write (disk full) RocksDB's close fails too ("Seen error"): the first
        // error is the one that says why.
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /**
   * A filter of a family's keys ({@link KeyFilter}: a 64th of the heap, 1 to 64 MiB, made for 2.8
   * million keys with the launcher's heap), filled from the store when the family holds no more keys
   * than the filter is made for ({@code keys}: the URL count, exact; for the digests RocksDB's
   * estimate), by a scan of them (0.05 s for a million URLs on the benchmark machine); none for a
   * larger family, whose lookups all go to RocksDB as before.
   */
  private Optional<KeyFilter> keyFilter(ColumnFamilyHandle family, long keys) throws RocksDBException {
    long bytes = Math.clamp(Runtime.getRuntime().maxMemory() / 64, 1L << 20, 64L << 20);
    if (keys > KeyFilter.designedKeys(bytes)) return Optional.empty();
    KeyFilter filter = new KeyFilter(bytes);
    // Read whatever the count said (an estimate for the digests): an empty family costs one seek.
    try (RocksIterator it = rocks.db.newIterator(family)) {
      for (it.seekToFirst(); it.isValid(); it.next()) filter.add(it.key());
      it.status();
    }
    filter.complete();
    return Optional.of(filter);
  }

  private void loadMeta() {
    call(() -> {
      byte[] format = rocks.db.get(rocks.meta, Keys.FORMAT);
      if (format != null && (format.length != 1 || format[0] < 1 || format[0] > Keys.FORMAT_VERSION)) {
        throw new StoreException("cannot open the crawl store at " + rocks.dir
            + ": unknown store format " + Arrays.toString(format));
      }
      byte[] count = rocks.db.get(rocks.meta, Keys.URL_COUNT);
      long urls = count == null ? 0 : new ByteReader(count).readLongBigEndian();
      if (rocks.forReading) {
        // No filters: a reader makes no lookups worth a scan of every key first.
        writes = new GroupCommit(rocks, writeOptions, urls, linkTargets, Optional.empty());
        return null;
      }
      writes = new GroupCommit(rocks, writeOptions, urls, linkTargets, keyFilter(rocks.urls, urls));
      digests.useFilter(keyFilter(rocks.digests, rocks.db.getLongProperty(rocks.digests, "rocksdb.estimate-num-keys")));
      if (format == null || format[0] < Keys.FORMAT_VERSION) {
        // Format 1 had no agenda: built, then the format raised (a crash in between builds it again). A
        // version of Forager from before the agenda refuses format 2 rather than add URLs off the agenda.
        // Format 2 histories hold the last crawl too: read alike (history()), nothing to change.
        if (format != null && format[0] < Keys.AGENDA_FORMAT) buildAgenda();
        rocks.db.put(rocks.meta, writeOptions, Keys.FORMAT, new byte[] {(byte) Keys.FORMAT_VERSION});
      }
      if (rocks.db.get(rocks.meta, Keys.ORIGIN_URLS_COUNTED) == null) {
        if (urls > 0) countOriginUrls();
        rocks.db.put(rocks.meta, writeOptions, Keys.ORIGIN_URLS_COUNTED, new byte[0]);
      }
      return null;
    });
  }

  /**
   * A store from before the per-origin URL counts ({@link OriginUrlCounts}): each origin's URLs
   * counted ({@link UrlCap#weight}) by one scan of the URL family, in which an origin's URLs are one run of keys (they all
   * start with it and a '/'). About a million URLs a second; written in batches, the same values again
   * if a crash comes before the end.
   */
  private void countOriginUrls() throws RocksDBException {
    WriteBatch[] batch = {new WriteBatch()};
    try (RocksIterator it = rocks.db.newIterator(rocks.urls)) {
      String origin = null;
      long count = 0;
      for (it.seekToFirst(); it.isValid(); it.next()) {
        String url = Keys.url(it.key());
        boolean same = origin != null && url.startsWith(origin) && url.length() > origin.length()
            && url.charAt(origin.length()) == '/';
        String of = same ? origin : CandidateBatch.origin(url);
        if (of.equals(origin)) {
          count += UrlCap.weight(url);
          continue;
        }
        if (origin != null) putCount(batch, origin, count);
        origin = of;
        count = UrlCap.weight(url);
      }
      it.status();
      if (origin != null) putCount(batch, origin, count);
      if (batch[0].count() > 0) rocks.db.write(writeOptions, batch[0]);
    } finally {
      batch[0].close();
    }
  }

  private void putCount(WriteBatch[] batch, String origin, long count) throws RocksDBException {
    batch[0].put(rocks.meta, Keys.originUrls(origin), OriginUrlCounts.encode(count));
    if (batch[0].count() == 10_000) {
      rocks.db.write(writeOptions, batch[0]);
      batch[0].close();
      batch[0] = new WriteBatch();
    }
  }

  /** {@inheritDoc} Counted in the group that adds the URL, exactly; a lookup drops what it finds full. */
  @Override
  public void capUrls(UrlCap cap) {
    writes.cap(cap);
  }

  /**
   * A store from before the agenda (format 1): every origin of its scope goes on it with new work, so
   * that the first run looks at each once ({@link #settle} then puts it where its URLs say). Written in
   * batches; puts of the same keys, so building it twice does no harm.
   */
  private void buildAgenda() throws RocksDBException {
    WriteBatch[] batch = {new WriteBatch()};
    try {
      EntryVisitor add = (key, value) -> {
        try {
          batch[0].put(rocks.meta, Keys.agenda(Keys.NEW_WORK_FIELD,
              new String(key, 1, key.length - 1, StandardCharsets.UTF_8)), new byte[0]);
          if (batch[0].count() == 10_000) {
            rocks.db.write(writeOptions, batch[0]);
            batch[0].close();
            batch[0] = new WriteBatch();
          }
        } catch (RocksDBException e) {
          throw new StoreException("crawl store at " + rocks.dir + ": " + e.getMessage(), e);
        }
      };
      scanTable('S', add);
      scanTable('D', add);
      if (batch[0].count() > 0) rocks.db.write(writeOptions, batch[0]);
    } finally {
      batch[0].close();
    }
  }

  /** {@inheritDoc} One batch: each origin put under 'S' and deleted from 'D'. */
  @Override
  public void addScope(Collection<Origin> origins) {
    call(() -> {
      try (WriteBatch batch = new WriteBatch()) {
        for (Origin origin : origins) {
          batch.put(rocks.meta, Keys.scope(origin), Values.encodeOrigin(origin));
          batch.delete(rocks.meta, Keys.discovered(origin));
        }
        synchronized (scopeLock) {
          rocks.db.write(writeOptions, batch);
        }
      }
      return null;
    });
  }

  /** {@inheritDoc} One lookup of the seeds' keys, then one batch of those not among them, under 'D'. */
  @Override
  public void addDiscoveredOrigins(Collection<Origin> origins) {
    List<Origin> unique = List.copyOf(new LinkedHashSet<>(origins));
    if (unique.isEmpty()) return;
    List<byte[]> seedKeys = unique.stream().map(Keys::scope).toList();
    call(() -> {
      try (WriteBatch batch = new WriteBatch()) {
        // Under the lock that addScope writes under: a seed added between the lookup and the write
        // would otherwise be left under 'D' as well.
        synchronized (scopeLock) {
          List<byte[]> seeds = rocks.db.multiGetAsList(Collections.nCopies(unique.size(), rocks.meta), seedKeys);
          for (int i = 0; i < unique.size(); i++) {
            if (seeds.get(i) != null) continue;
            Origin origin = unique.get(i);
            batch.put(rocks.meta, Keys.discovered(origin), Values.encodeOrigin(origin));
          }
          if (batch.count() > 0) rocks.db.write(writeOptions, batch);
        }
      }
      return null;
    });
  }

  @Override
  public Set<Origin> scope() {
    return call(() -> {
      // Keys come in origin order (ASCII origins sort the same as bytes and as strings), so a
      // linked set keeps that order; a TreeSet would compare 20 origins per insert, which took
      // 6 s for 10^6 origins on resume. Sized from the meta family's key count (scope and origin
      // states, an estimate) so that it does not grow by rehashing a million entries 17 times.
      // The discovered origins ('D') are merged into the seeds' ('S') as they come, in order too.
      long estimate = rocks.db.getLongProperty(rocks.meta, "rocksdb.estimate-num-keys");
      Set<Origin> scope = LinkedHashSet.newLinkedHashSet(Math.clamp(estimate, 16, 1 << 24));
      List<byte[]> discoveredKeys = new ArrayList<>();
      List<Origin> discovered = new ArrayList<>();
      scanTable('D', (key, value) -> {
        discoveredKeys.add(key);
        discovered.add(Values.decodeOrigin(value));
      });
      int[] next = {0};
      scanTable('S', (key, value) -> {
        while (next[0] < discovered.size() && originKeyBefore(discoveredKeys.get(next[0]), key)) {
          scope.add(discovered.get(next[0]++));
        }
        scope.add(Values.decodeOrigin(value));
      });
      scope.addAll(discovered.subList(next[0], discovered.size()));
      return Collections.unmodifiableSet(scope);
    });
  }

  /** {@inheritDoc} A bounded scan of each of 'S' and 'D' from just past {@code after}, merged. */
  @Override
  public List<Origin> scopeOrigins(Optional<Origin> after, int limit) {
    if (limit <= 0) return List.of();
    return call(() -> {
      List<byte[]> seedKeys = new ArrayList<>();
      List<Origin> seeds = new ArrayList<>();
      scanAfter('S', after, limit, (key, value) -> {
        seedKeys.add(key);
        seeds.add(Values.decodeOrigin(value));
      });
      List<byte[]> discoveredKeys = new ArrayList<>();
      List<Origin> discovered = new ArrayList<>();
      scanAfter('D', after, limit, (key, value) -> {
        discoveredKeys.add(key);
        discovered.add(Values.decodeOrigin(value));
      });
      List<Origin> merged = new ArrayList<>(Math.min(limit, seeds.size() + discovered.size()));
      int i = 0;
      int j = 0;
      while (merged.size() < limit && (i < seeds.size() || j < discovered.size())) {
        boolean seedFirst = j >= discovered.size()
            || i < seeds.size() && originKeyBefore(seedKeys.get(i), discoveredKeys.get(j));
        merged.add(seedFirst ? seeds.get(i++) : discovered.get(j++));
      }
      return merged;
    });
  }

  @Override
  public List<Origin> seedOrigins(Optional<Origin> after, int limit) {
    if (limit <= 0) return List.of();
    return call(() -> {
      List<Origin> seeds = new ArrayList<>(Math.min(limit, 10_000));
      scanAfter('S', after, limit, (key, value) -> seeds.add(Values.decodeOrigin(value)));
      return seeds;
    });
  }

  /** Visits up to {@code limit} entries of a meta table whose origin comes after {@code after}. */
  private void scanAfter(char table, Optional<Origin> after, int limit, EntryVisitor visitor) throws RocksDBException {
    byte[] prefix = Keys.meta(table, "");
    byte[] from = after.map(o -> {
      byte[] key = Keys.meta(table, o.toString());
      return Arrays.copyOf(key, key.length + 1); // the first key after it: the same bytes and a 0
    }).orElse(prefix);
    scan(rocks.meta, from, Keys.prefixEnd(prefix), limit, visitor);
  }

  /** {@inheritDoc} One multi-get of the origins' keys in both tables. */
  @Override
  public Set<Origin> inScope(Collection<Origin> origins) {
    List<Origin> unique = List.copyOf(new LinkedHashSet<>(origins));
    if (unique.isEmpty()) return Set.of();
    List<byte[]> keys = new ArrayList<>(unique.size() * 2);
    for (Origin origin : unique) {
      keys.add(Keys.scope(origin));
      keys.add(Keys.discovered(origin));
    }
    return call(() -> {
      List<byte[]> values = rocks.db.multiGetAsList(Collections.nCopies(keys.size(), rocks.meta), keys);
      Set<Origin> found = new HashSet<>();
      for (int i = 0; i < unique.size(); i++) {
        if (values.get(2 * i) != null || values.get(2 * i + 1) != null) found.add(unique.get(i));
      }
      return found;
    });
  }

  /** {@inheritDoc} A scan of the keys of both tables (about 10^6 keys a second). */
  @Override
  public long scopeCount() {
    return call(() -> {
      long[] count = {0};
      scanTable('S', (key, value) -> count[0]++);
      scanTable('D', (key, value) -> count[0]++);
      return count[0];
    });
  }

  /** {@inheritDoc} The 'S' table. */
  @Override
  public Set<Origin> seedOrigins() {
    return call(() -> {
      Set<Origin> seeds = new LinkedHashSet<>();
      scanTable('S', (key, value) -> seeds.add(Values.decodeOrigin(value)));
      return Collections.unmodifiableSet(seeds);
    });
  }

  /** Whether meta key {@code a}'s name sorts before {@code b}'s, their one-byte tables aside. */
  private static boolean originKeyBefore(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, 1, a.length, b, 1, b.length) < 0;
  }

  private void scanTable(char table, EntryVisitor visitor) throws RocksDBException {
    byte[] prefix = Keys.meta(table, "");
    scan(rocks.meta, prefix, Keys.prefixEnd(prefix), Integer.MAX_VALUE, visitor);
  }

  /** {@inheritDoc} A bounded scan of the 'W' table from just past {@code after} to the cutoff's key. */
  @Override
  public List<AgendaEntry> agenda(Instant cutoff, Optional<AgendaEntry> after, int limit) {
    if (limit <= 0) return List.of();
    byte[] from = after.map(e -> {
      byte[] key = Keys.agenda(e);
      return Arrays.copyOf(key, key.length + 1); // the first key after it
    }).orElse(new byte[] {'W'});
    return call(() -> {
      List<AgendaEntry> entries = new ArrayList<>(Math.min(limit, 1_024));
      scan(rocks.meta, from, Keys.agendaUpperBound(cutoff), limit, (key, value) -> entries.add(
          new AgendaEntry(Keys.fieldTime(Keys.agendaField(key)), Origin.ofUrl(Keys.agendaOrigin(key)))));
      return entries;
    });
  }

  /** {@inheritDoc} Two seeks in the origin's due keys and a get, under the group commit's lock. */
  @Override
  public Optional<Instant> settle(Origin origin, Optional<Instant> takeUpBy) {
    return call(() -> writes.settle(origin.toString(), takeUpBy));
  }

  @Override
  public int addCandidates(Collection<Candidate> candidates) {
    Map<String, Pending> unique = CandidateBatch.unique(candidates, Optional.empty());
    if (unique.isEmpty()) return 0;
    WriteRequest request = new WriteRequest(unique, Optional.empty(), clock.instant());
    return call(() -> writes.submit(request));
  }

  /** {@inheritDoc} Two ranges of the due index, the never-crawled URLs and the recrawls due, merged. */
  @Override
  public List<DueCandidate> due(Origin origin, Instant cutoff, int limit) {
    if (limit <= 0) return List.of();
    byte[] prefix = Keys.duePrefix(origin);
    byte[] firstRecrawl = Keys.firstRecrawl(origin);
    return call(() -> {
      List<DueCandidate> fresh = new ArrayList<>(Math.min(limit, 64));
      List<byte[]> freshKeys = new ArrayList<>(Math.min(limit, 64));
      List<DueCandidate> recrawls = new ArrayList<>(Math.min(limit, 64));
      boolean freshLeft = false; // never-crawled keys past the limit may follow
      // Past the deleted keys of the URLs taken since the origin's first scan (DueStarts); before the
      // iterator is opened.
      DueStarts.Seek start = writes.dueSeek(origin.toString(), prefix);
      // One iterator for both ranges (an iterator's making is most of a short scan's cost): bounded
      // by the cutoff's key, which is past every never-crawled key of the origin.
      try (Slice upper = new Slice(Keys.dueUpperBound(origin, cutoff));
          ReadOptions options = new ReadOptions().setIterateUpperBound(upper);
          RocksIterator it = rocks.db.newIterator(rocks.due, options)) {
        boolean atRecrawls = false; // where a seek to the first recrawl would put the iterator
        it.seek(start.from());
        byte[] first = it.isValid() ? it.key() : firstRecrawl;
        writes.dueScanned(start, Arrays.compareUnsigned(first, firstRecrawl) < 0 ? first : firstRecrawl);
        for (; it.isValid(); it.next()) {
          byte[] key = it.key();
          if (Arrays.compareUnsigned(key, firstRecrawl) >= 0) {
            atRecrawls = true;
            break;
          }
          if (fresh.size() == limit) {
            freshLeft = true;
            break;
          }
          fresh.add(dueCandidate(key, it.value(), prefix));
          freshKeys.add(key);
        }
        it.status();
        // Past the upper bound already: no recrawl is due either. Stopped at the limit: seek (a seek is
        // most of a short read's cost, so only then).
        if (!atRecrawls && it.isValid()) it.seek(firstRecrawl);
        for (; it.isValid() && recrawls.size() < limit; it.next()) {
          recrawls.add(dueCandidate(it.key(), it.value(), prefix));
        }
        it.status();
      }
      GroupCommit.Raises raises = writes.heldRaises(origin.toString(), fresh, limit);
      if (!raises.first().isEmpty() || !raises.moved().isEmpty()) {
        fresh = withRaises(fresh, freshKeys, freshLeft, raises, limit);
      }
      return alternate(fresh, recrawls, limit);
    });
  }

  /**
   * The first {@code limit} never-crawled URLs once the raises held in memory are in: the scanned ones
   * ({@code keys} in order) but those whose raise is held (the index has their older, later key),
   * merged with the raises up to the last key scanned when more may follow ({@code scanLeftSome}), all
   * of them otherwise. Exact as of the scan: a raise only moves a key earlier, so every URL whose key
   * now comes before that last one was scanned or is held. A raise written meanwhile (its entry
   * evicted) is seen at the key the scan read, its older one: the URL is in the list, a little later.
   */
  private static List<DueCandidate> withRaises(List<DueCandidate> scanned, List<byte[]> keys, boolean scanLeftSome,
      GroupCommit.Raises raises, int limit) {
    List<GroupCommit.Raise> raised = raises.first();
    Set<String> moved = raises.moved();
    byte[] last = scanLeftSome ? keys.get(keys.size() - 1) : null;
    List<DueCandidate> merged = new ArrayList<>(Math.min(limit, scanned.size() + raised.size()));
    int r = 0;
    for (int i = 0; i < scanned.size() && merged.size() < limit; i++) {
      if (moved.contains(scanned.get(i).url())) continue;
      for (; r < raised.size() && merged.size() < limit
          && Arrays.compareUnsigned(raised.get(r).key(), keys.get(i)) < 0; r++) {
        merged.add(raised.get(r).due());
      }
      if (merged.size() < limit) merged.add(scanned.get(i));
    }
    for (; r < raised.size() && merged.size() < limit
        && (last == null || Arrays.compareUnsigned(raised.get(r).key(), last) <= 0); r++) {
      merged.add(raised.get(r).due());
    }
    return merged;
  }

  private static DueCandidate dueCandidate(byte[] key, byte[] value, byte[] prefix) {
    ByteReader suffix = Keys.dueSuffix(key, prefix.length);
    int depth = suffix.readShortBigEndian();
    String url = suffix.readRestAsString();
    Values.DueEntry entry = Values.decodeDue(value);
    return new DueCandidate(url, depth, entry.etag(), entry.lastModified(), entry.fetchCount(),
        Ranking.dequantize(entry.priority()), entry.hops());
  }

  /** The two lists one for one, {@code first}'s first, then the rest of the longer; at most {@code limit}. */
  private static <T> List<T> alternate(List<T> first, List<T> second, int limit) {
    List<T> merged = new ArrayList<>(Math.min(limit, first.size() + second.size()));
    for (int i = 0; merged.size() < limit && (i < first.size() || i < second.size()); i++) {
      if (i < first.size()) merged.add(first.get(i));
      if (i < second.size() && merged.size() < limit) merged.add(second.get(i));
    }
    return merged;
  }

  @Override
  public void record(CrawlRecord record, Collection<Candidate> discovered) {
    String origin = CandidateBatch.origin(record.url()); // validates it
    Map<String, Pending> unique = CandidateBatch.unique(discovered, Optional.of(record.url()));
    submitRecords(List.of(), new WriteRequest(unique, Optional.of(record), clock.instant()), origin);
  }

  /**
   * Writes {@code before}'s records (nothing discovered) and then a record's call as one submission
   * ({@link GroupCommit#submitAll}), the last with its body's digest registration when that is pending.
   */
  private void submitRecords(List<CrawlRecord> before, WriteRequest request, String origin) {
    List<WriteRequest> requests = withoutCandidates(before);
    requests.add(request);
    CrawlRecord record = request.record.orElseThrow();
    Optional<DigestIndex.Registration> registration = digests.pendingFor(record, origin);
    registration.ifPresent(request::registering);
    try {
      call(() -> writes.submitAll(requests));
    } finally {
      registration.ifPresent(r -> digests.settled(r, record.url()));
    }
  }

  /** A call with no candidates for each record, their URLs validated; room for one more. */
  private List<WriteRequest> withoutCandidates(List<CrawlRecord> records) {
    Instant now = clock.instant();
    List<WriteRequest> requests = new ArrayList<>(records.size() + 1);
    for (CrawlRecord record : records) {
      CandidateBatch.origin(record.url()); // validates it
      requests.add(new WriteRequest(Map.of(), Optional.of(record), now));
    }
    return requests;
  }

  /** {@inheritDoc} Exact: the due keys the write puts for the origin merged with those of {@code held}. */
  @Override
  public List<DueCandidate> record(CrawlRecord record, Collection<Candidate> discovered, List<DueCandidate> held) {
    return record(List.of(), record, discovered, held);
  }

  /**
   * {@inheritDoc} One submission to the group commit ({@link GroupCommit#submitAll}): the records are
   * normally written in one batch, and then never in part.
   */
  @Override
  public void recordAll(List<CrawlRecord> records) {
    if (records.isEmpty()) return;
    List<WriteRequest> requests = withoutCandidates(records);
    call(() -> writes.submitAll(requests));
  }

  /**
   * {@inheritDoc} One submission to the group commit ({@link GroupCommit#submitAll}): all normally in
   * one batch (one write-ahead-log append), so that a failure writes none of them.
   */
  @Override
  public List<DueCandidate> record(List<CrawlRecord> before, CrawlRecord record, Collection<Candidate> discovered,
      List<DueCandidate> held) {
    String origin = CandidateBatch.origin(record.url()); // validates it
    Map<String, Pending> unique = CandidateBatch.unique(discovered, Optional.of(record.url()));
    WriteRequest request = new WriteRequest(unique, Optional.of(record), clock.instant()).holding(origin, held);
    submitRecords(before, request, origin);
    return request.heldAfter();
  }

  /**
   * {@inheritDoc} The gate is asked after the lookup, outside the write lock; its refusals go in the
   * page's write (one submission, as above). With {@code held} empty the answer is empty.
   */
  @Override
  public List<DueCandidate> record(List<CrawlRecord> before, CrawlRecord record, Collection<Candidate> discovered,
      List<DueCandidate> held, DiscoveryGate gate) {
    String origin = CandidateBatch.origin(record.url()); // validates it
    Map<String, Pending> unique = CandidateBatch.unique(discovered, Optional.of(record.url()));
    WriteRequest request = new WriteRequest(unique, Optional.of(record), clock.instant()).gated(gate);
    if (!held.isEmpty()) request.holding(origin, held);
    submitRecords(before, request, origin);
    return held.isEmpty() ? List.of() : request.heldAfter();
  }

  /** {@inheritDoc} True: its lookup offers the gate every candidate it finds unknown ({@link WriteRequest#askGate}). */
  @Override
  public boolean offersUnknownToGate() {
    return true;
  }

  @Override
  public boolean bringForward(String url, Instant dueAt) {
    CandidateBatch.origin(url); // validates it
    WriteRequest request = new WriteRequest(new WriteRequest.BringForward(url, dueAt), clock.instant());
    call(() -> writes.submit(request));
    return request.moved;
  }

  /** {@inheritDoc} The holder is decided in memory and written with its URL's next record ({@link DigestIndex}). */
  @Override
  public Optional<String> firstWithDigest(String digest, String url) {
    String origin = CandidateBatch.origin(url);
    return call(() -> {
      String holder = digests.holder(origin, digest, url);
      return holder.equals(url) ? Optional.empty() : Optional.of(holder);
    });
  }

  /** {@inheritDoc} With the inlinks held in memory ({@link LinkTargets}). */
  @Override
  public Optional<UrlRecord> url(String url) {
    return call(() -> writes.read(url));
  }

  /**
   * {@inheritDoc} The history family's entries with the URL record's last crawl in its place (not in
   * that family since format 3; a format-2 store has it there too, under the same key), both read from
   * one snapshot.
   */
  @Override
  public List<CrawlRecord> history(String url) {
    byte[] prefix = Keys.historyPrefix(url);
    return call(() -> {
      // A reader (a secondary instance) has no snapshots, nor needs one: it sees the store as of its open.
      Snapshot snapshot = rocks.forReading ? null : rocks.db.getSnapshot();
      try (ReadOptions options = new ReadOptions()) {
        if (snapshot != null) options.setSnapshot(snapshot);
        List<byte[]> keys = new ArrayList<>();
        List<CrawlRecord> history = new ArrayList<>();
        scan(rocks.history, prefix, Keys.prefixEnd(prefix), Integer.MAX_VALUE, snapshot, (key, value) -> {
          keys.add(key);
          history.add(Values.decodeCrawl(url, value));
        });
        byte[] value = rocks.db.get(rocks.urls, options, Keys.url(url));
        UrlRecord record = value == null ? null : Values.decodeUrl(url, value);
        if (record != null && record.lastCrawl().isPresent()) {
          CrawlRecord last = record.lastCrawl().get();
          byte[] lastKey = Keys.history(url, last.fetchedAt(), record.fetchCount());
          int at = 0;
          while (at < keys.size() && Arrays.compareUnsigned(keys.get(at), lastKey) < 0) at++;
          if (at == keys.size() || !Arrays.equals(keys.get(at), lastKey)) history.add(at, last);
        }
        return history;
      } finally {
        if (snapshot != null) rocks.db.releaseSnapshot(snapshot);
      }
    });
  }

  @Override
  public Optional<OriginState> originState(Origin origin) {
    return call(() -> {
      byte[] value = rocks.db.get(rocks.meta, Keys.originState(origin));
      return value == null ? Optional.empty() : Optional.of(Values.decodeOriginState(value));
    });
  }

  /** {@inheritDoc} A scan of the meta family's origin states. */
  @Override
  public void forEachOriginState(java.util.function.Consumer<OriginState> visitor) {
    call(() -> {
      scanTable('O', (key, value) -> visitor.accept(Values.decodeOriginState(value)));
      return null;
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

  @Override
  public Optional<String> setting(String name) {
    byte[] key = Keys.setting(CrawlSettings.checkName(name));
    return call(() -> {
      byte[] value = rocks.db.get(rocks.meta, key);
      return value == null ? Optional.empty() : Optional.of(Values.decodeSetting(value));
    });
  }

  /** {@inheritDoc} One put, written to the write-ahead log as {@link #saveOriginState} is. */
  @Override
  public void saveSetting(String name, String value) {
    byte[] key = Keys.setting(CrawlSettings.checkName(name));
    byte[] encoded = Values.encodeSetting(CrawlSettings.checkValue(name, value));
    call(() -> {
      rocks.db.put(rocks.meta, writeOptions, key, encoded);
      return null;
    });
  }

  /** {@inheritDoc} The 'B' table. */
  @Override
  public List<Block> blocks() {
    return call(() -> {
      List<Block> blocks = new ArrayList<>();
      scanTable('B', (key, value) ->
          blocks.add(Values.decodeBlock(new String(key, 1, key.length - 1, StandardCharsets.UTF_8), value)));
      return List.copyOf(blocks);
    });
  }

  /** {@inheritDoc} One put, written to the write-ahead log as {@link #saveSetting} is. */
  @Override
  public void block(Block block) {
    call(() -> {
      rocks.db.put(rocks.meta, writeOptions, Keys.block(block.host()), Values.encodeBlock(block));
      return null;
    });
  }

  @Override
  public boolean unblock(String host) {
    byte[] key = Keys.block(Block.checkHost(host));
    return call(() -> {
      // Under the lifecycle lock, not atomic with a block of the same host at once: the operator's
      // actions come one at a time.
      if (rocks.db.get(rocks.meta, key) == null) return false;
      rocks.db.delete(rocks.meta, writeOptions, key);
      return true;
    });
  }

  /**
   * {@inheritDoc} Sees the URLs as they were when it started, the inlinks held in memory written
   * first; must not close the store.
   */
  @Override
  public void forEachUrl(Consumer<UrlRecord> visitor) {
    call(() -> {
      writes.drainHeld(clock.instant());
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

  /** The database underneath, for tests that must make what an older version wrote. */
  RocksDatabase database() {
    return rocks;
  }

  /** How many inlinks the store holds in memory now ({@link LinkTargets}). */
  long heldInlinks() {
    return writes.heldInlinks();
  }

  /** Bytes of the link targets' slots now ({@link LinkTargets}; tests). */
  int linkTargetSlotBytes() {
    return writes.linkTargetSlotBytes();
  }

  /** Forgets what the link targets hold, as a failed write does (tests). */
  void clearLinkTargets() {
    writes.clearLinkTargets();
  }

  /** How many URL keys the writes' lookups read (tests). */
  long lookedUpKeys() {
    return writes.lookedUpKeys();
  }

  /** How many group writes the URL table's calls took (tests). */
  long groupsWritten() {
    return writes.groupsWritten();
  }

  /** The longest batch a group of the URL table's calls built (tests). */
  long largestGroupBytes() {
    return writes.largestGroupBytes();
  }

  /** How many raises of never-crawled URLs the store holds in memory now (tests). */
  int heldRaises() {
    return writes.heldRaiseCount();
  }

  /** The block cache's capacity in bytes: half of the store's memory budget. */
  long blockCacheCapacity() {
    return call(() -> rocks.db.getLongProperty(rocks.urls, "rocksdb.block-cache-capacity"));
  }

  @Override
  public long urlCount() {
    return writes.urlCount();
  }

  /** None: an embedded store has one writer, the process that opened it. */
  @Override
  public Optional<OriginLeases> leases() {
    return Optional.empty();
  }

  /** Flushes and releases the directory; closing twice is harmless. */
  @Override
  public void close() {
    lifecycle.writeLock().lock();
    try {
      if (closed) return;
      closed = true;
      if (rocks.forReading) {
        writeOptions.close();
        rocks.close();
        return;
      }
      try {
        digests.writePending(writeOptions);
      } catch (RocksDBException | RuntimeException e) {
        // Lost as in a crash: those pages become holders when fetched again.
        LOG.log(System.Logger.Level.WARNING, "could not write the last exact-duplicate registrations", e);
      }
      try {
        if (writes != null) writes.drainHeld(clock.instant());
      } catch (RocksDBException | RuntimeException e) {
        // Lost as in a crash: the inlinks counted since those URLs' last priority change.
        LOG.log(System.Logger.Level.WARNING, "could not write the inlinks held in memory", e);
      }
      writeOptions.close();
      rocks.close();
    } finally {
      lifecycle.writeLock().unlock();
    }
  }

  private interface EntryVisitor {
    void visit(byte[] key, byte[] value);
  }

  /** Visits up to {@code limit} entries in [from, to). */
  private void scan(ColumnFamilyHandle family, byte[] from, byte[] to, int limit,
      EntryVisitor visitor) throws RocksDBException {
    scan(family, from, to, limit, null, visitor);
  }

  /** {@link #scan} as of {@code snapshot} (null: now). */
  private void scan(ColumnFamilyHandle family, byte[] from, byte[] to, int limit, Snapshot snapshot,
      EntryVisitor visitor) throws RocksDBException {
    try (Slice upper = new Slice(to);
        ReadOptions options = new ReadOptions().setIterateUpperBound(upper)) {
      if (snapshot != null) options.setSnapshot(snapshot);
      try (RocksIterator it = rocks.db.newIterator(family, options)) {
        int seen = 0;
        for (it.seek(from); it.isValid() && seen < limit; it.next(), seen++) {
          visitor.visit(it.key(), it.value());
        }
        it.status();
      }
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
