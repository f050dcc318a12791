package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.url.UrlFingerprint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Links to crawled URLs the link table forgot cost no lookup, and change nothing. */
class CrawledFingerprintsTest {

  private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");
  private static final String HOME = "https://a.example/";

  @TempDir Path dir;

  @Test
  void remembersWhatWasAddedUntilItsBucketIsFull() {
    CrawledFingerprints crawled = new CrawledFingerprints(4_096);
    long a = UrlFingerprint.of("https://a.example/x");
    assertFalse(crawled.contains(a));
    crawled.add(a);
    assertTrue(crawled.contains(a));
    // The bucket is chosen by bits 32 to 41: these share a's, and each takes a slot of its own.
    List<Long> sameBucket = new ArrayList<>();
    for (int k = 1; k < CrawledFingerprints.WAYS; k++) sameBucket.add(a ^ (long) k << 56);
    for (long other : sameBucket) {
      assertFalse(crawled.contains(other));
      crawled.add(other);
    }
    crawled.add(a); // already there: takes no second slot
    assertTrue(crawled.contains(a));
    for (long other : sameBucket) assertTrue(crawled.contains(other), "a full bucket keeps all " + CrawledFingerprints.WAYS);
    long fifth = a ^ 1L << 63;
    crawled.add(fifth);
    assertTrue(crawled.contains(fifth));
    int kept = 0;
    for (long earlier : List.of(a, sameBucket.get(0), sameBucket.get(1), sameBucket.get(2))) if (crawled.contains(earlier)) kept++;
    assertEquals(CrawledFingerprints.WAYS - 1, kept, "one of them forgotten: looked up again");
    assertThrows(IllegalArgumentException.class, () -> new CrawledFingerprints(3_000));
    assertThrows(IllegalArgumentException.class, () -> new CrawledFingerprints(2));
  }

  @Test
  void aLinkToACrawledUrlTheLinkTableForgotIsNotLookedUp() {
    try (RocksCrawlStore store = RocksCrawlStore.open(dir.resolve("store"), RocksCrawlStore.MIN_MEMORY_BYTES,
        Clock.fixed(T0, ZoneOffset.UTC), 1_024)) {
      store.addCandidates(List.of(Candidate.seed(HOME)));
      store.record(crawl(HOME), links(HOME, 0, 10));
      store.record(crawl("https://a.example/p0"), List.of());
      UrlRecord home = store.url(HOME).orElseThrow();
      store.clearLinkTargets(); // as a failed write leaves them: every URL is looked up again

      long before = store.lookedUpKeys();
      store.record(crawl("https://a.example/p1"), List.of(link(HOME, "https://a.example/p1"),
          link("https://a.example/p0", "https://a.example/p1")));
      assertEquals(1, store.lookedUpKeys() - before, "the page's own record only");
      assertEquals(home, store.url(HOME).orElseThrow());

      // A never-crawled URL is read: its record counts the inlink.
      before = store.lookedUpKeys();
      store.record(crawl("https://a.example/p2"), List.of(link("https://a.example/p3", "https://a.example/p2")));
      assertEquals(2, store.lookedUpKeys() - before, "the page's own record and p3's");
      assertEquals(2, store.url("https://a.example/p3").orElseThrow().inlinks());
    }
  }

  private static CrawlRecord crawl(String url) {
    return DueIndexOnDisk.fetched(url, T0);
  }

  private static Candidate link(String url, String from) {
    return new Candidate(url, 1, Optional.of(from), 0, Ranking.LINKS);
  }

  private static List<Candidate> links(String from, int first, int end) {
    List<Candidate> links = new ArrayList<>();
    for (int p = first; p < end; p++) links.add(link("https://a.example/p" + p, from));
    return links;
  }
}
