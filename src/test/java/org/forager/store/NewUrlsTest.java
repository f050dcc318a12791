package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.Outcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 15: links known to be new without a lookup, never a known URL taken for a new one. */
class NewUrlsTest {

  private static final Instant T0 = Instant.parse("2026-11-21T00:00:00Z");
  private static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);

  @TempDir Path dir;
  private RocksCrawlStore store;

  @BeforeEach
  void open() {
    store = RocksCrawlStore.open(dir.resolve("store"), RocksCrawlStore.MIN_MEMORY_BYTES, CLOCK, 1_024);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static byte[] key(String url) {
    return Keys.url(url);
  }

  private void add(String... urls) {
    List<Candidate> candidates = new ArrayList<>();
    for (String url : urls) candidates.add(new Candidate(url, 1, Optional.of("https://a.example/")));
    store.addCandidates(candidates);
  }

  private static CrawlRecord crawl(String url) {
    return new CrawlRecord(url, T0, Outcome.FETCHED, 200, 5, Optional.of("text/html"), 10, Optional.empty(),
        Optional.empty(), Optional.empty(), false, false, Optional.empty(), Optional.empty(),
        T0.plus(Duration.ofDays(30)));
  }

  @Test
  void anAuthorityIsTheKeysPrefixUpToItsFirstPathSlash() {
    assertEquals("http://a.example:8080/", NewUrls.prefix(key("http://a.example:8080/x/y?z")));
    assertEquals("https://a/", NewUrls.prefix(key("https://a/")));
    assertEquals("https://u@a.example/", NewUrls.prefix(key("https://u@a.example/p")));
    assertNull(NewUrls.prefix(key("https://a.example")));
    assertNull(NewUrls.prefix(key("https://a.example?x/y")));
    assertNull(NewUrls.prefix(key("mailto:x@a.example")));
  }

  @Test
  void anAuthorityHintsOnlyOnceItsGroupIsWrittenAndItsScanIsDone() throws Exception {
    add("https://a.example/1", "https://a.example/2", "https://b.example/1");
    NewUrls urls = new NewUrls();
    byte[] page = key("https://a.example/1");
    byte[] unknown = key("https://a.example/new");
    urls.register(page);
    assertFalse(urls.surelyNew(unknown), "registered, its group not written yet");
    urls.written();
    assertFalse(urls.surelyNew(unknown), "not scanned yet");
    urls.load(store.database(), page);
    assertTrue(urls.surelyNew(unknown));
    assertFalse(urls.surelyNew(key("https://a.example/2")), "in the table");
    assertFalse(urls.surelyNew(key("https://b.example/2")), "another authority: not tracked");
    assertFalse(urls.surelyNew(key("https://a.example.org/x")), "a longer host is another authority");
    urls.added(unknown);
    assertFalse(urls.surelyNew(unknown), "written since");
    assertEquals(3, urls.total());
  }

  @Test
  void aRegistrationWhoseGroupFailedIsForgotten() throws Exception {
    NewUrls urls = new NewUrls();
    urls.register(key("https://a.example/1"));
    urls.failed();
    urls.written();
    urls.load(store.database(), key("https://a.example/1"));
    assertFalse(urls.surelyNew(key("https://a.example/new")));
  }

  @Test
  void anAuthorityWithTooManyUrlsAndTheEarliestPastTheBoundAreNotTracked() throws Exception {
    add("https://a.example/1", "https://a.example/2", "https://a.example/3", "https://b.example/1",
        "https://c.example/1", "https://c.example/2");
    NewUrls urls = new NewUrls(2, 2);
    for (String page : List.of("https://a.example/1", "https://b.example/1", "https://c.example/1")) {
      urls.register(key(page));
      urls.written();
      urls.load(store.database(), key(page));
    }
    assertFalse(urls.surelyNew(key("https://a.example/new")), "three URLs, two at most: looked up");
    assertFalse(urls.surelyNew(key("https://b.example/new")), "registered first: forgotten for c's room");
    assertTrue(urls.surelyNew(key("https://c.example/new")));
    assertEquals(2, urls.total());
    urls.added(key("https://c.example/3"));
    assertFalse(urls.surelyNew(key("https://c.example/new")), "past two: c is looked up from now on");
  }

  /**
   * A store opened again knows URLs its hints have not seen: the scan finds them, so linking them again
   * never adds them anew (which would reset a crawled URL's record).
   */
  @Test
  void linksToUrlsOfAnEarlierRunAreKnownAfterTheScan() {
    List<String> pages = new ArrayList<>();
    for (int i = 0; i < 50; i++) pages.add("https://a.example/p" + i);
    store.addCandidates(List.of(Candidate.seed("https://a.example/")));
    List<Candidate> links = pages.stream().map(p -> new Candidate(p, 1, Optional.of("https://a.example/"))).toList();
    store.record(crawl("https://a.example/"), links);
    for (int i = 0; i < 10; i++) store.record(crawl(pages.get(i)), List.of());
    store.close();
    open();
    List<Candidate> again = new ArrayList<>(links);
    for (int i = 0; i < 10; i++) again.add(new Candidate("https://a.example/q" + i, 2, Optional.of(pages.get(10))));
    store.record(crawl(pages.get(10)), again); // registers the authority
    store.record(crawl(pages.get(11)), again); // scans it, then hints
    assertTrue(store.writes().newUrls().total() >= 61, "tracked: " + store.writes().newUrls().total());
    store.record(crawl(pages.get(12)), List.of(new Candidate("https://a.example/r", 2, Optional.of(pages.get(12)))));
    assertEquals(1 + 50 + 10 + 1, store.urlCount());
    for (int i = 0; i < 13; i++) assertEquals(1, store.url(pages.get(i)).orElseThrow().fetchCount(), pages.get(i));
    assertEquals(0, store.url("https://a.example/r").orElseThrow().fetchCount());
  }
}
