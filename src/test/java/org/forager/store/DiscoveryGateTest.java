package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.forager.fetch.Outcome;
import org.forager.url.Origin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded store's {@link DiscoveryGate}: asked for the candidates it does not know, and what it
 * refuses written once, as a URL crawled once with that refusal, never as a due never-crawled URL.
 */
class DiscoveryGateTest {

  private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");
  private static final Instant REFUSED_UNTIL = T0.plus(Duration.ofDays(7));
  private static final Origin A = Origin.ofUrl("https://a.example");
  private static final String HOME = "https://a.example/";

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

  /** Refuses the URLs under /private/, noting every candidate it is asked about. */
  private static final class PrivateGate implements DiscoveryGate {
    final List<String> asked = new ArrayList<>();
    int decided;

    @Override
    public Optional<CrawlRecord> refuse(Candidate candidate) {
      asked.add(candidate.url());
      return candidate.url().contains("/private/")
          ? Optional.of(CrawlRecord.withoutRequest(candidate.url(), T0, Outcome.BLOCKED_BY_ROBOTS_TXT, REFUSED_UNTIL))
          : Optional.empty();
    }

    @Override
    public void decided() {
      decided++;
    }
  }

  private static Candidate link(String url, String from) {
    return new Candidate(url, 1, Optional.of(from), 0, Ranking.LINKS);
  }

  private static CrawlRecord fetched(String url) {
    return DueIndexOnDisk.fetched(url, T0);
  }

  @Test
  void onlyUnknownCandidatesAreAskedAndARefusalIsWrittenAsACrawledUrl() {
    store.addCandidates(List.of(new Candidate(HOME, 0, Optional.empty()), link("https://a.example/known", HOME)));
    PrivateGate gate = new PrivateGate();

    store.record(List.of(), fetched(HOME), List.of(link("https://a.example/known", HOME),
        link("https://a.example/private/x", HOME), link("https://a.example/new", HOME)), List.of(), gate);

    assertEquals(Set.of("https://a.example/private/x", "https://a.example/new"), Set.copyOf(gate.asked));
    assertEquals(1, gate.decided);
    UrlRecord refused = store.url("https://a.example/private/x").orElseThrow();
    assertEquals(1, refused.fetchCount());
    assertEquals(Outcome.BLOCKED_BY_ROBOTS_TXT, refused.lastCrawl().orElseThrow().outcome());
    assertEquals(1, refused.depth());
    assertEquals(Optional.of(HOME), refused.discoveredFrom());
    assertEquals(REFUSED_UNTIL, refused.nextFetchAt());
    assertEquals(4, store.urlCount(), "the home page, /known, /private/x and /new");
    assertEquals(List.of("https://a.example/known", "https://a.example/new"),
        store.due(A, T0, 10).stream().filter(d -> d.fetchCount() == 0).map(DueCandidate::url).sorted().toList(),
        "never-crawled: not the refused one");
    assertTrue(store.due(A, REFUSED_UNTIL, 10).stream().anyMatch(d -> d.url().equals("https://a.example/private/x")),
        "due again when its refusal says");

    // Known now: another page's link to it is not offered, and changes nothing.
    PrivateGate again = new PrivateGate();
    store.record(List.of(), fetched("https://a.example/new"), List.of(link("https://a.example/private/x", "https://a.example/new")),
        List.of(), again);
    assertEquals(List.of(), again.asked);
    assertEquals(1, store.url("https://a.example/private/x").orElseThrow().fetchCount());
    assertEquals(1, store.history("https://a.example/private/x").size());
    assertEquals(4, store.urlCount());
  }

  @Test
  void aRefusalOfAnotherUrlThanTheCandidateIsRefusedAndNothingIsWritten() {
    store.addCandidates(List.of(new Candidate(HOME, 0, Optional.empty())));
    DiscoveryGate wrong = candidate -> Optional.of(
        CrawlRecord.withoutRequest("https://a.example/other", T0, Outcome.BLOCKED_BY_ROBOTS_TXT, REFUSED_UNTIL));

    assertThrows(IllegalArgumentException.class,
        () -> store.record(List.of(), fetched(HOME), List.of(link("https://a.example/private/x", HOME)), List.of(), wrong));

    assertEquals(0, store.url(HOME).orElseThrow().fetchCount());
    assertEquals(Optional.empty(), store.url("https://a.example/private/x"));
    assertEquals(Optional.empty(), store.url("https://a.example/other"));
  }

  @Test
  void aRefusedUrlAddedMeanwhileTakesTheRefusalOnItsRecord() {
    store.addCandidates(List.of(new Candidate(HOME, 0, Optional.empty())));
    String url = "https://a.example/private/raced";
    DiscoveryGate racing = new DiscoveryGate() {
      @Override
      public Optional<CrawlRecord> refuse(Candidate candidate) {
        // Another origin's page adds the URL between the lookup and the write.
        store.addCandidates(List.of(new Candidate(url, 2, Optional.of("https://b.example/"))));
        return Optional.of(CrawlRecord.withoutRequest(url, T0, Outcome.BLOCKED_BY_ROBOTS_TXT, REFUSED_UNTIL));
      }
    };

    store.record(List.of(), fetched(HOME), List.of(link(url, HOME)), List.of(), racing);

    UrlRecord record = store.url(url).orElseThrow();
    assertEquals(1, record.fetchCount());
    assertEquals(Outcome.BLOCKED_BY_ROBOTS_TXT, record.lastCrawl().orElseThrow().outcome());
    assertEquals(Optional.of("https://b.example/"), record.discoveredFrom(), "the record it had");
    assertEquals(List.of(), store.due(A, T0, 10).stream().map(DueCandidate::url).filter(url::equals).toList(),
        "no longer due as never crawled");
    assertEquals(2, store.urlCount());
  }
  /**
   * An origin at its URL cap: its new candidates are not kept, a refusal the gate made neither (else
   * links robots.txt disallows would fill the disk); once a group found the origin full, its next
   * unknown candidates are dropped before the gate is asked, so no refusal is logged for them.
   */
  @Test
  void aFullOriginsNewCandidatesAreNotKeptAndOnceKnownFullNotOfferedToTheGate() {
    java.util.Map<String, Integer> dropped = new java.util.HashMap<>();
    store.capUrls(UrlCap.of(3, (origin, count) -> dropped.merge(origin, count, Integer::sum)));
    store.addCandidates(List.of(new Candidate(HOME, 0, Optional.empty()), link("https://a.example/1", HOME)));
    PrivateGate gate = new PrivateGate();

    store.record(List.of(), fetched(HOME), List.of(link("https://a.example/private/x", HOME),
        link("https://a.example/new", HOME)), List.of(), gate);
    assertEquals(Set.of("https://a.example/private/x", "https://a.example/new"), Set.copyOf(gate.asked),
        "not known full yet: asked");
    assertTrue(store.url("https://a.example/new").isPresent(), "the third URL: the cap");
    assertEquals(Optional.empty(), store.url("https://a.example/private/x"), "past the cap the refusal is not kept");
    assertEquals(java.util.Map.of("https://a.example", 1), dropped);

    PrivateGate later = new PrivateGate();
    store.record(List.of(), fetched("https://a.example/1"), List.of(link("https://a.example/private/y", HOME),
        link("https://a.example/other", HOME)), List.of(), later);
    assertEquals(List.of(), later.asked, "known full: dropped before the gate");
    assertEquals(1, later.decided);
    assertEquals(java.util.Map.of("https://a.example", 3), dropped);
    assertEquals(3, store.urlCount());
  }

  /** A page whose new links robots.txt all disallows: refusals, not new URLs, and held to the cap all the same. */
  @Test
  void refusalsAloneAreHeldToTheCap() {
    java.util.Map<String, Integer> dropped = new java.util.HashMap<>();
    store.capUrls(UrlCap.of(3, (origin, count) -> dropped.merge(origin, count, Integer::sum)));
    store.addCandidates(List.of(new Candidate(HOME, 0, Optional.empty()), link("https://a.example/1", HOME)));
    store.record(List.of(), fetched(HOME), List.of(link("https://a.example/private/x", HOME),
        link("https://a.example/private/y", HOME), link("https://a.example/private/z", HOME)), List.of(), new PrivateGate());
    assertEquals(3, store.urlCount(), "one refusal kept: the cap");
    assertEquals(java.util.Map.of("https://a.example", 2), dropped);
    PrivateGate later = new PrivateGate();
    store.record(List.of(), fetched("https://a.example/1"), List.of(link("https://a.example/private/w", HOME)),
        List.of(), later);
    assertEquals(List.of(), later.asked, "full since the count reached the cap: dropped before the gate");
    assertEquals(3, store.urlCount());
  }
}
