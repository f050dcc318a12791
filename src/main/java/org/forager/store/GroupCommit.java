package org.forager.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The write path of the URL table: exact deduplication and atomic writes, with the expensive part
 * outside the lock and many calls' writes merged into one.
 *
 * <p>A call first looks its URLs up without any lock ({@link WriteRequest#lookUp}), noting the
 * latest commit those lookups see, then queues itself and takes the write lock. Whoever holds the
 * lock drains the queue and writes every queued call in queue order as one group: one RocksDB
 * write batch, one write-ahead-log append. Under the lock a lookup is corrected by
 * {@link RecentWrites} (a URL written after the commit it saw is known after all, or its record is
 * read again) and by what earlier calls of the same group wrote; so the result is what running the
 * calls one at a time, in queue order, would give. A caller returns once the group holding its
 * call is written (or failed: then every call of the group fails, and nothing of it was written),
 * so "returned" still means "in the write-ahead log". Thread-safe.
 */
final class GroupCommit {

  /** Calls written together at most; more wait for the next group. */
  private static final int MAX_GROUP = 256;

  private final RocksDatabase rocks;
  private final WriteOptions writeOptions;
  private final ReentrantLock lock = new ReentrantLock();
  private final ConcurrentLinkedQueue<WriteRequest> queue = new ConcurrentLinkedQueue<>();
  /** Guarded by lock. */
  private final RecentWrites recent = new RecentWrites();
  /** The latest commit whose write returned: every lookup started later sees it. */
  private volatile long visible;
  private volatile long urlCount;

  GroupCommit(RocksDatabase rocks, WriteOptions writeOptions, long urlCount) {
    this.rocks = rocks;
    this.writeOptions = writeOptions;
    this.urlCount = urlCount;
  }

  long urlCount() {
    return urlCount;
  }

  /** Runs one call: its lookups, then its share of a group write; returns how many URLs it added. */
  int submit(WriteRequest request) throws RocksDBException {
    request.lookUp(rocks, visible);
    queue.add(request);
    lock.lock();
    try {
      while (!request.done()) writeGroup();
    } finally {
      lock.unlock();
    }
    return request.result();
  }

  /** Writes the queued calls as one batch; caller holds the lock. */
  private void writeGroup() {
    List<WriteRequest> group = new ArrayList<>();
    for (WriteRequest next; group.size() < MAX_GROUP && (next = queue.poll()) != null; ) {
      group.add(next);
    }
    try (WriteBatch batch = new WriteBatch()) {
      Map<String, WriteRequest.Known> written = new HashMap<>();
      int[] added = new int[group.size()];
      int total = 0;
      for (int i = 0; i < group.size(); i++) {
        added[i] = apply(group.get(i), batch, written);
        total += added[i];
      }
      if (!written.isEmpty()) {
        long count = urlCount + total;
        batch.put(rocks.meta, Keys.URL_COUNT,
            new ByteWriter(8).writeLongBigEndian(count).toByteArray());
        rocks.db.write(writeOptions, batch);
        urlCount = count;
        recent.add(written.keySet());
        visible = recent.latest();
      }
      for (int i = 0; i < group.size(); i++) group.get(i).succeed(added[i]);
    } catch (RocksDBException | RuntimeException e) {
      for (WriteRequest request : group) request.fail(e);
    } finally {
      // An Error (out of memory) must not leave drained calls waiting for ever.
      for (WriteRequest request : group) {
        if (!request.done()) request.fail(new StoreException("the write of this call was aborted"));
      }
    }
  }

  /** Puts one call's writes in the batch; returns how many URLs it adds. */
  private int apply(WriteRequest request, WriteBatch batch, Map<String, WriteRequest.Known> written)
      throws RocksDBException {
    if (!recent.covers(request.seen)) request.lookUp(rocks, recent.latest()); // too old to correct
    int added = 0;
    if (request.record.isPresent()) added += record(request, batch, written);
    if (request.bringForward.isPresent()) request.moved = bringForward(request, batch, written);
    for (int i = 0; i < request.candidates.size(); i++) {
      Pending pending = request.candidates.get(i);
      String url = pending.candidate().url();
      boolean known = request.found[i] != null || written.containsKey(url) || recent.writtenAfter(url, request.seen);
      if (known) {
        if (request.firstCrawl) addInlink(request, i, batch, written);
        continue;
      }
      Candidate candidate = pending.candidate();
      int inlinks = request.firstCrawl ? 1 : 0;
      double priority = Ranking.dequantize(Ranking.quantize(candidate.ranking().priority(url, candidate.depth(), inlinks)));
      UrlRecord fresh = new UrlRecord(url, candidate.depth(), candidate.discoveredFrom(),
          request.now, 0, Optional.empty(), Instant.EPOCH, priority, inlinks, candidate.hops());
      Values.DueEntry due = Values.DueEntry.none(fresh);
      batch.put(rocks.urls, pending.urlKey(), Values.encodeUrl(fresh));
      batch.put(rocks.due, Keys.due(pending.origin(), fresh), Values.encodeDue(due));
      written.put(url, new WriteRequest.Known(fresh, due));
      added++;
    }
    return added;
  }

  /**
   * One more page links to a known candidate: while it is uncrawled, its inlinks grow by one and
   * its priority to its new ranking when that is higher (then its due key moves).
   */
  private void addInlink(WriteRequest request, int index, WriteBatch batch, Map<String, WriteRequest.Known> written)
      throws RocksDBException {
    Pending pending = request.candidates.get(index);
    String url = pending.candidate().url();
    WriteRequest.Known known = written.get(url);
    if (known == null) {
      Optional<WriteRequest.Known> now = recent.writtenAfter(url, request.seen) || request.found[index] == null
          ? WriteRequest.readNow(rocks, url)
          : Optional.of(lookedUp(Values.decodeUrl(url, request.found[index])));
      if (now.isEmpty()) return;
      known = now.get();
    }
    UrlRecord previous = known.url();
    if (previous.fetchCount() != 0) return;
    int inlinks = previous.inlinks() + 1;
    int rank = Math.max(Ranking.quantize(previous.priority()),
        Ranking.quantize(pending.candidate().ranking().priority(url, previous.depth(), inlinks)));
    UrlRecord next = new UrlRecord(url, previous.depth(), previous.discoveredFrom(), previous.discoveredAt(), 0,
        previous.lastCrawl(), previous.nextFetchAt(), Ranking.dequantize(rank), inlinks, previous.hops());
    Values.DueEntry due = known.validators().rankedAs(next);
    if (rank != Ranking.quantize(previous.priority())) {
      batch.delete(rocks.due, Keys.due(pending.origin(), previous));
      batch.put(rocks.due, Keys.due(pending.origin(), next), Values.encodeDue(due));
    }
    batch.put(rocks.urls, pending.urlKey(), Values.encodeUrl(next));
    written.put(url, new WriteRequest.Known(next, due));
  }

  /** A record as the lookup found it, with the due entry of a never-crawled URL (crawled ones are left alone). */
  private static WriteRequest.Known lookedUp(UrlRecord url) {
    return new WriteRequest.Known(url, Values.DueEntry.none(url));
  }

  /** Moves a crawled URL's due entry earlier; returns whether it moved. */
  private boolean bringForward(WriteRequest request, WriteBatch batch, Map<String, WriteRequest.Known> written)
      throws RocksDBException {
    WriteRequest.BringForward move = request.bringForward.orElseThrow();
    Optional<WriteRequest.Known> known = known(request, move.url(), written);
    if (known.isEmpty()) return false;
    UrlRecord previous = known.get().url();
    if (previous.fetchCount() == 0 || !previous.nextFetchAt().isAfter(move.dueAt())) return false;
    String origin = CandidateBatch.origin(move.url());
    UrlRecord next = previous.crawled(previous.fetchCount(), previous.lastCrawl(), move.dueAt());
    batch.delete(rocks.due, Keys.due(origin, previous));
    batch.put(rocks.urls, Keys.url(move.url()), Values.encodeUrl(next));
    batch.put(rocks.due, Keys.due(origin, next), Values.encodeDue(known.get().validators()));
    written.put(move.url(), new WriteRequest.Known(next, known.get().validators()));
    return true;
  }

  /** The updated URL as the group finds it: written earlier in the group, since the lookup, or as looked up. */
  private Optional<WriteRequest.Known> known(WriteRequest request, String url,
      Map<String, WriteRequest.Known> written) throws RocksDBException {
    Optional<WriteRequest.Known> known = Optional.ofNullable(written.get(url));
    if (known.isPresent()) return known;
    return recent.writtenAfter(url, request.seen) ? WriteRequest.readNow(rocks, url) : request.recorded;
  }

  private int record(WriteRequest request, WriteBatch batch, Map<String, WriteRequest.Known> written)
      throws RocksDBException {
    CrawlRecord crawl = request.record.orElseThrow();
    String url = crawl.url();
    String origin = CandidateBatch.origin(url);
    Optional<WriteRequest.Known> known = known(request, url, written);
    UrlRecord previous = known.map(WriteRequest.Known::url).orElseGet(() -> new UrlRecord(url, 0,
        Optional.empty(), request.now, 0, Optional.empty(), Instant.EPOCH));
    Values.DueEntry validators =
        known.map(WriteRequest.Known::validators).orElseGet(() -> Values.DueEntry.none(previous));
    if (known.isPresent()) batch.delete(rocks.due, Keys.due(origin, previous));
    int fetchCount = previous.fetchCount() + 1;
    request.firstCrawl = fetchCount == 1;
    UrlRecord next = previous.crawled(fetchCount, Optional.of(crawl), crawl.nextFetchAt());
    Values.DueEntry after = Validators.after(validators, crawl, fetchCount);
    batch.put(rocks.urls, Keys.url(url), Values.encodeUrl(next));
    batch.put(rocks.history, Keys.history(url, crawl.fetchedAt(), fetchCount),
        Values.encodeCrawl(crawl));
    batch.put(rocks.due, Keys.due(origin, next), Values.encodeDue(after));
    written.put(url, new WriteRequest.Known(next, after));
    return known.isPresent() ? 0 : 1;
  }
}
