package org.forager.store;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The RocksDB store's exact-duplicate index ({@link CrawlStore#firstWithDigest}): a holder is decided
 * at once, in memory, and written with its URL's next record, in that record's batch, rather than by
 * a write of its own (one a page, 1.6 % of a crawl's CPU, issue 15). Until then the registration is
 * pending here; what is still pending at close is written then. A crash loses pending registrations,
 * as it lost a registration written just before the page's record: the page becomes the holder when
 * it is fetched again. Thread-safe.
 */
final class DigestIndex {

  /** A digest in one origin: the index's key. */
  record Registration(String origin, String digest) {

    byte[] key() {
      return Keys.digest(origin, digest);
    }
  }

  private final RocksDatabase rocks;
  /** Registrations decided and not written yet: the holder's URL. */
  private final ConcurrentHashMap<Registration, String> pending = new ConcurrentHashMap<>();
  /**
   * Every key the family holds or will (a registration's key is added as it is decided, before it is
   * pending), when kept ({@link KeyFilter}); set at open.
   */
  private volatile Optional<KeyFilter> filter = Optional.empty();

  DigestIndex(RocksDatabase rocks) {
    this.rocks = rocks;
  }

  /**
   * The holder of {@code digest} in {@code origin}, {@code url} when none was: pending or written.
   * Per key, under the map's lock: a registration is removed from it only once its write is in, so a
   * read here that misses the write finds it pending.
   */
  String holder(String origin, String digest, String url) throws RocksDBException {
    Registration registration = new Registration(origin, digest);
    String[] holder = new String[1];
    try {
      pending.compute(registration, (key, pendingUrl) -> {
        if (pendingUrl != null) {
          holder[0] = pendingUrl;
          return pendingUrl;
        }
        byte[] bytes = key.key();
        // A key the filter lacks was neither written nor decided: a registration is added to it
        // before it is pending, and this runs under the key's lock, after any earlier decision of it.
        byte[] stored = filter.isPresent() && !filter.get().mayContain(bytes) ? null : get(bytes);
        if (stored == null) filter.ifPresent(f -> f.add(bytes));
        holder[0] = stored == null ? url : new String(stored, StandardCharsets.UTF_8);
        return stored == null ? url : null;
      });
    } catch (Unchecked e) {
      throw e.cause;
    }
    return holder[0];
  }

  /** From now on, {@code filter} (complete: every key the family holds) answers for the keys it lacks. */
  void useFilter(Optional<KeyFilter> filter) {
    this.filter = filter;
  }

  /** The registration of {@code record}'s body by its URL when it is pending: to write with the record. */
  Optional<Registration> pendingFor(CrawlRecord record, String origin) {
    if (record.digest().isEmpty()) return Optional.empty();
    Registration registration = new Registration(origin, record.digest().get());
    return record.url().equals(pending.get(registration)) ? Optional.of(registration) : Optional.empty();
  }

  /** Puts a pending registration in a batch (of its URL's record). */
  static void put(BatchBytes batch, RocksDatabase rocks, Registration registration, String url) {
    batch.put(rocks.digests, registration.key(), url.getBytes(StandardCharsets.UTF_8));
  }

  /** The batch holding {@code registration} was written, or failed (then it is lost, as in a crash). */
  void settled(Registration registration, String url) {
    pending.remove(registration, url);
  }

  /** Writes what is pending; the store is closing (no other call runs). */
  void writePending(WriteOptions options) throws RocksDBException {
    if (pending.isEmpty()) return;
    BatchBytes batch = new BatchBytes(rocks.families);
    for (Map.Entry<Registration, String> e : pending.entrySet()) put(batch, rocks, e.getKey(), e.getValue());
    try (WriteBatch serialized = batch.toWriteBatch()) {
      rocks.db.write(options, serialized);
    }
    pending.clear();
  }

  private byte[] get(byte[] key) {
    try {
      // Most bodies are new: the Bloom filters answer a miss without a read and without the C++ exception
      // RocksJava's get throws and catches for "not found" (issue 15: the lookup's CPU a third lower).
      if (!rocks.db.keyMayExist(rocks.digests, key, null)) return null;
      return rocks.db.get(rocks.digests, key);
    } catch (RocksDBException e) {
      throw new Unchecked(e);
    }
  }

  /** Carries a RocksDB failure out of the map's function. */
  private static final class Unchecked extends RuntimeException {
    private final RocksDBException cause;

    Unchecked(RocksDBException cause) {
      super(cause);
      this.cause = cause;
    }
  }
}
