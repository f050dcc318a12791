package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.forager.fetch.Outcome;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inlinks held in memory (issue 15): what the store shows is what it showed when every inlink was
 * written at once (the counts, the priorities and the due order), with a table large enough to hold
 * every URL and with one so small that entries are evicted all the time; and what a close writes.
 */
class LinkTargetsTest {

  private static final Instant T0 = Instant.parse("2026-11-21T00:00:00Z");
  private static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);
  private static final Origin A = Origin.ofUrl("https://a.example/");

  @TempDir
  Path dir;

  private RocksCrawlStore open(String name, int entries) {
    return RocksCrawlStore.open(dir.resolve(name), RocksCrawlStore.MIN_MEMORY_BYTES, CLOCK, entries);
  }

  @Test
  void linksToKnownUrlsAreCountedWithoutWritingTheirRecords() {
    String hub = "https://a.example/hub";
    try (RocksCrawlStore store = open("store", 1_024)) {
      store.addCandidates(List.of(Candidate.seed("https://a.example/")));
      for (int i = 0; i < 13; i++) {
        String page = "https://a.example/p" + i;
        store.addCandidates(List.of(new Candidate(page, 1, Optional.empty())));
        store.record(crawl(page), List.of(new Candidate(hub, 2, Optional.of(page))));
      }
      // 13 inlinks: written at the 1st; the raises at the 2nd, 4th and 8th held, and the 5 inlinks since.
      assertEquals(5, heldIn(store));
      assertEquals(1, storedInlinks(store, hub), "the URL table has the count it was first written with");
      assertEquals(Ranking.quantize(Ranking.LINKS.priority(hub, 2, 1)), storedRank(store, hub),
          "and the priority: its record and due key agree on disk");
      UrlRecord url = store.url(hub).orElseThrow();
      assertEquals(13, url.inlinks(), "the store answers with the held inlinks");
      assertEquals(Ranking.dequantize(Ranking.quantize(Ranking.LINKS.priority(hub, 2, 8))), url.priority());
    }
    try (RocksCrawlStore store = open("store", 1_024)) {
      assertEquals(13, storedInlinks(store, hub), "written at close");
      assertEquals(13, store.url(hub).orElseThrow().inlinks());
    }
  }

  @Test
  void aCrawlWritesTheHeldInlinksIntoItsRecord() {
    String hub = "https://a.example/hub";
    try (RocksCrawlStore store = open("store", 1_024)) {
      for (int i = 0; i < 6; i++) {
        String page = "https://a.example/p" + i;
        store.record(crawl(page), List.of(new Candidate(hub, 1, Optional.of(page))));
      }
      store.record(crawl(hub), List.of());
      assertEquals(0, heldIn(store));
      assertEquals(6, storedInlinks(store, hub));
      // Crawled: a link counts no more.
      store.record(crawl("https://a.example/later"), List.of(new Candidate(hub, 1, Optional.of("https://a.example/later"))));
      assertEquals(6, store.url(hub).orElseThrow().inlinks());
      assertEquals(0, heldIn(store));
    }
  }

  @Test
  void aUrlTooLongForTheTableHasEveryInlinkWrittenAtOnce() {
    String longUrl = "https://a.example/" + "x".repeat(LinkTargets.MAX_SLOT_BYTES);
    try (RocksCrawlStore store = open("store", 1_024)) {
      for (int i = 0; i < 5; i++) {
        String page = "https://a.example/p" + i;
        store.record(crawl(page), List.of(new Candidate(longUrl, 1, Optional.of(page))));
        assertEquals(i + 1, storedInlinks(store, longUrl), "written at once");
      }
      assertEquals(0, heldIn(store));
      assertEquals(5, store.url(longUrl).orElseThrow().inlinks());
    }
  }

  @Test
  void aUrlWhoseRecordDoesNotFitItsSlotIsHeldAndReadWhenWritten() {
    // The referrer is long: the record's value does not fit the slot with the key, the key does.
    String from = "https://a.example/" + "r".repeat(LinkTargets.MAX_SLOT_BYTES);
    String target = "https://a.example/target";
    try (RocksCrawlStore store = open("store", 1_024)) {
      store.record(crawl(from), List.of(new Candidate(target, 1, Optional.of(from))));
      for (int i = 0; i < 10; i++) {
        String page = "https://a.example/p" + i;
        store.record(crawl(page), List.of(new Candidate(target, 1, Optional.of(page))));
      }
      assertEquals(11, store.url(target).orElseThrow().inlinks());
      assertEquals(8, storedInlinks(store, target), "written at its last priority change");
      assertEquals(3, heldIn(store));
      assertEquals(Optional.of(from), store.url(target).orElseThrow().discoveredFrom());
    }
    try (RocksCrawlStore store = open("store", 1_024)) {
      assertEquals(11, storedInlinks(store, target));
      assertEquals(Optional.of(from), store.url(target).orElseThrow().discoveredFrom());
    }
  }

  @Test
  void aUrlHoldingManyInlinksIsWrittenThoughItsPriorityStays() {
    String target = "https://a.example/target";
    try (RocksCrawlStore store = open("store", 1_024)) {
      for (int i = 0; i < 40; i++) {
        String page = "https://a.example/p" + i;
        store.record(crawl(page), List.of(new Candidate(target, 1, Optional.of(page), 0, Ranking.fixed(0.3))));
      }
      // Stored with 1, then written with every 16 held: at 17 and 33.
      assertEquals(33, storedInlinks(store, target));
      assertEquals(40, store.url(target).orElseThrow().inlinks());
    }
  }

  /** More URLs than the table starts with: it grows (by doubling, and by a last step to its capacity). */
  @Test
  void aGrowingTableKeepsWhatItHolds() {
    for (int capacity : new int[] {1 << 16, 6_000}) {
      String name = "store-" + capacity;
      int targets = 5_000;
      try (RocksCrawlStore store = open(name, capacity)) {
        for (int page = 0; page < 3; page++) {
          List<Candidate> links = new ArrayList<>();
          String from = "https://a.example/page" + page;
          for (int t = 0; t < targets; t++) links.add(new Candidate("https://a.example/t" + t, 1, Optional.of(from)));
          store.record(crawl(from), links);
        }
        for (int t = 0; t < targets; t += 97) {
          assertEquals(3, store.url("https://a.example/t" + t).orElseThrow().inlinks(), name + " t" + t);
        }
      }
      try (RocksCrawlStore store = open(name, capacity)) {
        for (int t = 0; t < targets; t++) {
          assertEquals(3, storedInlinks(store, "https://a.example/t" + t), name + " t" + t);
        }
      }
    }
  }

  /**
   * Long URLs whose links raised their priority, held, then thousands of short ones: the table grows
   * into smaller slots, and the long entries it lets go are written with their inlinks and raises.
   * The store shows what a one-set table (evicting at every link) shows, and writes it at close.
   */
  @Test
  void slotsShrinkingLoseNoInlinkAndNoRaise() {
    List<String> pages = new ArrayList<>();
    List<String> urls = new ArrayList<>();
    try (RocksCrawlStore shrinking = open("shrinking", 1 << 13); RocksCrawlStore tiny = open("tiny", LinkTargets.WAYS)) {
      List<RocksCrawlStore> stores = List.of(shrinking, tiny);
      List<String> longTargets = new ArrayList<>();
      for (int t = 0; t < 20; t++) longTargets.add("https://a.example/long/" + "x".repeat(40) + t);
      for (int p = 0; p < 2; p++) {
        String page = "https://a.example/" + "r".repeat(20) + p;
        List<Candidate> links = new ArrayList<>();
        for (String target : longTargets) links.add(new Candidate(target, 1, Optional.of(page)));
        for (RocksCrawlStore store : stores) store.record(crawl(page), links);
        pages.add(page);
      }
      assertEquals(LinkTargets.MAX_SLOT_BYTES, shrinking.linkTargetSlotBytes());
      for (int p = 0; p < 3; p++) {
        String page = "https://a.example/s" + p;
        List<Candidate> links = new ArrayList<>();
        for (int t = 0; t < 3_000; t++) links.add(new Candidate("https://a.example/t" + t, 1, Optional.of(page)));
        for (RocksCrawlStore store : stores) store.record(crawl(page), links);
        pages.add(page);
      }
      assertTrue(shrinking.linkTargetSlotBytes() < 100, "slots " + shrinking.linkTargetSlotBytes());
      urls.addAll(longTargets);
      for (int t = 0; t < 3_000; t++) urls.add("https://a.example/t" + t);
      for (String url : longTargets) {
        UrlRecord record = shrinking.url(url).orElseThrow();
        assertEquals(2, record.inlinks(), url);
        assertEquals(2, storedInlinks(shrinking, url), "written when let go: " + url);
        assertEquals(Ranking.quantize(Ranking.LINKS.priority(url, 1, 2)), storedRank(shrinking, url), url);
      }
      for (String url : urls) assertEquals(tiny.url(url), shrinking.url(url), url);
      assertEquals(tiny.due(A, T0, 10_000), shrinking.due(A, T0, 10_000));
    }
    try (RocksCrawlStore shrinking = open("shrinking", 1 << 13)) {
      for (String url : urls) assertEquals(url.contains("/long/") ? 2 : 3, storedInlinks(shrinking, url), url);
    }
  }

  @Test
  void aFullReadSeesTheHeldInlinks() {
    try (RocksCrawlStore store = open("store", 1_024)) {
      for (int i = 0; i < 3; i++) {
        String page = "https://a.example/p" + i;
        store.record(crawl(page), List.of(new Candidate("https://a.example/x", 1, Optional.of(page))));
      }
      Map<String, Integer> inlinks = new HashMap<>();
      store.forEachUrl(url -> inlinks.put(url.url(), url.inlinks()));
      assertEquals(3, inlinks.get("https://a.example/x"));
    }
  }

  /**
   * A site whose pages link to one another at random, crawled in due order, once with a table that
   * holds every URL and once with one of {@value LinkTargets#WAYS} entries: after every page both
   * stores answer the same records and the same due order, and the counts are those a model of the
   * contract says; after a close and a reopen, too.
   */
  @Test
  void evictionsChangeNothingAStoreShows() {
    Random random = new Random(20);
    Map<String, Integer> expected = new HashMap<>();
    Set<String> crawled = new HashSet<>();
    Set<String> known = new LinkedHashSet<>();
    try (RocksCrawlStore large = open("large", 1 << 16); RocksCrawlStore tiny = open("tiny", LinkTargets.WAYS)) {
      for (RocksCrawlStore store : List.of(large, tiny)) store.addCandidates(List.of(Candidate.seed("https://a.example/")));
      known.add("https://a.example/");
      for (int step = 0; step < 300; step++) {
        List<DueCandidate> due = large.due(A, T0, 1_000);
        assertEquals(due, tiny.due(A, T0, 1_000), "step " + step);
        if (due.isEmpty()) break;
        DueCandidate next = due.get(0);
        // Now and then a recrawl of a crawled page: its links count nothing.
        boolean recrawl = random.nextInt(10) == 0 && !crawled.isEmpty();
        String page = recrawl ? crawled.iterator().next() : next.url();
        List<Candidate> links = new ArrayList<>();
        Set<String> distinct = new HashSet<>();
        for (int i = random.nextInt(20); i > 0; i--) {
          String url = "https://a.example/p" + random.nextInt(120);
          links.add(new Candidate(url, next.depth() + 1, Optional.of(page)));
          known.add(url);
          if (!recrawl && !url.equals(page) && !crawled.contains(url) && distinct.add(url)) {
            expected.merge(url, 1, Integer::sum);
          }
        }
        for (RocksCrawlStore store : List.of(large, tiny)) store.record(crawl(page), links);
        crawled.add(page);
        for (String url : known) {
          UrlRecord l = large.url(url).orElseThrow();
          assertEquals(l, tiny.url(url).orElseThrow(), "step " + step + ": " + url);
          assertEquals(expected.getOrDefault(url, 0), l.inlinks(), "step " + step + ": " + url);
        }
      }
      assertTrue(crawled.size() > 100, "crawled " + crawled.size());
    }
    try (RocksCrawlStore large = open("large", 1 << 16); RocksCrawlStore tiny = open("tiny", LinkTargets.WAYS)) {
      for (String url : known) {
        assertEquals(expected.getOrDefault(url, 0), storedInlinks(large, url), url);
        assertEquals(expected.getOrDefault(url, 0), storedInlinks(tiny, url), url);
      }
      assertEquals(large.due(A, T0.plus(Duration.ofDays(30)), 1_000), tiny.due(A, T0.plus(Duration.ofDays(30)), 1_000));
    }
  }

  @Test
  @Timeout(60)
  void concurrentPagesLinkingToTheSameUrlsCountEveryInlink() throws Exception {
    int threads = 6;
    int pages = 60;
    int targets = 40;
    try (RocksCrawlStore store = open("store", 16)) {
      Concurrently.run(threads, thread -> {
        Random random = new Random(thread);
        for (int i = 0; i < pages; i++) {
          String page = "https://a.example/t" + thread + "/" + i;
          List<Candidate> links = new ArrayList<>();
          // Each page links to every target once, in its own order.
          List<Integer> order = new ArrayList<>();
          for (int t = 0; t < targets; t++) order.add(t);
          java.util.Collections.shuffle(order, random);
          for (int t : order) links.add(new Candidate("https://a.example/target" + t, 1, Optional.of(page)));
          store.record(crawl(page), links);
        }
      });
      for (int t = 0; t < targets; t++) {
        assertEquals(threads * pages, store.url("https://a.example/target" + t).orElseThrow().inlinks(), "target" + t);
      }
    }
    try (RocksCrawlStore store = open("store", 16)) {
      for (int t = 0; t < targets; t++) {
        assertEquals(threads * pages, storedInlinks(store, "https://a.example/target" + t), "target" + t);
      }
    }
  }

  /**
   * A recorded URL the table seemed to hold is not looked up; when an earlier call of the same
   * submission evicts its entry, it is read under the lock: recorded as known, not as new.
   */
  @Test
  void aRecordedUrlEvictedBeforeItsWriteIsReadThen() {
    String page = "https://a.example/page";
    String refused = "https://a.example/refused";
    try (RocksCrawlStore store = open("store", LinkTargets.WAYS)) {
      List<Candidate> known = new ArrayList<>(List.of(new Candidate(page, 1, Optional.empty())));
      for (int i = 1; i < LinkTargets.WAYS; i++) known.add(new Candidate("https://a.example/u" + i, 1, Optional.empty()));
      store.addCandidates(known); // the one set is full, the page's entry first
      store.record(List.of(CrawlRecord.withoutRequest(refused, T0, Outcome.BLOCKED_BY_ROBOTS_TXT,
          T0.plus(Duration.ofDays(7)))), crawl(page), List.of(), List.of());
      assertEquals(LinkTargets.WAYS + 1, store.urlCount(), "the page was known");
      List<DueCandidate> due = store.due(A, T0.plus(Duration.ofDays(30)), 100);
      assertEquals(1, due.stream().filter(d -> d.url().equals(page)).count(), "due once");
      assertEquals(1, store.url(page).orElseThrow().fetchCount());
    }
  }

  /**
   * Pages that link to one another, recorded by six threads at once through a 16-entry table: the
   * recorded URL's own lookup is skipped when the table seems to hold it, and entries are evicted all
   * the time. Each page ends crawled once and due once, and nothing else is there.
   */
  @Test
  @Timeout(60)
  void concurrentRecordsOfLinkedPagesLeaveEachDueOnce() throws Exception {
    int threads = 6;
    int perThread = 40;
    int pages = threads * perThread;
    try (RocksCrawlStore store = open("store", 16)) {
      Concurrently.run(threads, thread -> {
        Random random = new Random(thread);
        for (int i = 0; i < perThread; i++) {
          String page = "https://a.example/page" + (i * threads + thread);
          List<Candidate> links = new ArrayList<>();
          for (int l = 0; l < 12; l++) {
            links.add(new Candidate("https://a.example/page" + random.nextInt(pages), 1, Optional.of(page)));
          }
          store.record(crawl(page), links);
        }
      });
      assertEquals(pages, store.urlCount());
      List<DueCandidate> due = store.due(A, T0.plus(Duration.ofDays(30)), 10_000);
      assertEquals(pages, due.size());
      assertEquals(pages, due.stream().map(DueCandidate::url).distinct().count(), "each due once");
      for (int p = 0; p < pages; p++) {
        assertEquals(1, store.url("https://a.example/page" + p).orElseThrow().fetchCount(), "page" + p);
      }
    }
  }

  private static long heldIn(RocksCrawlStore store) {
    return store.heldInlinks();
  }

  /** The inlinks the URL table itself has for a URL (not counting those held). */
  private static int storedInlinks(RocksCrawlStore store, String url) {
    try {
      byte[] value = store.database().db.get(store.database().urls, Keys.url(url));
      return Values.decodeUrl(url, value).inlinks();
    } catch (org.rocksdb.RocksDBException e) {
      throw new AssertionError(e);
    }
  }

  /** The priority the URL table itself has for a URL, quantized; its due key must be at that priority. */
  private static int storedRank(RocksCrawlStore store, String url) {
    try {
      UrlRecord record = Values.decodeUrl(url, store.database().db.get(store.database().urls, Keys.url(url)));
      byte[] due = store.database().db.get(store.database().due, Keys.due(CandidateBatch.origin(url), record));
      assertTrue(due != null, "the due key of the priority the URL table has");
      return Ranking.quantize(record.priority());
    } catch (org.rocksdb.RocksDBException e) {
      throw new AssertionError(e);
    }
  }

  private static CrawlRecord crawl(String url) {
    return new CrawlRecord(url, T0, Outcome.FETCHED, 200, 5, Optional.of("text/html"), 100, Optional.empty(),
        Optional.empty(), Optional.empty(), false, false, Optional.empty(), Optional.empty(), T0.plus(Duration.ofDays(7)));
  }
}
