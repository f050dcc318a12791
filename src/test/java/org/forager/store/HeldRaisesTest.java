package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.url.Origin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;

/**
 * Issue 15: a link that raises a never-crawled URL's priority is held in memory, not written; due
 * scans show the URL at its new place, and the store on disk stays whole (each URL's record and due
 * key agree) whether the raise is written later, never (its URL crawled first), or lost.
 */
class HeldRaisesTest {

  private static final Instant T0 = Instant.parse("2026-11-21T00:00:00Z");
  private static final Instant CUTOFF = T0.plus(Duration.ofDays(1));
  private static final Origin A = Origin.ofUrl("https://a.example");

  @TempDir Path dir;
  private RocksCrawlStore store;

  private RocksCrawlStore open(int linkTargets) {
    store = RocksCrawlStore.open(dir.resolve("store"), RocksCrawlStore.MIN_MEMORY_BYTES,
        Clock.fixed(T0, ZoneOffset.UTC), linkTargets);
    return store;
  }

  @AfterEach
  void close() {
    if (store != null) store.close();
  }

  private static String p(int i) {
    return "https://a.example/p" + i;
  }

  /** p0..p{n-1}, each ranked below the one before. */
  private void addPages(int n) {
    List<Candidate> pages = new ArrayList<>();
    for (int i = 0; i < n; i++) pages.add(ranked(p(i), 0.4 - i / 1000.0));
    store.addCandidates(pages);
  }

  private static Candidate ranked(String url, double priority) {
    return new Candidate(url, 1, Optional.of("https://a.example/"), 0, (u, depth, inlinks) -> priority);
  }

  /** A first crawl of {@code page} linking to {@code target}, which the link ranks at {@code priority}. */
  private void linkFrom(String page, String target, double priority) {
    store.record(crawl(page), List.of(new Candidate(target, 1, Optional.of(page), 0, (u, d, inlinks) -> priority)));
  }

  private static CrawlRecord crawl(String url) {
    return DueIndexOnDisk.fetched(url, T0);
  }

  private List<String> due(int limit) {
    return store.due(A, CUTOFF, limit).stream().map(DueCandidate::url).toList();
  }

  /** The origin's never-crawled URLs as the due index on disk has them, in its order. */
  private List<String> freshOnDisk() {
    return DueIndexOnDisk.fresh(store, A);
  }

  /** The priority the URL table has for {@code url}, checked to be the one its due key on disk has. */
  private double priorityOnDisk(String url) throws RocksDBException {
    UrlRecord record = Values.decodeUrl(url, store.database().db.get(store.database().urls, Keys.url(url)));
    if (record.fetchCount() == 0) {
      assertTrue(store.database().db.get(store.database().due, Keys.due(CandidateBatch.origin(url), record)) != null,
          url + ": no due key at the priority its record has");
    }
    return record.priority();
  }

  @Test
  void aRaiseIsNotWrittenButDueScansShowIt() throws RocksDBException {
    open(1_024);
    addPages(40);
    linkFrom("https://a.example/hub", p(39), 0.8);
    assertEquals(1, store.heldRaises());
    assertEquals(0.4 - 39 / 1000.0, priorityOnDisk(p(39)), 0.0001, "its record and key, as before");
    assertEquals(p(39), freshOnDisk().get(39), "the due index has it last");
    assertEquals(List.of(p(39), p(0), p(1)), due(3), "a scan, first");
    assertEquals(List.of(p(39)), due(1));
    assertEquals(0.8, store.url(p(39)).orElseThrow().priority(), 0.0001, "the store answers the raise");
  }

  @Test
  void everyScanIsAPrefixOfTheOrderAWrittenRaiseGives() throws RocksDBException {
    open(1_024);
    addPages(40);
    linkFrom("https://a.example/h1", p(30), 0.8);
    linkFrom("https://a.example/h2", p(35), 0.3985); // between p1 and p2
    linkFrom("https://a.example/h3", p(5), 0.3995);  // between p0 and p1
    linkFrom("https://a.example/h4", p(39), 0.3955); // between p4 and p6 (p5 raised)
    assertEquals(4, store.heldRaises());
    List<String> all = due(100);
    assertEquals(40, all.size());
    assertEquals(List.of(p(30), p(0), p(5), p(1), p(35), p(2)), all.subList(0, 6));
    for (int k = 1; k <= 40; k++) assertEquals(all.subList(0, k), due(k), "the first " + k);
    store.forEachUrl(u -> {}); // a full read writes what the link targets hold
    assertEquals(0, store.heldRaises());
    assertEquals(all, freshOnDisk(), "the due index, the raises written");
    assertEquals(all, due(100));
    assertEquals(0.8, priorityOnDisk(p(30)), 0.0001);
  }

  @Test
  void aCrawlDeletesTheKeyTheUrlHasOnDisk() throws RocksDBException {
    open(1_024);
    addPages(10);
    linkFrom("https://a.example/hub", p(9), 0.8);
    assertEquals(p(9), due(1).get(0));
    store.record(crawl(p(9)), List.of());
    assertEquals(0, store.heldRaises());
    assertFalse(freshOnDisk().contains(p(9)), "its older key, deleted");
    assertEquals(List.of(p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8)), due(100));
    UrlRecord crawled = store.url(p(9)).orElseThrow();
    assertEquals(1, crawled.fetchCount());
    assertEquals(0.8, crawled.priority(), 0.0001, "crawled with the priority it rose to");
  }

  @Test
  void anEvictedEntryWritesItsRaiseWithTheKeyMoved() throws RocksDBException {
    open(LinkTargets.WAYS); // one set of eight entries: nine raises held cannot all stay
    addPages(12);
    for (int i = 1; i <= 9; i++) linkFrom("https://a.example/hub" + i, p(i), 0.5 + i / 100.0);
    assertTrue(store.heldRaises() < 9, "some evicted, so written: " + store.heldRaises());
    List<String> expected = List.of(p(9), p(8), p(7), p(6), p(5), p(4), p(3), p(2), p(1), p(0), p(10), p(11));
    assertEquals(expected, due(100));
    for (int i = 0; i < 12; i++) priorityOnDisk(p(i)); // each record agrees with its due key
    List<String> onDisk = freshOnDisk();
    assertEquals(12, onDisk.size(), "each URL once: " + onDisk);
    for (int i = 1; i <= 9; i++) {
      double onDiskNow = priorityOnDisk(p(i));
      assertTrue(Math.abs(onDiskNow - (0.4 - i / 1000.0)) < 0.0001 || Math.abs(onDiskNow - (0.5 + i / 100.0)) < 0.0001,
          p(i) + ": " + onDiskNow);
    }
    assertTrue(java.util.stream.IntStream.rangeClosed(1, 9).anyMatch(i -> {
      try {
        return priorityOnDisk(p(i)) > 0.5;
      } catch (RocksDBException e) {
        throw new AssertionError(e);
      }
    }), "a raise written, its key moved");
    store.forEachUrl(u -> {});
    assertEquals(expected, freshOnDisk());
  }

  @Test
  void anOriginSharingABucketAndAPrefixGetsNoneOfTheOthersRaises() {
    open(1_024);
    // An origin whose URLs start with A's and whose raises are listed in A's bucket.
    String other = null;
    for (int i = 0; other == null; i++) {
      String candidate = "https://a.example" + i;
      if (LinkTargets.bucketOf(candidate) == LinkTargets.bucketOf(A.toString())) other = candidate;
    }
    Origin b = Origin.ofUrl(other);
    addPages(3);
    store.addCandidates(List.of(ranked(other + "/q0", 0.3), ranked(other + "/q1", 0.2)));
    linkFrom(other + "/hub", other + "/q1", 0.9);
    linkFrom("https://a.example/hub", p(2), 0.8);
    assertEquals(2, store.heldRaises());
    assertEquals(List.of(p(2), p(0), p(1)), due(10));
    assertEquals(List.of(other + "/q1", other + "/q0"),
        store.due(b, CUTOFF, 10).stream().map(DueCandidate::url).toList());
  }

  @Test
  void theStoreOnDiskIsWholeWhileARaiseIsHeld() throws RocksDBException {
    open(1_024);
    addPages(10);
    linkFrom("https://a.example/hub", p(9), 0.8);
    // What a kill -9 would leave (HeldInlinksCrashTest kills one): nothing of the raise written.
    assertEquals(0.4 - 9 / 1000.0, priorityOnDisk(p(9)), 0.0001);
    assertEquals(List.of(p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8), p(9)), freshOnDisk());
    store.close();
    open(1_024);
    assertEquals(0.8, priorityOnDisk(p(9)), 0.0001, "a close writes it");
    assertEquals(p(9), due(1).get(0));
  }
}
