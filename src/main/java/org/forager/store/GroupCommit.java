package org.forager.store;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.forager.url.UrlFingerprint;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The write path of the URL table: exact deduplication and atomic writes, with the expensive part
 * outside the lock and many calls' writes merged into one.
 *
 * <p>A call first looks its URLs up without any lock ({@link WriteRequest#lookUp}), noting the
 * latest commit those lookups see, then queues itself and takes the write lock, or, finding it
 * taken, waits without it until its call is written or heads the queue. Whoever holds the
 * lock drains the queue and writes every queued call in queue order as one group: one RocksDB
 * write batch, one write-ahead-log append. Under the lock a lookup is corrected by
 * {@link RecentWrites} (a URL written after the commit it saw is known after all, or its record is
 * read again) and by what earlier calls of the same group wrote; so the result is what running the
 * calls one at a time, in queue order, would give. A caller returns once the group holding its
 * call is written (or failed: then nothing of it was written), so "returned" still means "in the
 * write-ahead log". A write that fails fails every call of the group; a call that throws as it is
 * applied (a store bug, or an input the store did not expect) fails alone, with the calls submitted
 * with it, and the others are written again, each caller's alone ({@link #writeAgainWithout}). Calls
 * submitted together ({@link #submitAll}) are queued one after the other and normally written in one
 * group; each is still one call in queue order. Thread-safe.
 */
final class GroupCommit {

  private static final byte[] EMPTY = new byte[0];
  /** Calls written together at most; more wait for the next group. */
  private static final int MAX_GROUP = 256;
  /**
   * A group takes no further call once its batch is this long: its heap is the batch built, grown by
   * doubling, then copied for RocksDB. The usual page's call is a few KB (256 of them 1-2 MiB); a
   * hostile page's links under a 2,000-char base were 4 MB a call, and 30 such calls in one group
   * (about 360 MB of heap together) ran a 264 MiB heap out.
   */
  static final int MAX_GROUP_BYTES = 8 << 20;
  /** URLs whose held inlinks one group writes at most ({@link #drainHeld}). */
  private static final int DRAIN_GROUP = 10_000;

  private final RocksDatabase rocks;
  private final WriteOptions writeOptions;
  private final ReentrantLock lock = new ReentrantLock();
  private final ConcurrentLinkedQueue<WriteRequest> queue = new ConcurrentLinkedQueue<>();
  /** Guarded by lock. */
  private final RecentWrites recent = new RecentWrites();
  /** The URLs links pointed to lately, with the inlinks held in memory; changed under the lock only. */
  private final LinkTargets targets;
  /** The URLs known crawled, put once their crawl is written: a link to one is not looked up. */
  private final CrawledFingerprints crawled = new CrawledFingerprints(CrawledFingerprints.defaultCapacity(),
      CrawledFingerprints.defaultMaxCapacity());
  /** URL keys the calls' lookups read from the store (tests); an AtomicLong, not a LongAdder: see RunSummary. */
  private final AtomicLong lookedUp = new AtomicLong();
  /** Groups written (tests); guarded by lock. */
  private long groups;
  /** Guarded by lock. */
  private long largestGroupBytes;
  /** Where the origins' live due keys start. */
  private final DueStarts dueStarts = new DueStarts();
  /**
   * Every URL key the store holds, when kept ({@link KeyFilter}): added under the lock before the batch
   * holding it is written. A lookup that misses a bit set meanwhile noted a commit older than the write
   * that set it, so it is corrected as any lookup made before a write is ({@link #recent}).
   */
  private final Optional<KeyFilter> urlFilter;
  /** The batch each group is built in, used again group after group; guarded by lock. */
  private final BatchBytes groupBatch;
  /**
   * Origins whose new-work agenda entry a written group put and no {@link #settle} has removed since:
   * a group adding URLs to one of them need not put it again (issue 15: 114,566 puts of a 1000 x 100
   * crawl, one a group for each origin given new URLs). Guarded by lock; forgotten past
   * {@link #MARKED_LIMIT} origins, which only costs the blind put again.
   */
  private final Set<String> markedNewWork = new HashSet<>();
  private static final int MARKED_LIMIT = 65_536;
  /** The commit of the group being applied or written (the last one written between groups). */
  private volatile long applying;
  /** The latest commit whose write returned: every lookup started later sees it. */
  private volatile long visible;
  private volatile long urlCount;
  /** Each origin's URL count, against {@link UrlCap}; changed under the lock only. */
  private final OriginUrlCounts originUrls;

  GroupCommit(RocksDatabase rocks, WriteOptions writeOptions, long urlCount, int linkTargets) {
    this(rocks, writeOptions, urlCount, linkTargets, Optional.empty());
  }

  /** @param urlFilter a complete filter of every URL the store holds, kept so by this group commit */
  GroupCommit(RocksDatabase rocks, WriteOptions writeOptions, long urlCount, int linkTargets,
      Optional<KeyFilter> urlFilter) {
    this.rocks = rocks;
    this.writeOptions = writeOptions;
    this.urlCount = urlCount;
    this.urlFilter = urlFilter;
    this.targets = new LinkTargets(linkTargets);
    this.groupBatch = new BatchBytes(rocks.families);
    this.originUrls = new OriginUrlCounts(rocks);
  }

  /** Applies {@code cap} to the URLs the next groups add. */
  void cap(UrlCap cap) {
    lock.lock();
    try {
      originUrls.cap(cap);
    } finally {
      release();
    }
  }

  long urlCount() {
    return urlCount;
  }

  /**
   * Where a scan of {@code origin}'s due keys seeks ({@link DueStarts}); call before opening its
   * iterator, which must see every commit visible now.
   */
  DueStarts.Seek dueSeek(String origin, byte[] prefix) {
    return dueStarts.seek(origin, prefix, visible, () -> applying);
  }

  /** The scan that sought with {@code seek} found its first live key at {@code first}. */
  void dueScanned(DueStarts.Seek seek, byte[] first) {
    dueStarts.scanned(seek, first);
  }

  /**
   * The URL as it is, held inlinks in: from its entry when it has one (under the lock), else as the
   * URL table has it.
   */
  Optional<UrlRecord> read(String url) throws RocksDBException {
    byte[] key = Keys.url(url);
    // Under the lock: a group evicts an entry (its inlinks into its batch) before it writes the batch,
    // so a read without the lock in between would answer fewer inlinks than it answered before.
    lock.lock();
    try {
      int slot = targets.find(url, key);
      if (slot >= 0) return Optional.of(recordOf(targets.held(slot), Map.of()));
      byte[] value = rocks.db.get(rocks.urls, key);
      return value == null ? Optional.empty() : Optional.of(Values.decodeUrl(url, value));
    } finally {
      release();
    }
  }

  /**
   * Writes every held inlink into its URL's record, in groups of at most {@value #DRAIN_GROUP} URLs:
   * before a full read, and at close.
   */
  void drainHeld(Instant now) throws RocksDBException {
    WriteRequest request;
    do {
      request = WriteRequest.drainingHeld(now);
      submit(request);
    } while (request.heldLeft);
  }

  /** How many inlinks are held in memory now (tests). */
  long heldInlinks() {
    lock.lock();
    try {
      return targets.heldTotal();
    } finally {
      release();
    }
  }

  /** Bytes of the link targets' slots now (tests). */
  int linkTargetSlotBytes() {
    lock.lock();
    try {
      return targets.slotBytes();
    } finally {
      lock.unlock();
    }
  }

  /** Forgets what the link targets hold, as a failed group does (tests). */
  void clearLinkTargets() {
    lock.lock();
    try {
      targets.clear();
    } finally {
      release();
    }
  }

  /** How many URL keys the calls' lookups read from the store before their writes (tests). */
  long lookedUpKeys() {
    return lookedUp.get();
  }

  /** The longest batch a group built (tests). */
  long largestGroupBytes() {
    lock.lock();
    try {
      return largestGroupBytes;
    } finally {
      lock.unlock();
    }
  }

  /** How many groups were written (tests). */
  long groupsWritten() {
    lock.lock();
    try {
      return groups;
    } finally {
      release();
    }
  }

  /** How many raises the link targets hold (tests). */
  int heldRaiseCount() {
    lock.lock();
    try {
      return targets.raisedCount();
    } finally {
      release();
    }
  }

  /** Runs one call: its lookups, then its share of a group write; returns how many URLs it added. */
  int submit(WriteRequest request) throws RocksDBException {
    return submitAll(List.of(request));
  }

  /**
   * Runs calls in order as one submission: all their lookups in one {@code multiGet}, then all queued
   * one after the other and the lock taken once, so that they normally land in one group (one batch,
   * one log append).
   * Other threads' calls may be queued between them, and more than a group's worth is split: each
   * call is still written in queue order, as if made alone. Returns once every one is written; how
   * many URLs they added; rethrows the first failure (calls of an earlier group may be written).
   */
  int submitAll(List<WriteRequest> requests) throws RocksDBException {
    lookedUp.getAndAdd(WriteRequest.lookUpAll(rocks, visible, requests, targets, crawled, filterToAsk()));
    for (WriteRequest request : requests) request.askGate(originUrls);
    Thread caller = Thread.currentThread();
    for (WriteRequest request : requests) request.waitedOnBy(caller);
    queue.addAll(requests);
    // Queue order is write order: once the last is written, so are the others. Whoever gets the lock
    // writes groups from the head of the queue until the last is written; the others wait for that
    // without the lock (taking it in turn only to learn they were written was a convoy: each handoff
    // waited for a virtual thread to be scheduled, hundreds a group). A waiter wakes when its call is
    // written or when its call heads the queue and the lock came free (release()).
    WriteRequest last = requests.get(requests.size() - 1);
    boolean interrupted = false;
    // A virtual thread that would write alone lets the threads ready to run go first: on a busy
    // crawl they queue their calls meanwhile and one group writes them all (one WAL append and one
    // batch instead of one each). The price is latency, one pass of the ready threads; with none
    // ready the yield returns at once. Figures in docs/store.md, "Group commit". Platform threads
    // (an embedder's, the seeds' loading) do not yield: the OS's yield does not queue them behind others.
    if (caller.isVirtual() && !lock.isLocked()) Thread.yield();
    while (!last.done()) {
      if (lock.tryLock()) {
        try {
          while (!last.done()) writeGroup();
        } finally {
          release();
        }
      } else {
        LockSupport.park(this);
        interrupted |= Thread.interrupted(); // waits on like lock() did; the flag is given back after
      }
    }
    if (interrupted) caller.interrupt();
    originUrls.tell();
    int added = 0;
    for (WriteRequest request : requests) added += request.result();
    return added;
  }

  /**
   * Unlocks, then wakes the thread whose call heads the queue: it takes the lock and writes. Every
   * unlock goes through here: a caller that found the lock taken waits for this (or for its write).
   * Not the calling thread: one that leaves on an Error with its own calls still queued would wake
   * only itself, and the callers behind it would wait for ever.
   */
  private void release() {
    lock.unlock();
    Thread me = Thread.currentThread();
    for (WriteRequest queued : queue) {
      if (queued.waiter() != me) {
        LockSupport.unpark(queued.waiter());
        return;
      }
    }
  }

  /** Writes the calls at the head of the queue as one group; caller holds the lock. */
  private void writeGroup() {
    List<WriteRequest> group = new ArrayList<>();
    try {
      write(queue, group);
    } catch (ApplyFailed e) {
      writeAgainWithout(group, e.getCause());
    } catch (RocksDBException | RuntimeException e) {
      failed(group, e);
    } finally {
      // An Error (out of memory) must not leave drained calls waiting for ever.
      for (WriteRequest request : group) {
        if (!request.done()) {
          undoApplied();
          request.fail(new StoreException("the write of this call was aborted"));
        }
      }
    }
  }

  /**
   * Takes calls from the head of {@code calls} into {@code group} as it applies them, and writes them
   * as one batch; each succeeds once it is written. Throws {@link ApplyFailed} when applying the last
   * call taken threw, and nothing of the group is written then either.
   */
  private void write(Queue<WriteRequest> calls, List<WriteRequest> group) throws RocksDBException, ApplyFailed {
    groups++;
    applying = recent.latest() + 1;
    int[] added = new int[MAX_GROUP];
    BatchBytes batch = groupBatch.clear();
    Map<String, WriteRequest.Known> written = new HashMap<>();
    Set<String> newWork = new HashSet<>();
    int total = 0;
    try {
      // Each call is taken from the queue as it is applied, so that a group stops at its length; not
      // within one submission, which is written whole when it can be (its calls are queued together).
      for (WriteRequest next; group.size() < MAX_GROUP && (next = calls.peek()) != null; ) {
        if (batch.bytes() >= MAX_GROUP_BYTES && next.waiter() != group.getLast().waiter()) break;
        calls.poll();
        group.add(next);
        added[group.size() - 1] = apply(next, batch, written, newWork);
        total += added[group.size() - 1];
      }
    } catch (RuntimeException e) {
      // A read of the store that failed is the store failing, not this call.
      if (e.getCause() instanceof RocksDBException) throw e;
      throw new ApplyFailed(e);
    }
    largestGroupBytes = Math.max(largestGroupBytes, batch.bytes());
    if (!written.isEmpty()) {
      long count = urlCount + total;
      // Only a group that adds URLs changes the count (a crawl's record, a refusal or a move adds none).
      if (total > 0) batch.put(rocks.meta, Keys.URL_COUNT, new ByteWriter(8).writeLongBigEndian(count).toByteArray());
      originUrls.put(batch);
      try (WriteBatch serialized = batch.toWriteBatch()) {
        rocks.db.write(writeOptions, serialized);
      }
      urlCount = count;
      recent.add(written.keySet());
      visible = recent.latest();
      for (Map.Entry<String, WriteRequest.Known> w : written.entrySet()) {
        if (w.getValue().url().fetchCount() > 0) crawled.add(UrlFingerprint.of(w.getKey()));
      }
      rememberMarked(newWork);
    }
    originUrls.written();
    for (int i = 0; i < group.size(); i++) group.get(i).succeed(added[i]);
  }

  /**
   * Applying the last call of {@code group} threw {@code failure} (a store bug, or an input the store
   * did not expect), so nothing of the group was written: that call fails, with the other calls of its
   * submission, queued or not (a failure writes none of them: {@link CrawlStore#record(List,
   * CrawlRecord, java.util.Collection, List)}), and the others are written again, each caller's
   * submission in a group of its own, in queue order: one call's failure is not its group's, as in
   * PostgreSQL's committer. Each gets what it would have alone in that order (all of the group's
   * callers were waiting at once, so none can tell it from the queue's).
   */
  private void writeAgainWithout(List<WriteRequest> group, RuntimeException failure) {
    undoApplied();
    Thread failing = group.getLast().waiter();
    // Its calls still queued, found before any call of it is done: its caller cannot have returned and
    // queued another submission yet. Each is failed as soon as it leaves the queue, so that no Error
    // can come between and leave it waiting.
    List<WriteRequest> queued = new ArrayList<>();
    for (WriteRequest request : queue) if (request.waiter() == failing) queued.add(request);
    for (WriteRequest request : group) if (request.waiter() == failing) request.fail(failure);
    for (WriteRequest request : queued) {
      queue.remove(request);
      request.fail(failure);
    }
    for (WriteRequest first : group) {
      if (first.done()) continue;
      List<WriteRequest> submission = new ArrayList<>();
      for (WriteRequest request : group) {
        if (request.waiter() == first.waiter()) {
          request.applyAgain();
          submission.add(request);
        }
      }
      try {
        write(new ArrayDeque<>(submission), new ArrayList<>());
      } catch (ApplyFailed e) {
        failed(submission, e.getCause());
      } catch (RocksDBException | RuntimeException e) {
        failed(submission, e);
      }
    }
  }

  /** Nothing of {@code calls} was written: they fail with {@code e}, and what applying them changed is undone. */
  private void failed(List<WriteRequest> calls, Exception e) {
    undoApplied();
    for (WriteRequest request : calls) request.fail(e);
  }

  /**
   * Nothing of the group applied was written: the link targets must not keep what it changed in them,
   * so they are cleared (what they held is lost, as in a crash: inlinks and raises only; a URL a lookup
   * skipped because they seemed to hold it is read under the lock). The URL counts are read again. The
   * rest a group changes before its write may stay: keys in the URL filter (false positives), due starts
   * moved back (a scan seeks from further back) and URLs found crawled on disk.
   */
  private void undoApplied() {
    targets.clear();
    originUrls.failed();
  }

  /** Applying a call threw {@link #getCause()}; the group holding it is not written. */
  private static final class ApplyFailed extends Exception {
    ApplyFailed(RuntimeException cause) {
      super(null, cause, false, false);
    }

    @Override
    public synchronized RuntimeException getCause() {
      return (RuntimeException) super.getCause();
    }
  }

  /**
   * The raises {@code origin}'s never-crawled URLs hold ({@link LinkTargets#raise}) that a due scan of
   * at most {@code limit} URLs may list, in due order, and which of the URLs the scan read ({@code
   * scanned}) hold one: the due index has those at their older keys. Under the lock, unless the
   * origin's bucket lists no raise.
   */
  Raises heldRaises(String origin, List<DueCandidate> scanned, int limit) {
    int bucket = LinkTargets.bucketOf(origin);
    if (!targets.mayHoldRaises(bucket)) return Raises.NONE;
    byte[] originBytes = origin.getBytes(StandardCharsets.UTF_8);
    Set<String> moved = new HashSet<>();
    List<LinkTargets.Raised> raised;
    lock.lock();
    try {
      for (DueCandidate c : scanned) if (targets.holdsRaise(c.url(), Keys.url(c.url()))) moved.add(c.url());
      raised = targets.raisedIn(bucket, originBytes, limit);
    } finally {
      release();
    }
    List<Raise> raises = new ArrayList<>(raised.size());
    for (LinkTargets.Raised r : raised) {
      int hops = Values.decodeUrl(r.url(), r.value()).hops();
      raises.add(new Raise(Keys.due(origin, Keys.newField(r.rank()), r.depth(), r.url()),
          new DueCandidate(r.url(), r.depth(), Optional.empty(), Optional.empty(), 0, Ranking.dequantize(r.rank()), hops)));
    }
    raises.sort((a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
    return new Raises(raises, moved);
  }

  /** A raise held: the URL's due key now, and the candidate a due scan gives for it. */
  record Raise(byte[] key, DueCandidate due) {}

  /** What a due scan merges: the raises it may list, in due order, and the scanned URLs that hold one. */
  record Raises(List<Raise> first, Set<String> moved) {
    static final Raises NONE = new Raises(List.of(), Set.of());
  }

  /** Puts one call's writes in the batch; returns how many URLs it adds. */
  private int apply(WriteRequest request, BatchBytes batch, Map<String, WriteRequest.Known> written,
      Set<String> newWork) throws RocksDBException {
    if (!recent.covers(request.seen)) { // too old to correct
      request.lookUp(rocks, recent.latest(), targets, crawled, filterToAsk());
    }
    int added = 0;
    if (request.record.isPresent()) added += record(request, batch, written);
    if (request.bringForward.isPresent()) {
      request.moved = bringForward(request, batch, written);
      // Conservatively at once, whenever it is due now: settle() puts it at its time when the origin has
      // been looked at (an entry at a time would need the origin's entry read and replaced here).
      if (request.moved) markNewWork(CandidateBatch.origin(request.bringForward.get().url()), batch, newWork);
    }
    if (request.drainsHeld) request.heldLeft = targets.drain(DRAIN_GROUP, held -> writeBack(held, batch, written));
    for (int i = 0; i < request.candidates.size(); i++) {
      Pending pending = request.candidates.get(i);
      String url = pending.candidate().url();
      int slot = targets.find(url, pending.urlKey());
      if (slot >= 0) {
        if (request.firstCrawl) countInlink(request, pending, slot, batch, written);
        continue;
      }
      if (request.found[i] == WriteRequest.CRAWLED) continue; // crawled for good: nothing to change
      WriteRequest.Known known = knownCandidate(request, i, written);
      if (known != null) {
        if (known.url().fetchCount() == 0) {
          hold(request, pending, known.url(), batch, written);
        } else if (!written.containsKey(url)) {
          crawled.add(UrlFingerprint.of(url)); // crawled on disk already: known from now on
        }
        continue;
      }
      Candidate candidate = pending.candidate();
      if (!originUrls.admit(pending.origin(), candidate.depth(), url)) continue; // its origin is full
      int inlinks = request.firstCrawl ? 1 : 0;
      double priority = Ranking.dequantize(Ranking.quantize(candidate.ranking().priority(url, candidate.depth(), inlinks)));
      UrlRecord fresh = new UrlRecord(url, candidate.depth(), candidate.discoveredFrom(),
          request.now, 0, Optional.empty(), Instant.EPOCH, priority, inlinks, candidate.hops());
      Values.DueEntry due = Values.DueEntry.none(fresh);
      byte[] dueKey = Keys.due(pending.origin(), fresh);
      byte[] value = Values.encodeUrl(fresh);
      putUrl(batch, pending.urlKey(), value);
      batch.put(rocks.due, dueKey, Values.encodeDue(due));
      dueStarts.put(pending.origin(), dueKey, applying);
      request.putsFresh(pending.origin(), dueKey, fresh);
      markNewWork(pending.origin(), batch, newWork);
      written.put(url, new WriteRequest.Known(fresh, due));
      targets.put(fresh, pending.urlKey(), value, 0, evicted -> writeBack(evicted, batch, written));
      added++;
    }
    for (WriteRequest.Refused refused : request.refusedNew) added += refuseNew(request, refused, batch, written);
    return added;
  }

  /**
   * A candidate refused as it was found ({@link DiscoveryGate}): its refusal recorded, as a turn would
   * record it, on the record the URL has now, or on a new one made from the candidate (as a new
   * candidate's, then crawled once). Returns 1 when the URL is new.
   */
  private int refuseNew(WriteRequest request, WriteRequest.Refused refused, BatchBytes batch,
      Map<String, WriteRequest.Known> written) throws RocksDBException {
    Pending pending = refused.pending();
    String url = pending.candidate().url();
    Optional<WriteRequest.Known> known = knownNow(request, url, written);
    if (known.isPresent()) return writeCrawl(request, refused.refusal(), known, null, batch, written);
    Candidate candidate = pending.candidate();
    // Past the cap a refusal is not kept either (else links robots.txt disallows would fill the disk
    // unbounded). Its line is logged: only the calls in flight as the origin fills, since later lookups
    // drop its new candidates before the gate (OriginUrlCounts.isFull).
    if (!originUrls.admit(pending.origin(), candidate.depth(), url)) return 0;
    int inlinks = request.firstCrawl ? 1 : 0;
    double priority = Ranking.dequantize(Ranking.quantize(candidate.ranking().priority(url, candidate.depth(), inlinks)));
    UrlRecord fresh = new UrlRecord(url, candidate.depth(), candidate.discoveredFrom(),
        request.now, 0, Optional.empty(), Instant.EPOCH, priority, inlinks, candidate.hops());
    return writeCrawl(request, refused.refusal(), Optional.empty(), fresh, batch, written, true);
  }

  /**
   * A URL the call did not look up or whose lookup is out of date, as the group finds it now: with its
   * held inlinks when it has an entry, written earlier in the group or since the lookup; empty when
   * unknown (the lookup found nothing, and nothing was written since).
   */
  private Optional<WriteRequest.Known> knownNow(WriteRequest request, String url,
      Map<String, WriteRequest.Known> written) throws RocksDBException {
    int slot = targets.find(url, Keys.url(url));
    Optional<WriteRequest.Known> known = heldOrWritten(url, slot, written);
    if (known.isPresent()) return known;
    // The gate's answer rests on the first lookup: read again when a write may have come since.
    long seen = request.refusedSeen;
    boolean stale = slot >= 0 || !recent.covers(seen) || recent.writtenAfter(url, seen);
    return stale ? WriteRequest.readNow(rocks, url) : Optional.empty();
  }

  /** Puts a URL's record, its key in the URL filter first (a write that then fails leaves only a false positive). */
  private void putUrl(BatchBytes batch, byte[] key, byte[] value) {
    urlFilter.ifPresent(filter -> filter.add(key));
    batch.put(rocks.urls, key, value);
  }

  /** The URL filter, while it answers "absent" exactly and is worth asking at the store's URL count. */
  private Optional<KeyFilter> filterToAsk() {
    return urlFilter.filter(filter -> filter.useful(urlCount));
  }

  /**
   * Puts the origin on the agenda at {@link Keys#NEW_WORK_FIELD}, once a group and only when no written
   * group has put it since the origin's last {@link #settle} (which removes it once the origin holds no
   * never-crawled URL): a blind put, the same key whatever the origin held, so a new URL costs no read
   * of the agenda.
   */
  private void markNewWork(String origin, BatchBytes batch, Set<String> marked) {
    if (!markedNewWork.contains(origin) && marked.add(origin)) {
      batch.put(rocks.meta, Keys.agenda(Keys.NEW_WORK_FIELD, origin), EMPTY);
    }
  }

  /** Notes the origins whose new-work entry a group just wrote (only once it is written). */
  private void rememberMarked(Set<String> written) {
    if (written.isEmpty()) return;
    if (markedNewWork.size() + written.size() > MARKED_LIMIT) markedNewWork.clear();
    markedNewWork.addAll(written);
  }

  /**
   * {@link CrawlStore#settle}, under the write lock: every group written before is visible to its reads,
   * and none is written between its reads and its write, so a URL added meanwhile either is seen or
   * puts its own agenda entry after this one's.
   */
  Optional<Instant> settle(String origin, Optional<Instant> takeUpBy) throws RocksDBException {
    lock.lock();
    try {
      markedNewWork.remove(origin); // its entry may be deleted below: the next group puts it again
      boolean hasNew = false;
      long firstRecrawl = -1L; // none (unsigned: the largest field)
      byte[] prefix = Keys.duePrefix(origin);
      try (Slice upper = new Slice(Keys.prefixEnd(prefix));
          ReadOptions options = new ReadOptions().setIterateUpperBound(upper);
          RocksIterator it = rocks.db.newIterator(rocks.due, options)) {
        it.seek(prefix);
        if (it.isValid()) {
          long field = new ByteReader(it.key(), prefix.length).readLongBigEndian();
          hasNew = Long.compareUnsigned(field, Keys.FIRST_RECRAWL_FIELD) < 0;
          if (!hasNew) {
            firstRecrawl = field;
          } else {
            it.seek(Keys.firstRecrawl(origin));
            if (it.isValid()) firstRecrawl = new ByteReader(it.key(), prefix.length).readLongBigEndian();
          }
        }
        it.status();
      }
      long timed = firstRecrawl;
      if (takeUpBy.isPresent() && Long.compareUnsigned(Keys.dueField(takeUpBy.get()), timed) < 0) {
        timed = Keys.dueField(takeUpBy.get());
      }
      byte[] newKey = Keys.agenda(Keys.NEW_WORK_FIELD, origin);
      byte[] reverseKey = Keys.agendaOf(origin);
      byte[] old = rocks.db.get(rocks.meta, reverseKey);
      long oldTimed = old == null ? -1L : new ByteReader(old).readLongBigEndian();
      try (WriteBatch batch = new WriteBatch()) {
        if (!hasNew && rocks.db.get(rocks.meta, newKey) != null) batch.delete(rocks.meta, newKey);
        if (oldTimed != timed) {
          if (old != null) batch.delete(rocks.meta, Keys.agenda(oldTimed, origin));
          if (timed != -1L) {
            batch.put(rocks.meta, Keys.agenda(timed, origin), EMPTY);
            batch.put(rocks.meta, reverseKey, new ByteWriter(8).writeLongBigEndian(timed).toByteArray());
          } else {
            batch.delete(rocks.meta, reverseKey);
          }
        }
        if (batch.count() > 0) rocks.db.write(writeOptions, batch);
      }
      if (hasNew) return Optional.of(AgendaEntry.NEW_WORK);
      return timed == -1L ? Optional.empty() : Optional.of(Keys.fieldTime(timed));
    } finally {
      release();
    }
  }

  /**
   * A candidate without an entry in {@link #targets}, as the group finds it: written earlier in the group,
   * since the lookup (read again), or as looked up; null when unknown.
   */
  private WriteRequest.Known knownCandidate(WriteRequest request, int index, Map<String, WriteRequest.Known> written)
      throws RocksDBException {
    String url = request.candidates.get(index).candidate().url();
    WriteRequest.Known known = written.get(url);
    if (known != null) return known;
    byte[] value = request.found[index];
    if (value == WriteRequest.SKIPPED || recent.writtenAfter(url, request.seen)) {
      return WriteRequest.readNow(rocks, url).orElse(null);
    }
    return value == null ? null : lookedUp(Values.decodeUrl(url, value));
  }

  /**
   * One more page links to a URL with an entry (never crawled): the inlink is held, unless its new
   * ranking raises the URL's priority; then its record is written at once with every inlink, and its
   * due key moves.
   */
  private void countInlink(WriteRequest request, Pending pending, int slot, BatchBytes batch,
      Map<String, WriteRequest.Known> written) throws RocksDBException {
    int inlinks = (int) Math.min(targets.total(slot) + 1L, Integer.MAX_VALUE);
    int rank = rankAt(pending, targets.depth(slot), inlinks);
    if (rank <= targets.rank(slot)) {
      targets.count(slot);
      if (targets.mustWrite(slot)) {
        LinkTargets.Written done = writeBack(targets.held(slot), batch, written);
        targets.written(slot, done.record(), done.value());
      }
      return;
    }
    if (targets.raise(slot, rank, inlinks, LinkTargets.bucketOf(pending.origin()))) {
      heldRaise(request, pending, slot);
      return;
    }
    LinkTargets.Held held = targets.held(slot);
    UrlRecord stored = recordOf(held, written);
    UrlRecord next = raised(stored, rank, inlinks);
    byte[] previousKey = dueKeyOnDisk(pending.origin(), stored, held.writtenRank());
    targets.written(slot, next, writeRaised(request, pending, previousKey, next, batch, written));
  }

  /**
   * A raise held, not written (issue 15: three memtable entries, a record and a key to encode, each
   * time an inlink's order of magnitude grew): the call's own held URLs see it now, due scans through
   * {@link #heldRaises}; the entry's eviction, a drain or a write of its inlinks writes it, and a crawl
   * of its URL deletes the key it has on disk. A process killed loses it, as it loses held inlinks.
   */
  private void heldRaise(WriteRequest request, Pending pending, int slot) throws RocksDBException {
    if (!request.holdsFor(pending.origin())) return;
    UrlRecord now = recordOf(targets.held(slot), Map.of());
    request.putsFresh(pending.origin(), Keys.due(pending.origin(), now), now);
  }

  /**
   * The due key a never-crawled URL has in the due index: its record's, or when its entry holds a raise
   * ({@code writtenRank} not -1), the one of the priority written before.
   */
  private static byte[] dueKeyOnDisk(String origin, UrlRecord record, int writtenRank) {
    if (writtenRank < 0) return Keys.due(origin, record);
    return Keys.due(origin, Keys.newField(writtenRank), record.depth(), record.url());
  }

  /**
   * Gives a known, never-crawled URL without an entry one, with the inlink of a page's first crawl
   * held, or written at once when it raises the priority. An entry evicted to make room is written.
   */
  private void hold(WriteRequest request, Pending pending, UrlRecord stored, BatchBytes batch,
      Map<String, WriteRequest.Known> written) throws RocksDBException {
    UrlRecord record = stored;
    byte[] value = null;
    int inlinks = request.firstCrawl ? 1 : 0;
    if (inlinks > 0) {
      int count = (int) Math.min(stored.inlinks() + 1L, Integer.MAX_VALUE);
      int rank = rankAt(pending, stored.depth(), count);
      if (rank > Ranking.quantize(stored.priority())) {
        byte[] storedValue = Values.encodeUrl(stored);
        int slot = targets.putRaised(stored, pending.urlKey(), storedValue, rank, count,
            LinkTargets.bucketOf(pending.origin()), evicted -> writeBack(evicted, batch, written));
        if (slot >= 0) {
          heldRaise(request, pending, slot);
          return;
        }
        record = raised(stored, rank, count);
        value = writeRaised(request, pending, Keys.due(pending.origin(), stored), record, batch, written);
        inlinks = 0;
      }
    }
    if (value == null) value = Values.encodeUrl(record);
    boolean heldThere = targets.put(record, pending.urlKey(), value, inlinks, evicted -> writeBack(evicted, batch, written));
    if (!heldThere && inlinks > 0) {
      // Too long for the table: its inlink is written at once, as every inlink was before it.
      UrlRecord counted = LinkTargets.withInlinks(record, (int) Math.min(record.inlinks() + 1L, Integer.MAX_VALUE));
      writeBack(new LinkTargets.Held(pending.urlKey(), null, counted.inlinks()), batch, written);
    }
  }

  /** The candidate's ranking of its URL at {@code depth} and {@code inlinks}, quantized. */
  private static int rankAt(Pending pending, int depth, int inlinks) {
    return Ranking.quantize(pending.candidate().ranking().priority(pending.candidate().url(), depth, inlinks));
  }

  /** A never-crawled URL's record with a higher priority ({@code rank}) and {@code inlinks}. */
  private static UrlRecord raised(UrlRecord stored, int rank, int inlinks) {
    return new UrlRecord(stored.url(), stored.depth(), stored.discoveredFrom(), stored.discoveredAt(), 0,
        stored.lastCrawl(), stored.nextFetchAt(), Ranking.dequantize(rank), inlinks, stored.hops());
  }

  /**
   * Writes a never-crawled URL whose priority rose, when its entry cannot hold the raise: its record,
   * and its due key moved from {@code previousKey}; the record's value.
   */
  private byte[] writeRaised(WriteRequest request, Pending pending, byte[] previousKey, UrlRecord next,
      BatchBytes batch, Map<String, WriteRequest.Known> written) throws RocksDBException {
    Values.DueEntry due = Values.DueEntry.none(next);
    byte[] dueKey = Keys.due(pending.origin(), next);
    batch.delete(rocks.due, previousKey);
    batch.put(rocks.due, dueKey, Values.encodeDue(due));
    dueStarts.put(pending.origin(), dueKey, applying);
    request.putsFresh(pending.origin(), dueKey, next);
    byte[] value = Values.encodeUrl(next);
    putUrl(batch, pending.urlKey(), value);
    written.put(next.url(), new WriteRequest.Known(next, due));
    return value;
  }

  /**
   * Writes a never-crawled URL's record with the inlinks held for it (its priority, so its due key,
   * unchanged); the record and value written.
   */
  private LinkTargets.Written writeBack(LinkTargets.Held held, BatchBytes batch,
      Map<String, WriteRequest.Known> written) {
    try {
      UrlRecord url = recordOf(held, written);
      byte[] value = Values.encodeUrl(url);
      putUrl(batch, held.key(), value);
      if (held.raised()) {
        // The raise it held, written: the due key moves from the priority written before.
        String origin = CandidateBatch.origin(url.url());
        byte[] dueKey = Keys.due(origin, url);
        batch.delete(rocks.due, dueKeyOnDisk(origin, url, held.writtenRank()));
        batch.put(rocks.due, dueKey, Values.encodeDue(Values.DueEntry.none(url)));
        dueStarts.put(origin, dueKey, applying);
      }
      written.put(url.url(), lookedUp(url));
      return new LinkTargets.Written(url, value);
    } catch (RocksDBException e) {
      throw new StoreException("crawl store at " + rocks.dir + ": " + e.getMessage(), e);
    }
  }

  /**
   * The record of a never-crawled URL an entry held, with its inlinks in all: from the value the entry
   * kept, else as the group wrote it, else as the URL table has it.
   */
  private UrlRecord recordOf(LinkTargets.Held held, Map<String, WriteRequest.Known> written)
      throws RocksDBException {
    String url = Keys.url(held.key());
    UrlRecord stored;
    if (held.value() != null) {
      stored = Values.decodeUrl(url, held.value());
    } else {
      WriteRequest.Known known = written.get(url);
      byte[] value = known != null ? null : rocks.db.get(rocks.urls, held.key());
      if (known == null && value == null) throw new StoreException("crawl store at " + rocks.dir + ": no record for " + url);
      stored = known != null ? known.url() : Values.decodeUrl(url, value);
    }
    UrlRecord counted = LinkTargets.withInlinks(stored, held.inlinks());
    return held.raised() ? raised(counted, held.rank(), counted.inlinks()) : counted;
  }

  /** A record as the lookup found it, with the due entry of a never-crawled URL (crawled ones are left alone). */
  private static WriteRequest.Known lookedUp(UrlRecord url) {
    return new WriteRequest.Known(url, Values.DueEntry.none(url));
  }

  /** Moves a crawled URL's due entry earlier; returns whether it moved. */
  private boolean bringForward(WriteRequest request, BatchBytes batch, Map<String, WriteRequest.Known> written)
      throws RocksDBException {
    WriteRequest.BringForward move = request.bringForward.orElseThrow();
    Optional<WriteRequest.Known> known = known(request, move.url(), written);
    if (known.isEmpty()) return false;
    UrlRecord previous = known.get().url();
    if (previous.fetchCount() == 0 || !previous.nextFetchAt().isAfter(move.dueAt())) return false;
    String origin = CandidateBatch.origin(move.url());
    UrlRecord next = previous.crawled(previous.fetchCount(), previous.lastCrawl(), move.dueAt());
    batch.delete(rocks.due, Keys.due(origin, previous));
    putUrl(batch, Keys.url(move.url()), Values.encodeUrl(next));
    byte[] dueKey = Keys.due(origin, next);
    batch.put(rocks.due, dueKey, Values.encodeDue(known.get().validators()));
    dueStarts.put(origin, dueKey, applying);
    written.put(move.url(), new WriteRequest.Known(next, known.get().validators()));
    return true;
  }

  /**
   * A URL as the group has it in memory: with its held inlinks when its entry in the link table
   * ({@code slot}, from {@link LinkTargets#find}) is of a never-crawled URL, else as written earlier in
   * the group; empty when neither.
   */
  private Optional<WriteRequest.Known> heldOrWritten(String url, int slot, Map<String, WriteRequest.Known> written)
      throws RocksDBException {
    if (slot >= 0) return Optional.of(lookedUp(recordOf(targets.held(slot), written)));
    return Optional.ofNullable(written.get(url));
  }

  /**
   * The updated URL as the group finds it: with its held inlinks when it has an entry, else written
   * earlier in the group, since the lookup, or as looked up.
   */
  private Optional<WriteRequest.Known> known(WriteRequest request, String url,
      Map<String, WriteRequest.Known> written) throws RocksDBException {
    Optional<WriteRequest.Known> known = heldOrWritten(url, targets.find(url, Keys.url(url)), written);
    if (known.isPresent()) return known;
    return request.updatedSkipped || recent.writtenAfter(url, request.seen)
        ? WriteRequest.readNow(rocks, url) : request.recorded;
  }

  private int record(WriteRequest request, BatchBytes batch, Map<String, WriteRequest.Known> written)
      throws RocksDBException {
    CrawlRecord crawl = request.record.orElseThrow();
    String url = crawl.url();
    return writeCrawl(request, crawl, known(request, url, written), null, batch, written);
  }

  /**
   * Records {@code crawl} on its URL: as {@code known} has it, else {@code unknown} (null: a record
   * with nothing but the URL). The call's own record ({@link WriteRequest#record}) also sets {@link
   * WriteRequest#firstCrawl} and writes its digest's registration. Returns 1 when the URL is new.
   */
  private int writeCrawl(WriteRequest request, CrawlRecord crawl, Optional<WriteRequest.Known> known,
      UrlRecord unknown, BatchBytes batch, Map<String, WriteRequest.Known> written) throws RocksDBException {
    return writeCrawl(request, crawl, known, unknown, batch, written, false);
  }

  /** {@code counted}: a new URL its caller counted in already ({@link OriginUrlCounts#admit}). */
  private int writeCrawl(WriteRequest request, CrawlRecord crawl, Optional<WriteRequest.Known> known,
      UrlRecord unknown, BatchBytes batch, Map<String, WriteRequest.Known> written, boolean counted)
      throws RocksDBException {
    String url = crawl.url();
    String origin = CandidateBatch.origin(url);
    if (known.isEmpty() && !counted) originUrls.add(origin, url); // a crawl recorded is kept whatever the count
    boolean own = request.record.isPresent() && request.record.get() == crawl;
    UrlRecord previous = known.map(WriteRequest.Known::url).orElseGet(() -> unknown != null ? unknown
        : new UrlRecord(url, 0, Optional.empty(), request.now, 0, Optional.empty(), Instant.EPOCH));
    Values.DueEntry validators =
        known.map(WriteRequest.Known::validators).orElseGet(() -> Values.DueEntry.none(previous));
    byte[] key = Keys.url(url);
    if (known.isPresent()) {
      // A raise its entry holds was never written: the due index has the key of the priority before.
      int slot = previous.fetchCount() == 0 ? targets.find(url, key) : -1;
      int writtenRank = slot >= 0 ? targets.writtenRank(slot) : -1;
      batch.delete(rocks.due, dueKeyOnDisk(origin, previous, writtenRank));
    }
    int fetchCount = previous.fetchCount() + 1;
    if (own) request.firstCrawl = fetchCount == 1;
    UrlRecord next = previous.crawled(fetchCount, Optional.of(crawl), crawl.nextFetchAt());
    Values.DueEntry after = Validators.after(validators, crawl, fetchCount);
    putUrl(batch, key, Values.encodeUrl(next));
    // Crawled now: the inlinks its entry held are in this record. The entry is let go, its slot free for
    // a URL whose inlinks count; a link to this one is known by its fingerprint once the group is written.
    targets.forgetCrawled(url, key);
    // The history family keeps the crawls before the last (format 3): the last is this record's, and
    // the one it replaces moves there now. A URL crawled once (most, and every refusal) costs no entry.
    if (previous.lastCrawl().isPresent()) {
      CrawlRecord last = previous.lastCrawl().get();
      batch.put(rocks.history, Keys.history(url, last.fetchedAt(), previous.fetchCount()), Values.encodeCrawl(last));
    }
    if (own && request.registration.isPresent()) DigestIndex.put(batch, rocks, request.registration.get(), url);
    byte[] dueKey = Keys.due(origin, next);
    batch.put(rocks.due, dueKey, Values.encodeDue(after));
    dueStarts.put(origin, dueKey, applying);
    written.put(url, new WriteRequest.Known(next, after));
    return known.isPresent() ? 0 : 1;
  }
}
