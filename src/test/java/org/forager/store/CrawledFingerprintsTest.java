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
import java.util.Random;
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

  /** Past half full the table doubles, up to its largest size, and keeps what it held. */
  @Test
  void growsAtHalfFullUpToItsLargestSize() {
    CrawledFingerprints crawled = new CrawledFingerprints(4_096, 16_384);
    Random random = new Random(47);
    List<Long> added = new ArrayList<>();
    for (int capacity : new int[] {4_096, 8_192}) {
      while (crawled.capacity() == capacity) {
        List<Long> held = new ArrayList<>();
        for (long fingerprint : added) if (crawled.contains(fingerprint)) held.add(fingerprint);
        added.add(add(crawled, random));
        if (crawled.capacity() != capacity) {
          assertEquals(2 * capacity, crawled.capacity());
          assertTrue(added.size() > capacity / 2, "half full: " + added.size());
          for (long fingerprint : held) assertTrue(crawled.contains(fingerprint), "kept through the growth");
        }
      }
    }
    for (int i = 0; i < 30_000; i++) added.add(add(crawled, random));
    assertEquals(16_384, crawled.capacity(), "no larger than its largest size");
    assertTrue(forgotten(crawled, added) > added.size() - 16_384, "full: it forgets");
    for (int i = 0; i < 1_000; i++) assertFalse(crawled.contains(random.nextLong() | 1), "never added");
    assertThrows(IllegalArgumentException.class, () -> new CrawledFingerprints(4_096, 2_048));
    assertThrows(IllegalArgumentException.class, () -> new CrawledFingerprints(4_096, 6_000));
  }

  /** Threads adding while the table grows: what it answers it was given, and it loses little. */
  @Test
  void addsRacingGrowthsLoseLittleAndInventNothing() throws Exception {
    CrawledFingerprints crawled = new CrawledFingerprints(4_096, 1 << 20);
    int threads = 4;
    int each = 50_000;
    long[][] added = new long[threads][each];
    Concurrently.run(threads, thread -> {
      Random random = new Random(thread);
      for (int i = 0; i < each; i++) {
        added[thread][i] = random.nextLong() | 1;
        crawled.add(added[thread][i]);
        assertFalse(crawled.contains(added[thread][i] ^ 1L << 40 ^ 2), "never added");
      }
    });
    assertEquals(1 << 19, crawled.capacity());
    // The same adds one by one: a full bucket forgets there too; the races may lose a few more.
    CrawledFingerprints alone = new CrawledFingerprints(4_096, 1 << 20);
    for (int i = 0; i < each; i++) for (long[] thread : added) alone.add(thread[i]);
    int kept = 0;
    int keptAlone = 0;
    for (long[] thread : added) {
      for (long fingerprint : thread) {
        if (crawled.contains(fingerprint)) kept++;
        if (alone.contains(fingerprint)) keptAlone++;
      }
    }
    assertTrue(kept > keptAlone * 99 / 100, "kept " + kept + " of " + threads * each + ", one by one " + keptAlone);
  }

  private static long add(CrawledFingerprints crawled, Random random) {
    long fingerprint = random.nextLong() | 1;
    crawled.add(fingerprint);
    return fingerprint;
  }

  private static int forgotten(CrawledFingerprints crawled, List<Long> added) {
    int forgotten = 0;
    for (long fingerprint : added) if (!crawled.contains(fingerprint)) forgotten++;
    return forgotten;
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
