package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import org.forager.url.Origin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.PerfContext;
import org.rocksdb.PerfLevel;

/** Issue 15: due scans seek past the deleted keys of the URLs taken, and never past a live one. */
class DueStartsTest {

  private static final Instant T0 = Instant.parse("2026-11-21T00:00:00Z");
  /** Before the crawled URLs are due again: scans list never-crawled ones only. */
  private static final Instant CUTOFF = T0.plus(Duration.ofDays(1));
  private static final Origin A = Origin.ofUrl("https://a.example");

  @TempDir Path dir;
  private RocksCrawlStore store;

  @BeforeEach
  void open() {
    store = RocksCrawlStore.open(dir.resolve("store"), RocksCrawlStore.MIN_MEMORY_BYTES,
        Clock.fixed(T0, ZoneOffset.UTC), 1_024);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static Candidate ranked(String url, double priority) {
    return new Candidate(url, 1, Optional.of("https://a.example/"), 0, (u, depth, inlinks) -> priority);
  }

  private static CrawlRecord crawl(String url) {
    return DueIndexOnDisk.fetched(url, T0);
  }

  /** The origin's never-crawled URLs as the due index has them, read from its prefix without a start. */
  private List<String> freshFromThePrefix() {
    return DueIndexOnDisk.fresh(store, A);
  }

  private List<String> due(int limit) {
    return store.due(A, CUTOFF, limit).stream().map(DueCandidate::url).toList();
  }

  @Test
  void aScanAfterTheFirstStepsOverNoDeletedKey() throws Exception {
    List<Candidate> pages = new ArrayList<>();
    for (int i = 0; i < 200; i++) pages.add(ranked("https://a.example/p" + i, 0.5 - i / 1000.0));
    store.addCandidates(pages);
    store.due(A, CUTOFF, 16);
    for (int i = 0; i < 150; i++) store.record(crawl("https://a.example/p" + i), List.of());
    try (PerfContext perf = store.database().db.getPerfContext()) {
      store.database().db.setPerfLevel(PerfLevel.ENABLE_COUNT);
      perf.reset();
      assertEquals("https://a.example/p150", due(16).get(0));
      long first = perf.getInternalDeleteSkippedCount();
      perf.reset();
      assertEquals("https://a.example/p150", due(16).get(0));
      long second = perf.getInternalDeleteSkippedCount();
      assertTrue(first >= 150, "the first scan from where the last started: " + first);
      assertEquals(0, second, "the second from its first live key");
    } finally {
      store.database().db.setPerfLevel(PerfLevel.DISABLE);
    }
  }

  @Test
  void aUrlPutBeforeTheStartIsFound() {
    List<Candidate> pages = new ArrayList<>();
    for (int i = 0; i < 40; i++) pages.add(ranked("https://a.example/p" + i, 0.4 - i / 1000.0));
    store.addCandidates(pages);
    for (int i = 0; i < 20; i++) {
      due(16);
      store.record(crawl("https://a.example/p" + i), List.of());
    }
    assertEquals("https://a.example/p20", due(1).get(0));
    store.addCandidates(List.of(ranked("https://a.example/first", 0.9)));
    assertEquals(List.of("https://a.example/first", "https://a.example/p20"), due(2));
    // A link raising a waiting URL's priority moves its key before the start too.
    store.record(crawl("https://a.example/first"), List.of());
    store.record(crawl("https://a.example/p20"), List.of(
        new Candidate("https://a.example/p39", 1, Optional.of("https://a.example/p20"), 0, (u, d, inlinks) -> 0.8)));
    assertEquals("https://a.example/p39", due(1).get(0), "the raise, held in memory");
    // Written (a full read drains what the link targets hold): its key moves before the start.
    store.forEachUrl(u -> {});
    assertEquals("https://a.example/p39", due(1).get(0), "the raise, written");
    assertEquals(freshFromThePrefix(), due(100));
  }

  /**
   * Writers add URLs of the origin, some before the scans' start, while a reader scans and crawls the
   * first it gets: at the end the scan lists exactly what the index holds.
   */
  @Test
  void urlsAddedWhileTheOriginIsScannedAreNeverSkipped() throws Exception {
    List<Candidate> pages = new ArrayList<>();
    for (int i = 0; i < 100; i++) pages.add(ranked("https://a.example/p" + i, 0.3));
    store.addCandidates(pages);
    for (int round = 0; round < 4; round++) {
      int r = round;
      AtomicBoolean done = new AtomicBoolean();
      CyclicBarrier start = new CyclicBarrier(3);
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        int id = w;
        writers.add(Thread.ofPlatform().start(() -> {
          Random random = new Random(r * 10 + id);
          await(start);
          for (int i = 0; i < 60; i++) {
            store.addCandidates(List.of(ranked("https://a.example/w" + r + "-" + id + "-" + i, random.nextDouble())));
          }
        }));
      }
      await(start);
      for (int i = 0; i < 40; i++) {
        List<String> next = due(4);
        if (!next.isEmpty()) store.record(crawl(next.get(0)), List.of());
      }
      for (Thread t : writers) t.join();
      assertEquals(freshFromThePrefix(), due(10_000), "round " + round);
    }
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
