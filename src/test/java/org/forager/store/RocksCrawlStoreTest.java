package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.Stream;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The conformance suite on a real RocksDB directory, plus what is particular to it. */
class RocksCrawlStoreTest extends CrawlStoreConformanceTest {

  @TempDir
  Path dir;

  @Override
  protected CrawlStore openStore() {
    return RocksCrawlStore.open(dir.resolve("store"));
  }

  @Override
  protected boolean answersHeldInFull() {
    return true;
  }

  /** Issue 15: a turn's refusals and its page go in one group: a failure leaves none of them written. */
  @Test
  void aFailedCombinedCallWritesNoneOfItsRecords() {
    String page = "https://a.example/page";
    String refused = "https://a.example/private/a";
    store.addCandidates(List.of(seed(page), seed(refused)));
    assertThrows(IllegalArgumentException.class, () -> store.record(
        List.of(refusal(refused), refusal("https://a.example/private/nul\0")),
        crawl(page, T0, T0.plus(Duration.ofDays(1))), List.of(), List.of()));
    assertEquals(0, store.url(refused).orElseThrow().fetchCount());
    assertEquals(0, store.url(page).orElseThrow().fetchCount());
    assertThrows(IllegalArgumentException.class,
        () -> store.recordAll(List.of(refusal(refused), refusal("https://a.example/private/nul\0"))));
    assertEquals(0, store.url(refused).orElseThrow().fetchCount());
  }

  /** Issue 15: a URL's last crawl is its record's; the history family holds only the crawls before it. */
  @Test
  void theHistoryFamilyHoldsEveryCrawlButTheLast() throws Exception {
    String u = "https://a.example/p";
    store.addCandidates(List.of(seed(u)));
    CrawlRecord first = crawl(u, T0, T0.plus(Duration.ofDays(1)));
    store.record(first, List.of());
    assertEquals(0, historyEntries(u), "crawled once: no entry");
    assertEquals(List.of(first), store.history(u));
    CrawlRecord second = crawl(u, T0.plus(Duration.ofDays(1)), T0.plus(Duration.ofDays(2)));
    store.record(second, List.of());
    assertEquals(1, historyEntries(u), "the first crawl moved there");
    assertEquals(List.of(first, second), store.history(u));
    reopen();
    assertEquals(List.of(first, second), store.history(u));
  }

  /** A store written before the per-origin URL counts is counted at its first opening for writes. */
  @Test
  void aStoreFromBeforeTheUrlCountsHasThemCountedWhenOpened() throws Exception {
    store.addCandidates(List.of(seed("https://a.example/"), link("https://a.example/1", 1), link("https://a.example/2", 1),
        seed("https://a.example:8080/"), seed("https://a.example.org/x"), seed("http://b.example/")));
    for (String origin : List.of("https://a.example", "https://a.example:8080", "https://a.example.org", "http://b.example")) {
      rocks().db.delete(rocks().meta, Keys.originUrls(origin));
    }
    rocks().db.delete(rocks().meta, Keys.ORIGIN_URLS_COUNTED);
    reopen();
    assertEquals(3, new ByteReader(rocks().db.get(rocks().meta, Keys.originUrls("https://a.example"))).readLongBigEndian());
    assertEquals(1, new ByteReader(rocks().db.get(rocks().meta, Keys.originUrls("https://a.example:8080"))).readLongBigEndian());
    assertEquals(1, new ByteReader(rocks().db.get(rocks().meta, Keys.originUrls("https://a.example.org"))).readLongBigEndian());
    assertEquals(1, new ByteReader(rocks().db.get(rocks().meta, Keys.originUrls("http://b.example"))).readLongBigEndian());
    DroppedUrls dropped = new DroppedUrls();
    store.capUrls(UrlCap.of(4, dropped));
    assertEquals(1, store.addCandidates(List.of(link("https://a.example/3", 1), link("https://a.example/4", 1))));
    assertEquals(java.util.Map.of("https://a.example", 1), dropped.byOrigin);
  }

  /** A format-2 store has a URL's last crawl in the history family too: read once, in its place. */
  @Test
  void aFormatTwoHistoryReadsTheSame() throws Exception {
    String u = "https://a.example/p";
    store.addCandidates(List.of(seed(u)));
    CrawlRecord first = crawl(u, T0, T0.plus(Duration.ofDays(1)));
    CrawlRecord second = crawl(u, T0.plus(Duration.ofDays(1)), T0.plus(Duration.ofDays(2)));
    store.record(first, List.of());
    store.record(second, List.of());
    rocks().db.put(rocks().history, Keys.history(u, second.fetchedAt(), 2), Values.encodeCrawl(second));
    rocks().db.put(rocks().meta, Keys.FORMAT, new byte[] {2});
    reopen();
    assertEquals(List.of(first, second), store.history(u));
    assertArrayEquals(new byte[] {3}, rocks().db.get(rocks().meta, Keys.FORMAT));
    CrawlRecord third = crawl(u, T0.plus(Duration.ofDays(2)), T0.plus(Duration.ofDays(3)));
    store.record(third, List.of());
    assertEquals(List.of(first, second, third), store.history(u));
    assertEquals(2, historyEntries(u));
  }

  /** A crawl whose clock went back sorts before the earlier ones, as its history entry always did. */
  @Test
  void aLastCrawlWithAnEarlierTimeIsReadInItsKeysPlace() {
    String u = "https://a.example/p";
    store.addCandidates(List.of(seed(u)));
    CrawlRecord first = crawl(u, T0.plus(Duration.ofDays(1)), T0.plus(Duration.ofDays(2)));
    CrawlRecord second = crawl(u, T0, T0.plus(Duration.ofDays(3)));
    store.record(first, List.of());
    store.record(second, List.of());
    assertEquals(List.of(second, first), store.history(u));
  }

  private int historyEntries(String url) throws Exception {
    byte[] prefix = Keys.historyPrefix(url);
    int n = 0;
    try (org.rocksdb.RocksIterator it = rocks().db.newIterator(rocks().history)) {
      for (it.seek(prefix); it.isValid() && Arrays.equals(prefix, 0, prefix.length, it.key(), 0,
          Math.min(prefix.length, it.key().length)); it.next()) {
        n++;
      }
    }
    return n;
  }

  @Test
  void aSecondOpenOfTheSameDirectoryFailsNamingTheDirectoryAndTheLock() {
    StoreException e = assertThrows(StoreException.class, () -> RocksCrawlStore.open(dir.resolve("store")));
    assertEquals("data dir " + dir + " is in use by this process (lock " + dir.resolve("store/forager.lock")
        + "); stop it or use another --data-dir", e.getMessage());
    reopen(); // the failed open left the lock with its owner, which can close and reopen
    assertEquals(0, store.urlCount());
  }

  /**
   * {@code forager status} and {@code export} read a store that a crawl holds open: without its lock, as
   * of their open (the write-ahead log included), refusing writes, and leaving nothing in its directory.
   */
  @Test
  void aReaderSeesWhatTheOpenStoreHasWrittenWithoutItsLockAndWritesNothing() throws IOException {
    Path storeDir = dir.resolve("store");
    store.addCandidates(List.of(seed("https://a.example/1"), seed("https://a.example/2")));
    store.record(crawl("https://a.example/1", T0, T0.plus(Duration.ofDays(1))),
        List.of(link("https://a.example/3", 1)));
    store.record(crawl("https://a.example/2", T0, T0.plus(Duration.ofDays(1))), List.of());
    store.record(crawl("https://a.example/2", T0.plus(Duration.ofDays(1)), T0.plus(Duration.ofDays(2))), List.of());
    List<String> files = fileNames(storeDir);
    try (CrawlStore reader = RocksCrawlStore.openForReading(storeDir, RocksCrawlStore.DEFAULT_MEMORY_BYTES)) {
      assertEquals(3, reader.urlCount());
      assertEquals(T0, reader.url("https://a.example/1").orElseThrow().lastCrawl().orElseThrow().fetchedAt());
      assertTrue(reader.url("https://a.example/3").orElseThrow().lastCrawl().isEmpty());
      // What export reads of a URL crawled twice (a secondary instance has no snapshots to read it from).
      assertEquals(List.of(T0, T0.plus(Duration.ofDays(1))),
          reader.history("https://a.example/2").stream().map(CrawlRecord::fetchedAt).toList());
      store.addCandidates(List.of(seed("https://a.example/4"))); // after the reader's open: not seen
      assertTrue(reader.url("https://a.example/4").isEmpty());
      StoreException refused = assertThrows(StoreException.class,
          () -> reader.addScope(List.of(Origin.ofUrl("https://b.example"))));
      assertTrue(refused.getMessage().contains(storeDir.toString()), refused.getMessage());
    }
    assertEquals(files, fileNames(storeDir));
    store.addCandidates(List.of(seed("https://a.example/5")));
    reopen(); // the writer's lock was never the reader's
    assertEquals(5, store.urlCount());
  }

  /**
   * A reader killed before its close (a status under a watchdog's timeout) leaves its directory: the next
   * reader removes it, and never a live reader's (judged by its lock, not by a process id, which on a
   * temporary directory shared between containers would name another namespace's process).
   */
  @Test
  @Timeout(120)
  void aReaderRemovesTheDirectoriesOfKilledReadersOnly() throws Exception {
    store.addCandidates(List.of(seed("https://a.example/1")));
    Path storeDir = dir.resolve("store");
    Path tmpdir = Path.of(System.getProperty("java.io.tmpdir"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        "--enable-native-access=ALL-UNNAMED", ReaderChild.class.getName(), storeDir.toString())
        .redirectError(dir.resolve("child-stderr.txt").toFile())
        .start();
    Path childs;
    try {
      String line = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)).readLine();
      assertEquals("open 1", line, () -> readQuietly(dir.resolve("child-stderr.txt")));
      childs = readerDirectories(tmpdir, child.pid()).get(0);
      try (CrawlStore reader = RocksCrawlStore.openForReading(storeDir, RocksCrawlStore.DEFAULT_MEMORY_BYTES)) {
        assertEquals(1, reader.urlCount());
      }
      assertTrue(Files.isDirectory(childs), "a live reader's directory is left alone");
    } finally {
      child.destroyForcibly(); // SIGKILL: no close, the directory stays
      child.waitFor();
    }
    assertTrue(Files.isDirectory(childs), "the killed reader's directory is left behind");
    Path unlocked = Files.createDirectories(tmpdir.resolve(ReaderDirectory.PREFIX + "1-no-lock-yet"));
    Path stale = Files.createDirectories(tmpdir.resolve(ReaderDirectory.PREFIX + "1-no-lock-old"));
    Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minus(Duration.ofMinutes(2))));
    try {
      try (CrawlStore reader = RocksCrawlStore.openForReading(storeDir, RocksCrawlStore.DEFAULT_MEMORY_BYTES)) {
        assertEquals(1, reader.urlCount());
      }
      assertTrue(Files.notExists(childs), "the killed reader's directory is removed by the next reader");
      assertTrue(Files.notExists(stale), "an old directory without a lock (an older Forager's) is removed");
      assertTrue(Files.isDirectory(unlocked), "a new one without a lock yet is left alone");
      assertEquals(List.of(), readerDirectories(tmpdir, ProcessHandle.current().pid()), "the readers' own removed at close");
    } finally {
      Files.deleteIfExists(unlocked);
      Files.deleteIfExists(stale);
    }
  }

  private static List<Path> readerDirectories(Path tmpdir, long pid) throws IOException {
    try (Stream<Path> dirs = Files.list(tmpdir)) {
      return dirs.filter(d -> d.getFileName().toString().startsWith(ReaderDirectory.PREFIX + pid + "-")).toList();
    }
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return e.toString();
    }
  }

  @Test
  void aReaderOfNoStoreSaysSoAndCreatesNothing() {
    Path none = dir.resolve("none");
    StoreException e = assertThrows(StoreException.class,
        () -> RocksCrawlStore.openForReading(none, RocksCrawlStore.DEFAULT_MEMORY_BYTES));
    assertEquals("no crawl store at " + none + " (no CURRENT file in it)", e.getMessage());
    assertTrue(Files.notExists(none));
  }

  private static List<String> fileNames(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void corruptFilesFailTheOpenNamingTheDirectory() throws IOException {
    store.addCandidates(List.of(seed("https://a.example/")));
    store.close();
    Path storeDir = dir.resolve("store");
    try (Stream<Path> files = Files.list(storeDir)) {
      for (Path manifest : files.filter(f -> f.getFileName().toString().startsWith("MANIFEST-")).toList()) {
        Files.write(manifest, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13});
      }
    }
    StoreException e = assertThrows(StoreException.class, () -> RocksCrawlStore.open(storeDir));
    assertTrue(e.getMessage().contains(storeDir.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("corrupt"), e.getMessage());
    store = openStore(dir.resolve("other"));
  }

  @Test
  void aFileWhereTheDirectoryShouldBeFailsTheOpen() throws IOException {
    Path file = Files.writeString(dir.resolve("plain-file"), "not a store");
    StoreException e = assertThrows(StoreException.class, () -> RocksCrawlStore.open(file));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }

  @Test
  void theMemoryBudgetIsSplitBetweenBlockCacheAndMemtables() {
    assertEquals(RocksCrawlStore.DEFAULT_MEMORY_BYTES / 2, ((RocksCrawlStore) store).blockCacheCapacity());
    try (RocksCrawlStore big = RocksCrawlStore.open(dir.resolve("big"), 1L << 30)) {
      assertEquals(512L << 20, big.blockCacheCapacity());
    }
    assertThrows(IllegalArgumentException.class, () -> RocksCrawlStore.open(dir.resolve("tiny"), 1L << 20));
  }

  @Test
  void closingTwiceIsHarmlessAndUseAfterCloseFailsCleanly() {
    store.close();
    store.close();
    assertThrows(IllegalStateException.class, () -> store.url("https://a.example/"));
    store = openStore();
  }

  @Test
  void theScopeComesInOriginOrderWithSeedsAndDiscoveredOriginsInterleaved() {
    List<Origin> origins = List.of(Origin.ofUrl("http://a.example"), Origin.ofUrl("http://b.example"),
        Origin.ofUrl("https://a.example"), Origin.ofUrl("https://a.example:8080"),
        Origin.ofUrl("https://b.example"), Origin.ofUrl("https://c.example"));
    store.addDiscoveredOrigins(List.of(origins.get(0), origins.get(3), origins.get(4)));
    store.addScope(List.of(origins.get(5), origins.get(1), origins.get(2), origins.get(4)));
    assertEquals(origins, List.copyOf(store.scope()));
    assertEquals(List.of(origins.get(1), origins.get(2), origins.get(4), origins.get(5)),
        List.copyOf(store.seedOrigins()));
  }

  @Test
  void theUrlCountSurvivesReopening() {
    store.addCandidates(List.of(seed("https://a.example/1"), seed("https://a.example/2")));
    reopen();
    assertEquals(2, store.urlCount());
    store.addCandidates(List.of(seed("https://a.example/3")));
    assertEquals(3, store.urlCount());
  }

  /**
   * The URL filter is filled from the store at open: the URLs of an earlier run are known to the next
   * one's writes, the candidates of a page's record and of an add alike (its link targets hold none yet).
   */
  @Test
  void urlsWrittenBeforeAReopenAreKnownAfterIt() {
    List<Candidate> first = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) first.add(seed("https://a.example/" + i));
    store.addCandidates(first);
    store.record(crawl("https://a.example/page", T0, T0.plus(Duration.ofDays(1))),
        List.of(link("https://a.example/linked", 1)));
    reopen();
    assertEquals(2_002, store.urlCount());
    assertEquals(0, store.addCandidates(first), "added again after the reopen");
    store.record(crawl("https://a.example/other", T0, T0.plus(Duration.ofDays(1))),
        List.of(link("https://a.example/linked", 1), link("https://a.example/7", 1), link("https://a.example/new", 1)));
    assertEquals(2_004, store.urlCount(), "other and new only");
    assertEquals(1, store.url("https://a.example/page").orElseThrow().fetchCount(), "the page's record, not a new one");
  }

  @Test
  void anOriginWithNothingDueComesOnTheAgendaWhenItIsToBeTakenUpBy() {
    store.addScope(List.of(A));
    store.addCandidates(List.of(seed("https://a.example/1")));
    store.record(crawl("https://a.example/1", T0, T0.plus(Duration.ofDays(30))), List.of());
    assertEquals(Optional.of(T0.plus(Duration.ofDays(1))), store.settle(A, Optional.of(T0.plus(Duration.ofDays(1)))));
    assertEquals(List.of(new AgendaEntry(T0.plus(Duration.ofDays(1)), A)),
        store.agenda(T0.plus(Duration.ofDays(365)), Optional.empty(), 10), "one entry, the earlier");
    assertEquals(Optional.of(T0.plus(Duration.ofDays(30))), store.settle(A, Optional.of(T0.plus(Duration.ofDays(60)))));
    assertEquals(List.of(new AgendaEntry(T0.plus(Duration.ofDays(30)), A)),
        store.agenda(T0.plus(Duration.ofDays(365)), Optional.empty(), 10), "replaced, not added");
  }

  /**
   * A settle that finds no new URL races with a call adding one: whatever the order, the origin ends on
   * the agenda with new work (a settle's read and write would otherwise let the add's entry be deleted).
   */
  @Test
  void aUrlAddedWhileTheOriginIsSettledIsNeverLeftOffTheAgenda() throws Exception {
    store.addScope(List.of(A));
    for (int round = 0; round < 200; round++) {
      String url = "https://a.example/" + round;
      CyclicBarrier start = new CyclicBarrier(2);
      Thread settler = Thread.ofPlatform().start(() -> {
        await(start);
        store.settle(A, Optional.empty());
      });
      await(start);
      store.addCandidates(List.of(seed(url)));
      settler.join();
      assertEquals(List.of(AgendaEntry.newWork(A)), store.agenda(T0, Optional.empty(), 10), "round " + round);
      store.record(crawl(url, T0, T0.plus(Duration.ofDays(30))), List.of());
      store.settle(A, Optional.empty());
      assertEquals(List.of(), store.agenda(T0, Optional.empty(), 10), "round " + round);
    }
  }

  /** A store written before the agenda: every origin of its scope is on it with new work once opened. */
  @Test
  void aStoreFromBeforeTheAgendaPutsEveryOriginOfItsScopeOnIt() throws Exception {
    store.addScope(List.of(A));
    store.addDiscoveredOrigins(List.of(B));
    store.addCandidates(List.of(seed("https://a.example/1"), seed("http://b.example/1")));
    store.record(crawl("https://a.example/1", T0, T0.plus(Duration.ofDays(30))), List.of());
    store.record(crawl("http://b.example/1", T0, T0.plus(Duration.ofDays(30))), List.of());
    RocksDatabase rocks = ((RocksCrawlStore) store).database();
    rocks.db.deleteRange(rocks.meta, new byte[] {'W'}, new byte[] {'W' + 1});
    rocks.db.put(rocks.meta, Keys.FORMAT, new byte[] {1});
    assertEquals(List.of(), store.agenda(T0.plus(Duration.ofDays(3650)), Optional.empty(), 10), "as an old store");

    reopen();
    assertEquals(List.of(AgendaEntry.newWork(B), AgendaEntry.newWork(A)), store.agenda(T0, Optional.empty(), 10));
    store.settle(A, Optional.empty());
    reopen();
    assertEquals(List.of(AgendaEntry.newWork(B)), store.agenda(T0, Optional.empty(), 10), "built once, not again");
    assertArrayEquals(new byte[] {3}, ((RocksCrawlStore) store).database().db.get(rocks().meta, Keys.FORMAT));
  }

  @Test
  void aStoreOfAnUnknownLaterFormatIsRefused() throws Exception {
    rocks().db.put(rocks().meta, Keys.FORMAT, new byte[] {4});
    store.close();
    StoreException e = assertThrows(StoreException.class, () -> RocksCrawlStore.open(dir.resolve("store")));
    assertTrue(e.getMessage().contains("unknown store format [4]"), e.getMessage());
    store = openStore(dir.resolve("other"));
  }

  private RocksDatabase rocks() {
    return ((RocksCrawlStore) store).database();
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await();
    } catch (InterruptedException | BrokenBarrierException e) {
      throw new IllegalStateException(e);
    }
  }

  private static CrawlStore openStore(Path path) {
    return RocksCrawlStore.open(path);
  }
}
