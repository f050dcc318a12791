package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.forager.fetch.Outcome;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group that fails writes nothing, so the table of link targets must not keep what the failed group
 * put in it (found by a review of issue 15's held inlinks). A candidate whose ranking throws fails its
 * call after an earlier candidate of the same call got an entry.
 */
class LinkTargetsFailedGroupTest {

  private static final Instant T0 = Instant.parse("2026-11-21T00:00:00Z");
  private static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);
  private static final Origin A = Origin.ofUrl("https://a.example/");

  @TempDir
  Path dir;

  @Test
  void aFailedGroupLeavesNoPhantomUrl() {
    String u = "https://a.example/u";
    Ranking throwing = (url, depth, inlinks) -> {
      throw new IllegalStateException("ranking failed");
    };
    try (RocksCrawlStore store = RocksCrawlStore.open(dir, RocksCrawlStore.MIN_MEMORY_BYTES, CLOCK, 1_024)) {
      assertThrows(RuntimeException.class, () -> store.record(crawl("https://a.example/p0"), List.of(
          new Candidate(u, 1, Optional.of("https://a.example/p0")),
          new Candidate("https://a.example/v", 1, Optional.of("https://a.example/p0"), 0, throwing))));
      // The call failed: nothing of it was written.
      assertEquals(Optional.empty(), store.url(u), "url() answers a URL the failed group never wrote");
      // Another page links to u: u must be added (due, counted) like any new URL.
      store.record(crawl("https://a.example/p1"), List.of(new Candidate(u, 1, Optional.of("https://a.example/p1"))));
      assertTrue(store.due(A, T0, 100).stream().anyMatch(d -> d.url().equals(u)), "u is not in the due index");
    }
    try (RocksCrawlStore store = RocksCrawlStore.open(dir, RocksCrawlStore.MIN_MEMORY_BYTES, CLOCK, 1_024)) {
      assertTrue(store.due(A, T0, 100).stream().anyMatch(d -> d.url().equals(u)), "u is not due after a reopen");
      assertEquals(1, store.url(u).orElseThrow().inlinks());
    }
  }

  @Test
  void aUrlLinkedAgainAfterAFailedGroupIsDue() {
    String u = "https://a.example/u";
    Ranking throwing = (url, depth, inlinks) -> {
      throw new IllegalStateException("ranking failed");
    };
    try (RocksCrawlStore store = RocksCrawlStore.open(dir, RocksCrawlStore.MIN_MEMORY_BYTES, CLOCK, 1_024)) {
      assertThrows(RuntimeException.class, () -> store.record(crawl("https://a.example/p0"), List.of(
          new Candidate(u, 1, Optional.of("https://a.example/p0"), 0, Ranking.fixed(0.3)),
          new Candidate("https://a.example/v", 1, Optional.of("https://a.example/p0"), 0, throwing))));
      store.record(crawl("https://a.example/p1"), List.of(new Candidate(u, 1, Optional.of("https://a.example/p1"), 0, Ranking.fixed(0.3))));
      assertTrue(store.due(A, T0, 100).stream().anyMatch(d -> d.url().equals(u)), "u is not in the due index");
      // The failed group's agenda entry was not written either: the next group that adds a URL puts it.
      assertTrue(store.agenda(T0, Optional.empty(), 10).contains(AgendaEntry.newWork(A)), "a is not on the agenda");
    }
    try (RocksCrawlStore store = RocksCrawlStore.open(dir, RocksCrawlStore.MIN_MEMORY_BYTES, CLOCK, 1_024)) {
      assertTrue(store.url(u).isPresent(), "u lost");
      assertEquals(2, store.urlCount(), "p1 and u: the failed call wrote nothing, p0 neither");
      assertTrue(store.due(A, T0, 100).stream().anyMatch(d -> d.url().equals(u)), "u is not due after a reopen");
    }
  }

  private static CrawlRecord crawl(String url) {
    return new CrawlRecord(url, T0, Outcome.FETCHED, 200, 5, Optional.of("text/html"), 100, Optional.empty(),
        Optional.empty(), Optional.empty(), false, false, Optional.empty(), Optional.empty(), T0.plus(Duration.ofDays(7)));
  }
}
