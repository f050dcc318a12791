package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.forager.fetch.Outcome;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.WriteOptions;

/**
 * A call that throws as its group is built (a store bug, or an input the store did not expect: here a
 * candidate's ranking that throws) fails alone: it failed every call of its group, and the crawl recorded
 * each of their URLs as an internal error. The group is made on purpose: the first call's ranking holds
 * the write lock until the others are queued behind it, in a chosen order.
 */
class FailedCallInGroupTest {

  private static final Instant T0 = Instant.parse("2026-11-21T00:00:00Z");
  private static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);
  private static final String SHARED = "https://shared.example/target";
  private static final String KNOWN = "https://pre.example/next";
  private static final Origin HELD = Origin.ofUrl("https://held.example/");
  private static final Ranking THROWING = (url, depth, inlinks) -> {
    throw new IllegalStateException("ranking failed for " + url);
  };

  @TempDir
  Path dir;

  @Test
  @Timeout(60)
  void aCallWhoseRankingThrowsFailsAloneAndTheOtherCallsOfItsGroupAreWritten() throws Exception {
    int before = 4; // innocent callers queued before the failing call, in its group
    int after = 2; // and behind it, in the next groups
    List<DueCandidate> heldAfter = new ArrayList<>();
    List<String> pages = new ArrayList<>();
    pages.add("https://blocker.example/p");
    pages.add(KNOWN);
    for (int i = 1; i < before; i++) pages.add("https://i" + i + ".example/p");
    for (int i = 0; i < after; i++) pages.add("https://j" + i + ".example/p");
    // Counted at each linking page's first crawl: the first page's, then every innocent caller's.
    int inlinks = 1 + before + after;
    long urls;
    try (RocksCrawlStore store = RocksCrawlStore.open(dir, RocksCrawlStore.MIN_MEMORY_BYTES, CLOCK, 1_024)) {
      // A URL the link targets hold (the callers' lookups skip it), and one recorded from them.
      store.record(crawl("https://shared.example/"), List.of(link(SHARED)));
      store.record(crawl("https://pre.example/"), List.of(link(KNOWN)));
      List<Candidate> waiting = new ArrayList<>();
      for (String u : List.of("a", "b", "c")) {
        waiting.add(new Candidate("https://held.example/" + u, 1, Optional.empty(), 0, Ranking.fixed(0.3)));
      }
      store.addCandidates(waiting);
      List<DueCandidate> held = store.due(HELD, T0, 100);
      assertEquals(3, held.size());
      // Each page is new but KNOWN, and adds its link; held.example's page and its new URL.
      urls = store.urlCount() + 2L * pages.size() - 1 + 2;

      Group group = new Group(store, pages.get(0));
      for (String page : pages.subList(1, 1 + before)) {
        group.queue(() -> store.record(crawl(page), List.of(link(page + "/l"), link(SHARED))));
      }
      // A caller holding its origin's next URLs: the write merges the URL it adds in, once.
      group.queue(() -> heldAfter.addAll(store.record(crawl("https://held.example/page"),
          List.of(new Candidate("https://held.example/new", 1, Optional.empty(), 0, Ranking.fixed(0.4))), held)));
      // The failing call, submitted with a refusal before it: it fails with it, unwritten.
      int culprit = group.queue(() -> store.record(List.of(crawl("https://bad.example/refused")),
          crawl("https://bad.example/p"), List.of(link("https://bad.example/ok"), link(SHARED), link(pages.get(2) + "/l"),
              new Candidate("https://bad.example/x", 1, Optional.empty(), 0, THROWING)), List.of()));
      for (String page : pages.subList(1 + before, pages.size())) {
        group.queue(() -> store.record(crawl(page), List.of(link(page + "/l"), link(SHARED))));
      }
      List<Throwable> failures = group.release();

      assertInstanceOf(IllegalStateException.class, failures.get(culprit), "the failing call's own exception");
      assertTrue(failures.get(culprit).getMessage().contains("https://bad.example/x"), failures.get(culprit).getMessage());
      for (int c = 0; c < failures.size(); c++) {
        if (c != culprit) assertNull(failures.get(c), "call " + c + " failed with the failing call's group");
      }
      assertNull(group.blockerFailure(), "the first call failed with the failing call's group");
      for (String missing : List.of("https://bad.example/refused", "https://bad.example/p", "https://bad.example/ok",
          "https://bad.example/x")) {
        assertEquals(Optional.empty(), store.url(missing), "the failing call wrote " + missing);
      }
      for (String page : pages) {
        assertEquals(1, store.url(page).orElseThrow().fetchCount(), page);
        assertTrue(store.url(page + "/l").isPresent(), page + "/l");
      }
      assertEquals(1, store.url("https://held.example/page").orElseThrow().fetchCount());
      assertEquals(inlinks, store.url(SHARED).orElseThrow().inlinks(), "inlinks of the shared target");
      assertEquals(urls, store.urlCount());
      List<String> heldNow = store.due(HELD, T0, 100).stream().map(DueCandidate::url).toList();
      assertEquals(4, heldNow.size());
      assertEquals(heldNow, heldAfter.stream().map(DueCandidate::url).toList(), "the held URLs after the write");
    }
    try (RocksCrawlStore store = RocksCrawlStore.open(dir, RocksCrawlStore.MIN_MEMORY_BYTES, CLOCK, 1_024)) {
      assertEquals(urls, store.urlCount(), "the count written");
      assertEquals(inlinks, store.url(SHARED).orElseThrow().inlinks());
      assertEquals(Optional.empty(), store.url("https://bad.example/ok"));
    }
  }

  /**
   * An Error while the calls are written again (here a ranking that throws one at its second call)
   * fails the calls not written yet and leaves none waiting: the callers behind them are written.
   */
  @Test
  @Timeout(60)
  void anErrorWhileTheGroupIsWrittenAgainLeavesNoCallWaiting() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    Ranking errsTheSecondTime = (url, depth, inlinks) -> {
      if (asked.incrementAndGet() == 2) throw new AssertionError("an Error, the second time");
      return 0.3;
    };
    try (RocksCrawlStore store = RocksCrawlStore.open(dir, RocksCrawlStore.MIN_MEMORY_BYTES, CLOCK, 1_024)) {
      Group group = new Group(store, "https://blocker.example/p");
      int erring = group.queue(() -> store.record(crawl("https://e.example/"),
          List.of(new Candidate("https://e.example/l", 1, Optional.empty(), 0, errsTheSecondTime))));
      int culprit = group.queue(() -> store.record(crawl("https://bad.example/"),
          List.of(new Candidate("https://bad.example/x", 1, Optional.empty(), 0, THROWING))));
      int behind = group.queue(() -> store.record(crawl("https://after.example/"), List.of(link("https://after.example/l"))));
      List<Throwable> failures = group.release();

      assertInstanceOf(StoreException.class, failures.get(erring), "aborted");
      assertInstanceOf(IllegalStateException.class, failures.get(culprit));
      assertNull(failures.get(behind));
      assertTrue(store.url("https://after.example/l").isPresent());
      assertEquals(Optional.empty(), store.url("https://e.example/"));
      // The Error reaches the thread that was writing: the first caller, its own call written.
      assertInstanceOf(AssertionError.class, group.blockerFailure());
      assertEquals(1, store.url("https://blocker.example/p").orElseThrow().fetchCount());
    }
  }

  /**
   * The URLs a failed call counted in were not stored: they must not leave their origin taken as full,
   * which dropped its next new URLs before they were offered to the gate (and so for good).
   */
  @Test
  void aFailedCallLeavesNoOriginTakenAsFull() {
    List<String> dropped = new ArrayList<>();
    try (RocksCrawlStore store = RocksCrawlStore.open(dir, RocksCrawlStore.MIN_MEMORY_BYTES, CLOCK, 1_024)) {
      store.capUrls(UrlCap.of(3, (origin, count) -> dropped.add(origin)));
      store.record(crawl("https://cap.example/"), List.of());
      // Its two links would fill cap.example; its second throws.
      assertThrows(IllegalStateException.class, () -> store.record(crawl("https://other.example/"), List.of(
          link("https://cap.example/a"), new Candidate("https://cap.example/b", 1, Optional.empty(), 0, THROWING))));
      store.record(List.of(), crawl("https://other.example/p"), List.of(link("https://cap.example/c")), List.of(),
          candidate -> Optional.empty());
      assertTrue(store.url("https://cap.example/c").isPresent(), "cap.example holds one URL of three");
      assertEquals(List.of(), dropped);
    }
  }

  /**
   * A failing call with calls submitted after it, still queued (none of the store's: a page's
   * candidates are in its submission's last call; these are made here): they fail with it, unwritten,
   * so that a failure writes none of a submission made in one group.
   */
  @Test
  void theCallsSubmittedAfterAFailingCallFailWithIt() throws Exception {
    RocksDatabase rocks = RocksDatabase.open(dir, RocksTuning.DEFAULT_MEMORY_BYTES);
    try (WriteOptions options = new WriteOptions()) {
      GroupCommit writes = new GroupCommit(rocks, options, 0, 1_024);
      WriteRequest failing = new WriteRequest(CandidateBatch.unique(List.of(
          new Candidate("https://bad.example/x", 1, Optional.empty(), 0, THROWING)), Optional.empty()), Optional.empty(), T0);
      WriteRequest after = new WriteRequest(Map.of(), Optional.of(crawl("https://bad.example/p")), T0);
      assertThrows(IllegalStateException.class, () -> writes.submitAll(List.of(failing, after)));
      assertThrows(IllegalStateException.class, after::result);
      assertNull(rocks.db.get(rocks.urls, Keys.url("https://bad.example/p")), "written after its submission failed");
      assertEquals(0, writes.urlCount());
    } finally {
      rocks.close();
    }
  }

  /**
   * The calls of a group, queued in order behind a first call that holds the write lock: its candidate's
   * ranking, asked under the lock, waits until {@link #release}. Each caller runs on a thread of its own;
   * a call is queued once its thread waits in the group commit.
   */
  private static final class Group {

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private final List<Thread> callers = new ArrayList<>();
    private final List<Throwable> failures = new ArrayList<>();
    private final Thread blocker;
    private volatile Throwable blockerFailure;

    /** Starts the first call, a record of {@code page}, and returns once it holds the lock. */
    Group(RocksCrawlStore store, String page) throws InterruptedException {
      Ranking waiting = (url, depth, inlinks) -> {
        entered.countDown();
        try {
          released.await();
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
        return 0.3;
      };
      blocker = Thread.ofPlatform().daemon().start(() -> {
        try {
          store.record(crawl(page), List.of(new Candidate(page + "/l", 1, Optional.empty(), 0, waiting)));
        } catch (Throwable e) {
          blockerFailure = e;
        }
      });
      assertTrue(entered.await(30, TimeUnit.SECONDS), "the first call never reached its ranking");
    }

    /** Starts a caller and returns once its call is queued; its index. */
    int queue(Call call) {
      int index = callers.size();
      failures.add(null);
      Thread caller = Thread.ofPlatform().daemon().start(() -> {
        try {
          call.run();
        } catch (Throwable e) {
          synchronized (failures) {
            failures.set(index, e);
          }
        }
      });
      callers.add(caller);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!(LockSupport.getBlocker(caller) instanceof GroupCommit)) {
        assertTrue(caller.isAlive(), "caller " + index + " returned before its call was queued");
        assertTrue(System.nanoTime() < deadline, "caller " + index + " never waited in the group commit");
        Thread.onSpinWait();
      }
      return index;
    }

    /** Lets the first call go on, then waits for every caller; what each failed with, or null. */
    List<Throwable> release() throws InterruptedException {
      released.countDown();
      assertTrue(blocker.join(Duration.ofSeconds(30)), "the first caller waits for ever");
      for (int c = 0; c < callers.size(); c++) {
        assertTrue(callers.get(c).join(Duration.ofSeconds(30)), "caller " + c + " waits for ever");
      }
      synchronized (failures) {
        return new ArrayList<>(failures);
      }
    }

    Throwable blockerFailure() {
      return blockerFailure;
    }
  }

  @FunctionalInterface
  private interface Call {
    void run() throws Exception;
  }

  private static Candidate link(String url) {
    return new Candidate(url, 1, Optional.empty());
  }

  private static CrawlRecord crawl(String url) {
    return new CrawlRecord(url, T0, Outcome.FETCHED, 200, 5, Optional.of("text/html"), 100, Optional.empty(),
        Optional.empty(), Optional.empty(), false, false, Optional.empty(), Optional.empty(), T0.plus(Duration.ofDays(7)));
  }
}
