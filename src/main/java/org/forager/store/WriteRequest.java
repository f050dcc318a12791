package org.forager.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.forager.url.UrlFingerprint;
import org.rocksdb.RocksDBException;

/**
 * One {@code addCandidates}, {@code record} or {@code bringForward} call on its way through
 * {@link GroupCommit}: the validated, deduplicated candidates, the crawl to record or the due time
 * to bring forward if any, what the database said about them when the call looked them up outside
 * the write lock (and at which commit), and, once its group is written, the outcome. Used by the
 * calling thread and, under the write lock, by the thread that writes its group: the caller reads
 * the outcome after seeing {@link #done()}, which the writer sets last (a volatile write orders
 * the two; the caller need not take the lock).
 */
final class WriteRequest {

  /** A URL as a write finds it: its record and the validators its due entry carries. */
  record Known(UrlRecord url, Values.DueEntry validators) {}

  final List<Pending> candidates;
  final Optional<CrawlRecord> record;
  /** A {@code bringForward} call: the URL and its new due time. */
  final Optional<BringForward> bringForward;
  final Instant now;

  record BringForward(String url, Instant dueAt) {}

  /** The latest commit visible to the lookups. */
  long seen;
  /**
   * Per candidate: its URL record's value as the lookup found it, null when unknown, {@link #SKIPPED}
   * when not looked up ({@link LinkTargets#mayHold}), {@link #CRAWLED} when known crawled.
   */
  byte[][] found;
  /** A value of {@link #found}: the candidate was not looked up, its URL looked held. */
  static final byte[] SKIPPED = new byte[0];
  /** A value of {@link #found}: the candidate was not looked up, its URL is crawled ({@link CrawledFingerprints}). */
  static final byte[] CRAWLED = new byte[0];
  /** A value of {@link #found} until the lookup's answers are in: the filter says the store has no such URL. */
  private static final byte[] ABSENT = new byte[0];
  /** A call that writes held inlinks ({@link LinkTargets#drain}), and nothing else. */
  boolean drainsHeld;
  /** A {@link #drainsHeld} call: whether inlinks are still held after it; set with its group's write. */
  boolean heldLeft;
  /** Whether the recorded crawl is its URL's first: its links then count as inlinks. Set by the write. */
  boolean firstCrawl;
  /** The URL recorded or brought forward as the lookup found it; empty when unknown, neither, or skipped. */
  Optional<Known> recorded = Optional.empty();
  /**
   * Whether the URL recorded or brought forward was not looked up: the link targets seemed to hold its
   * record ({@link LinkTargets#mayHoldRecord}).
   */
  boolean updatedSkipped;
  /** Whether the URL recorded or brought forward was not looked up: the filter said the store has no such URL. */
  private boolean updatedAbsent;

  /** A {@code bringForward} call: whether the due time moved; set with its group's write. */
  boolean moved;

  /** A candidate the {@link DiscoveryGate} refused as it was found, with the refusal to record for it. */
  record Refused(Pending pending, CrawlRecord refusal) {}

  /** The gate the call's unknown candidates are offered to ({@link #askGate}); null for none. */
  private DiscoveryGate gate;
  /** The candidates the gate refused, taken out of {@link #candidates}, in their order. */
  List<Refused> refusedNew = List.of();
  /** The commit the lookup that found {@link #refusedNew} unknown saw (a later lookup may move {@link #seen}). */
  long refusedSeen;

  /** The recorded body's exact-duplicate registration, written with the record; empty when none is pending. */
  Optional<DigestIndex.Registration> registration = Optional.empty();

  /** What the caller holds of the recorded URL's origin ({@link #holding}), else null. */
  private HeldDue held;

  /**
   * Set last by the group that wrote (or failed) the call: the caller reads every result field after
   * seeing it, without the lock.
   */
  private volatile boolean done;
  /** The thread waiting for the call; unparked when it is done. */
  private Thread waiter;
  private int added;
  private Exception failure;

  WriteRequest(Map<String, Pending> candidates, Optional<CrawlRecord> record, Instant now) {
    this.candidates = new ArrayList<>(candidates.values());
    this.record = record;
    this.bringForward = Optional.empty();
    this.now = now;
  }

  /** A call that writes held inlinks into their URLs' records, as many as one group may. */
  static WriteRequest drainingHeld(Instant now) {
    WriteRequest request = new WriteRequest(Map.of(), Optional.empty(), now);
    request.drainsHeld = true;
    return request;
  }

  WriteRequest(BringForward bringForward, Instant now) {
    this.candidates = List.of();
    this.record = Optional.empty();
    this.bringForward = Optional.of(bringForward);
    this.now = now;
  }

  /** Writes {@code pending}, the registration of the recorded body by its URL, with the record. */
  void registering(DigestIndex.Registration pending) {
    registration = Optional.of(pending);
  }

  /** This call, for a caller holding {@code due} of {@code origin}'s never-crawled URLs, in due order. */
  WriteRequest holding(String origin, List<DueCandidate> due) {
    held = new HeldDue(origin, due, record.orElseThrow().url());
    return this;
  }

  /** Offers the candidates the lookup finds unknown to {@code gate} ({@link #askGate}). */
  WriteRequest gated(DiscoveryGate gate) {
    this.gate = gate;
    return this;
  }

  /**
   * After the lookup, outside the lock: drops each candidate found unknown whose origin {@code counts}
   * finds full (telling its cap), offers the others found unknown to the gate, and moves the ones it
   * refuses from {@link #candidates} (and {@link #found}) to {@link #refusedNew}. The write corrects a
   * lookup that is out of date, as for any candidate.
   */
  void askGate(OriginUrlCounts counts) {
    if (gate == null) return;
    List<Refused> refused = null;
    int kept = 0;
    for (int i = 0; i < found.length; i++) {
      Pending pending = candidates.get(i);
      if (found[i] == null && counts.isFull(pending.origin(), pending.candidate().depth())) {
        counts.droppedBeforeWrite(pending.origin(), 1);
        continue;
      }
      Optional<CrawlRecord> refusal = found[i] == null ? gate.refuse(pending.candidate()) : Optional.empty();
      if (refusal.isPresent()) {
        if (!refusal.get().url().equals(pending.candidate().url())) {
          throw new IllegalArgumentException("a refusal of " + refusal.get().url() + " for the candidate "
              + pending.candidate().url());
        }
        if (refused == null) refused = new ArrayList<>();
        refused.add(new Refused(pending, refusal.get()));
      } else {
        candidates.set(kept, pending);
        found[kept++] = found[i];
      }
    }
    gate.decided();
    if (kept < found.length) {
      candidates.subList(kept, candidates.size()).clear();
      found = Arrays.copyOf(found, kept);
    }
    if (refused == null) return;
    refusedSeen = seen;
    refusedNew = refused;
  }

  /**
   * Its group was applied and not written (another call of it failed): it is applied again, so what
   * applying it set is unset. Its lookup stands, corrected under the lock like any (the failed group
   * wrote nothing); a URL it skipped ({@link #SKIPPED}, {@link #updatedSkipped}) is read then, once the
   * link targets, cleared, no longer hold it.
   */
  void applyAgain() {
    firstCrawl = false;
    moved = false;
    heldLeft = false;
    if (held != null) held.forgetPuts();
  }

  /** Whether the call holds the next URLs of {@code origin}: {@link #putsFresh} of its URLs matters. */
  boolean holdsFor(String origin) {
    return held != null && held.isOf(origin);
  }

  /** Notes a never-crawled URL of {@code origin} the write puts at {@code dueKey}. */
  void putsFresh(String origin, byte[] dueKey, UrlRecord url) {
    if (held != null) held.put(origin, dueKey, url);
  }

  /** What the held URLs are once the write is in ({@link CrawlStore#record(CrawlRecord, java.util.Collection, List)}). */
  List<DueCandidate> heldAfter() {
    return held.after();
  }

  /** The URL whose record the call updates, if any. */
  Optional<String> updated() {
    return record.map(CrawlRecord::url).or(() -> bringForward.map(BringForward::url));
  }

  /**
   * Looks up the candidates and the recorded URL as of commit {@code commit} or later; not the
   * candidates {@code targets} may hold, nor the URLs {@code filter} (when given: complete) lacks.
   */
  void lookUp(RocksDatabase rocks, long commit, LinkTargets targets, CrawledFingerprints crawled,
      Optional<KeyFilter> filter) throws RocksDBException {
    lookUpAll(rocks, commit, List.of(this), targets, crawled, filter);
  }

  /**
   * {@link #lookUp} of several calls with one {@code multiGet} (a short one costs mostly its call:
   * issue 15, a turn's refusals); how many keys it read.
   */
  static int lookUpAll(RocksDatabase rocks, long commit, List<WriteRequest> requests, LinkTargets targets,
      CrawledFingerprints crawled, Optional<KeyFilter> filter) throws RocksDBException {
    List<byte[]> keys = new ArrayList<>();
    for (WriteRequest request : requests) request.addKeys(keys, targets, crawled, filter.orElse(null));
    // Most calls read one key (a link to a URL no table in memory knows): a plain get, whose JNI
    // call costs less than multiGet's lists.
    List<byte[]> values = keys.isEmpty() ? List.of()
        : keys.size() == 1 ? Collections.singletonList(rocks.db.get(rocks.urls, keys.get(0)))
        : rocks.db.multiGetAsList(Collections.nCopies(keys.size(), rocks.urls), keys);
    int offset = 0;
    for (WriteRequest request : requests) offset = request.found(rocks, commit, values, offset);
    return keys.size();
  }

  /**
   * Adds the keys this call looks up: the updated URL's first, unless {@code targets} seem to hold its
   * record, then the candidates' that {@code targets} do not seem to hold (those are marked {@link
   * #SKIPPED} now) and {@code crawled} does not know crawled (marked {@link #CRAWLED}).
   */
  private void addKeys(List<byte[]> keys, LinkTargets targets, CrawledFingerprints crawled, KeyFilter filter) {
    updatedSkipped = false;
    updatedAbsent = false;
    updated().ifPresent(url -> {
      byte[] key = Keys.url(url);
      if (targets.mayHoldRecord(url, key)) {
        updatedSkipped = true;
      } else if (filter != null && !filter.mayContain(key)) {
        updatedAbsent = true;
      } else {
        keys.add(key);
      }
    });
    found = new byte[candidates.size()][];
    for (int i = 0; i < found.length; i++) {
      Pending pending = candidates.get(i);
      if (targets.mayHold(pending.candidate().url(), pending.urlKey())) {
        found[i] = SKIPPED;
      } else if (crawled.contains(UrlFingerprint.of(pending.candidate().url()))) {
        found[i] = CRAWLED;
      } else if (filter != null && !filter.mayContain(pending.urlKey())) {
        found[i] = ABSENT;
      } else {
        keys.add(pending.urlKey());
      }
    }
  }

  /**
   * Takes this call's values from {@code offset} on, as {@link #addKeys} asked for them; returns
   * where the next call's values start.
   */
  private int found(RocksDatabase rocks, long commit, List<byte[]> values, int offset) throws RocksDBException {
    seen = commit;
    Optional<String> updated = updated();
    byte[] updatedValue = updated.isPresent() && !updatedSkipped && !updatedAbsent ? values.get(offset++) : null;
    for (int i = 0; i < found.length; i++) {
      if (found[i] == ABSENT) {
        found[i] = null; // as a lookup that found nothing
      } else if (found[i] != SKIPPED && found[i] != CRAWLED) {
        found[i] = values.get(offset++);
      }
    }
    recorded = updatedValue != null ? Optional.of(read(rocks, updated.get(), updatedValue)) : Optional.empty();
    return offset;
  }

  /** The URL's record and validators, read now. */
  static Optional<Known> readNow(RocksDatabase rocks, String url) throws RocksDBException {
    byte[] value = rocks.db.get(rocks.urls, Keys.url(url));
    return value == null ? Optional.empty() : Optional.of(read(rocks, url, value));
  }

  private static Known read(RocksDatabase rocks, String url, byte[] value) throws RocksDBException {
    UrlRecord previous = Values.decodeUrl(url, value);
    // A never-crawled URL's due entry holds nothing its record does not (no validators): not read.
    if (previous.fetchCount() == 0) return new Known(previous, Values.DueEntry.none(previous));
    byte[] due = rocks.db.get(rocks.due, Keys.due(CandidateBatch.origin(url), previous));
    return new Known(previous, due == null ? Values.DueEntry.none(previous) : Values.decodeDue(due));
  }

  boolean done() {
    return done;
  }

  /** Before it is queued: the thread to unpark when the call is done. */
  void waitedOnBy(Thread thread) {
    this.waiter = thread;
  }

  /** The thread waiting for the call. */
  Thread waiter() {
    return waiter;
  }

  void succeed(int added) {
    this.added = added;
    finish();
  }

  void fail(Exception failure) {
    this.failure = failure;
    finish();
  }

  private void finish() {
    done = true;
    if (waiter != null && waiter != Thread.currentThread()) LockSupport.unpark(waiter);
  }

  /** How many URLs the call added; rethrows what failed its group. */
  int result() throws RocksDBException {
    if (failure instanceof RocksDBException e) throw e;
    if (failure instanceof RuntimeException e) throw e;
    return added;
  }
}
