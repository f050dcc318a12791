package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.forager.fetch.Outcome;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The races group commit must get right: lookups made outside the lock that a concurrent commit
 * made stale, and calls on the same URL written in one group.
 */
class GroupCommitTest {

  private static final Instant T0 = Instant.parse("2026-11-21T00:00:00Z");
  private static final String HOT = "https://hot.example/page";

  @TempDir
  Path dir;

  @Test
  @Timeout(60)
  void concurrentRecordsOfOneUrlCountEveryCrawlAndLeaveOneDueEntry() throws Exception {
    int threads = 6;
    int perThread = 40;
    try (RocksCrawlStore store = RocksCrawlStore.open(dir)) {
      store.addCandidates(List.of(Candidate.seed(HOT)));
      Concurrently.run(threads, thread -> {
        for (int i = 0; i < perThread; i++) {
          store.record(crawl(HOT, T0.plusSeconds(thread * 1000L + i)),
              List.of(new Candidate("https://hot.example/t" + thread + "/" + i, 1, Optional.of(HOT))));
        }
      });
      int crawls = threads * perThread;
      assertEquals(crawls, store.url(HOT).orElseThrow().fetchCount());
      assertEquals(crawls, store.history(HOT).size());
      List<DueCandidate> due = store.due(Origin.ofUrl(HOT), T0.plus(Duration.ofDays(30)), 10_000);
      assertEquals(1, due.stream().filter(d -> d.url().equals(HOT)).count(), "one due entry");
      assertEquals(1 + crawls, store.urlCount());
      assertEquals(1 + crawls, due.size());
    }
  }

  @Test
  @Timeout(60)
  void aUrlAddedAndRecordedAtOnceIsKnownOnce() throws Exception {
    int threads = 6;
    int urls = 300;
    AtomicInteger added = new AtomicInteger();
    try (RocksCrawlStore store = RocksCrawlStore.open(dir)) {
      Concurrently.run(threads, thread -> {
        for (int i = 0; i < urls; i++) {
          String url = "https://race.example/" + i;
          if (thread % 2 == 0) {
            store.record(crawl(url, T0.plusSeconds(thread)), List.of());
          } else {
            added.addAndGet(store.addCandidates(List.of(new Candidate(url, 2, Optional.of(HOT)))));
          }
        }
      });
      assertEquals(urls, store.urlCount());
      AtomicInteger visited = new AtomicInteger();
      store.forEachUrl(url -> {
        visited.incrementAndGet();
        assertEquals(threads / 2, url.fetchCount(), url.url());
      });
      assertEquals(urls, visited.get());
      assertEquals(urls, store.due(Origin.ofUrl("https://race.example/"),
          T0.plus(Duration.ofDays(30)), 10_000).size(), "one due entry per URL");
      assertTrue(added.get() <= urls);
    }
  }

  @Test
  void recentWritesAnswerForTheCommitsAfterALookupAndForgetBeyondTheirBound() {
    RecentWrites recent = new RecentWrites();
    assertTrue(recent.covers(0));
    recent.add(Set.of("a"));
    recent.add(Set.of("b"));
    assertTrue(recent.writtenAfter("a", 0));
    assertFalse(recent.writtenAfter("a", 1));
    assertTrue(recent.writtenAfter("b", 1));
    assertFalse(recent.writtenAfter("c", 0));
    Set<String> many = new java.util.HashSet<>();
    for (int i = 0; i < RecentWrites.MAX_URLS; i++) many.add("u" + i);
    recent.add(many);
    assertFalse(recent.covers(1), "commits 1 and 2 are forgotten");
    assertTrue(recent.covers(2));
    assertTrue(recent.writtenAfter("u7", 2));
  }

  @Test
  void theOriginOfAPlainUrlIsWhatOriginSays() {
    for (String url : List.of("https://a.example/x", "http://a-b.example", "https://A.example/",
        "https://u@a.example/", "https://a.example:8443/p", "http://a.example:80/", "http://[::1]:8/",
        "https://xn--bcher-kva.example/?q", "https://a.example#f", "http://127.1.2.3:8090/p/1.html",
        "https://a.example:443/", "http://a.example:0080/", "http://a.example:8080", "http://a.example:8080?q",
        "https://a.example:80/", "http://a.example:65535/", "http://a.example:/x")) {
      assertEquals(Origin.ofUrl(url).toString(), CandidateBatch.origin(url), url);
    }
  }

  /**
   * Calls submitted together ({@code record(before, ...)}) interleave with other threads' calls on
   * the same URLs: each is still written as one call in queue order, none lost, none twice.
   */
  @Test
  @Timeout(60)
  void callsSubmittedTogetherAreEachWrittenOnceInOrder() throws Exception {
    int threads = 6;
    int perThread = 40;
    try (RocksCrawlStore store = RocksCrawlStore.open(dir)) {
      store.addCandidates(List.of(Candidate.seed(HOT)));
      Concurrently.run(threads, thread -> {
        for (int i = 0; i < perThread; i++) {
          Instant at = T0.plusSeconds(thread * 1000L + i);
          String own = "https://hot.example/t" + thread + "/" + i;
          // Refusals of a shared URL and of the thread's own, then a page record of the hot URL.
          store.record(List.of(crawl(HOT + "/refused", at), crawl(own, at)), crawl(HOT, at),
              List.of(new Candidate(own + "/link", 1, Optional.of(HOT))), List.of());
        }
      });
      int calls = threads * perThread;
      assertEquals(calls, store.url(HOT).orElseThrow().fetchCount());
      assertEquals(calls, store.url(HOT + "/refused").orElseThrow().fetchCount());
      assertEquals(calls, store.history(HOT + "/refused").size());
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < perThread; i++) {
          assertEquals(1, store.url("https://hot.example/t" + t + "/" + i).orElseThrow().fetchCount());
        }
      }
      List<DueCandidate> due = store.due(Origin.ofUrl(HOT), T0.plus(Duration.ofDays(30)), 10_000);
      assertEquals(1, due.stream().filter(d -> d.url().equals(HOT + "/refused")).count(), "one due entry");
      assertEquals(2 + 2 * calls, store.urlCount());
      assertEquals(2 + 2 * calls, due.size());
    }
  }

  /**
   * The crawl's case: hundreds of virtual threads recording at once, most finding the lock taken and
   * waiting for their write without it. Each returns once its own call is written, none waits for
   * ever, and a caller interrupted while it waits is still written and keeps its interrupt.
   */
  @Test
  @Timeout(60)
  void manyVirtualThreadsEachReturnOnceTheirCallIsWrittenAndAnInterruptIsKept() throws Exception {
    int threads = 400;
    int perThread = 10;
    AtomicInteger keptInterrupt = new AtomicInteger();
    RocksCrawlStore store = RocksCrawlStore.open(dir);
    store.addCandidates(List.of(Candidate.seed(HOT)));
    List<Future<?>> done = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    // Not closed when a caller is stuck (close would wait for it): virtual threads do not keep the JVM.
    ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(pool.submit(() -> {
        start.await();
        for (int i = 0; i < perThread; i++) {
          String own = "https://many.example/t" + thread + "/" + i;
          // Odd threads are interrupted before every call: waiting must not lose their writes.
          if (thread % 2 == 1) Thread.currentThread().interrupt();
          store.record(crawl(own, T0.plusSeconds(i)), List.of(new Candidate(own + "/link", 1, Optional.of(own))));
          if (thread % 2 == 1 && Thread.interrupted()) keptInterrupt.incrementAndGet();
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> f : done) f.get(30, TimeUnit.SECONDS); // a TimeoutException: a caller waits for ever
    pool.close();
    try (store) {
      assertEquals(threads / 2 * perThread, keptInterrupt.get(), "every interrupted caller kept its interrupt");
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < perThread; i++) {
          String own = "https://many.example/t" + t + "/" + i;
          assertEquals(1, store.url(own).orElseThrow().fetchCount(), own);
          assertTrue(store.url(own + "/link").isPresent(), own + "/link");
        }
      }
      assertEquals(1 + 2L * threads * perThread, store.urlCount());
    }
  }

  /**
   * Virtual threads ready to run at once, each processing a page and recording it, are written in a
   * few groups, not one group each: a caller that would write alone yields first, so the others
   * process their pages and queue their calls meanwhile (the crawl's case: many pages ready at once
   * on a few carriers, each taking far longer to process than its write). They wait parked at the
   * start and are unparked together, so that all of them are ready at once.
   */
  @Test
  @Timeout(60)
  void virtualThreadsReadyTogetherAreWrittenInFewGroups() throws Exception {
    int threads = 200;
    try (RocksCrawlStore store = RocksCrawlStore.open(dir)) {
      store.addCandidates(List.of(Candidate.seed(HOT)));
      long before = store.groupsWritten();
      AtomicBoolean open = new AtomicBoolean();
      AtomicLong work = new AtomicLong();
      List<Thread> pages = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String own = "https://ready.example/" + t;
        pages.add(Thread.ofVirtual().start(() -> {
          while (!open.get()) LockSupport.park();
          work.addAndGet(processPage(own));
          store.record(crawl(own, T0), List.of(new Candidate(own + "/link", 1, Optional.of(own))));
        }));
      }
      // Every one parked at the start, then all unparked at once: ready together, as a crawl's pages.
      startTogether(pages, open);
      for (int t = 0; t < threads; t++) {
        assertEquals(1, store.url("https://ready.example/" + t).orElseThrow().fetchCount());
      }
      long groups = store.groupsWritten() - before;
      assertTrue(groups <= threads / 10, threads + " pages ready together took " + groups + " groups");
    }
  }

  /**
   * Pages of long links ready together are written in groups of at most {@link
   * GroupCommit#MAX_GROUP_BYTES} and one call: a hostile page's 500 links under a 2,000-char base are
   * megabytes of batch, and thirty such calls in one group ran a 264 MiB heap out.
   */
  @Test
  @Timeout(60)
  void callsOfLongLinksReadyTogetherAreWrittenInGroupsOfBoundedLength() throws Exception {
    int threads = 12;
    String base = "/" + "d".repeat(1_900) + "/";
    try (RocksCrawlStore store = RocksCrawlStore.open(dir)) {
      store.record(crawl("https://alone.example/", T0), links("https://alone.example" + base, 600));
      long oneCall = store.largestGroupBytes();
      assertTrue(oneCall > 2_000_000, oneCall + " bytes");
      AtomicBoolean open = new AtomicBoolean();
      List<Thread> pages = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String own = "https://long" + t + ".example/";
        pages.add(Thread.ofVirtual().start(() -> {
          while (!open.get()) LockSupport.park();
          store.record(crawl(own, T0), links(own.substring(0, own.length() - 1) + base, 600));
        }));
      }
      startTogether(pages, open);
      for (int t = 0; t < threads; t++) {
        assertTrue(store.url("https://long" + t + ".example" + base + 599).isPresent(), "every link written");
      }
      long largest = store.largestGroupBytes();
      assertTrue(largest <= GroupCommit.MAX_GROUP_BYTES + oneCall, largest + " bytes in one group");
    }
  }

  /**
   * Once every page thread is parked at its start (waiting for {@code open}), opens it and unparks them
   * all at once, then waits for every one's write.
   */
  private static void startTogether(List<Thread> pages, AtomicBoolean open) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    for (Thread page : pages) {
      while (page.getState() != Thread.State.WAITING) {
        assertTrue(System.nanoTime() < deadline, "a page thread never parked at the start");
        Thread.onSpinWait();
      }
    }
    open.set(true);
    for (Thread page : pages) LockSupport.unpark(page);
    for (Thread page : pages) assertTrue(page.join(Duration.ofSeconds(30)), "a page's write never returned");
  }

  private static List<Candidate> links(String prefix, int count) {
    List<Candidate> links = new ArrayList<>();
    for (int k = 0; k < count; k++) links.add(new Candidate(prefix + k, 1, Optional.empty()));
    return links;
  }

  /**
   * A caller that found the lock held by a reader ({@code url()} reads under it) waits without it, and
   * the reader's unlock must wake it: nobody else is writing here, so a caller not woken would wait
   * for ever. The threads are daemons and the store is left open when the writer is stuck, so that
   * a failure fails this test instead of hanging the build.
   */
  @Test
  @Timeout(60)
  void aWriterThatFindsTheLockHeldByReadersIsWokenWhenTheyLetGo() throws Exception {
    int records = 300;
    RocksCrawlStore store = RocksCrawlStore.open(dir);
    store.addCandidates(List.of(Candidate.seed(HOT)));
    AtomicBoolean writing = new AtomicBoolean(true);
    List<Thread> readers = new ArrayList<>();
    for (int r = 0; r < 3; r++) {
      readers.add(Thread.ofPlatform().daemon().start(() -> {
        while (writing.get()) store.url(HOT);
      }));
    }
    Thread writer = Thread.ofPlatform().daemon().start(() -> {
      try {
        for (int i = 0; i < records; i++) store.record(crawl(HOT, T0.plusSeconds(i)), List.of());
      } finally {
        writing.set(false); // a writer that fails stops the readers too: the count below then fails
      }
    });
    writer.join(Duration.ofSeconds(30));
    boolean stuck = writer.isAlive();
    writing.set(false);
    assertFalse(stuck, "the writer waits for ever: no reader's unlock woke it");
    for (Thread reader : readers) reader.join();
    try (store) {
      assertEquals(records, store.url(HOT).orElseThrow().fetchCount());
    }
  }

  /** A millisecond or so of CPU, as a page's processing before its write; a value so it is not dropped. */
  private static long processPage(String url) {
    long x = url.hashCode();
    for (int i = 0; i < 2_000_000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
    return x;
  }

  private static CrawlRecord crawl(String url, Instant at) {
    return new CrawlRecord(url, at, Outcome.FETCHED, 200, 5, Optional.of("text/html"), 100,
        Optional.empty(), Optional.empty(), Optional.empty(), false, false, Optional.empty(),
        Optional.empty(), at.plus(Duration.ofDays(7)));
  }
}
