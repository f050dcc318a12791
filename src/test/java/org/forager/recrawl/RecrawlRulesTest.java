package org.forager.recrawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.forager.config.CrawlConfig;
import org.forager.fetch.Outcome;
import org.junit.jupiter.api.Test;

/** The fixed rules: failures, 404/410, redirects, gates, sitemap lastmod hints, and what maps to what. */
class RecrawlRulesTest {

  private static final Instant T0 = Instant.parse("2025-03-01T12:00:00Z");
  private final RecrawlPolicy policy = new RecrawlPolicy(CrawlConfig.Recrawl.defaults());

  private RecrawlState fetchedOnce() {
    return policy.decide(policy.initialState(), Observation.FIRST, T0).state();
  }

  private static Duration waitOf(Decision decision, Instant from) {
    return Duration.between(from, assertInstanceOf(Decision.Recrawl.class, decision).at());
  }

  @Test
  void failuresBackOffOneTwoFourEightWeeksThenStay() {
    RecrawlState state = fetchedOnce();
    Instant now = T0.plus(Duration.ofDays(7));
    List<Long> weeks = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Decision decision = policy.decide(state, Observation.FAILED, now);
      Duration wait = waitOf(decision, now);
      weeks.add(wait.toDays() / 7);
      state = decision.state();
      now = now.plus(wait);
    }
    // Seed 001: success → 1 week, then 2, 4, 8 weeks, capped.
    assertEquals(List.of(2L, 4L, 8L, 8L, 8L), weeks);
    assertEquals(5, state.failures());
  }

  @Test
  void aSuccessAfterFailuresResumesTheIntervalItHad() {
    RecrawlState state = fetchedOnce();
    Instant now = T0.plus(Duration.ofDays(7));
    state = policy.decide(state, Observation.FAILED, now).state();
    state = policy.decide(state, Observation.FAILED, now.plus(Duration.ofDays(14))).state();
    Instant back = now.plus(Duration.ofDays(42));
    Decision decision = policy.decide(state, Observation.UNCHANGED, back);

    assertEquals(0, decision.state().failures());
    assertEquals(Duration.ofDays(14), waitOf(decision, back)); // unchanged: 7 days doubled, not reset
  }

  @Test
  void goneIsCheckedAtMaxIntervalAndRetiredAfterThreeInARow() {
    RecrawlState state = fetchedOnce();
    Instant now = T0.plus(Duration.ofDays(7));
    Decision first = policy.decide(state, Observation.GONE, now);
    assertEquals(Duration.ofDays(30), waitOf(first, now));
    Decision second = policy.decide(first.state(), Observation.GONE, now.plus(Duration.ofDays(30)));
    assertEquals(Duration.ofDays(30), waitOf(second, now.plus(Duration.ofDays(30))));
    Decision third = policy.decide(second.state(), Observation.GONE, now.plus(Duration.ofDays(60)));

    assertEquals(3, assertInstanceOf(Decision.Retire.class, third).state().gone());
  }

  @Test
  void aPageThatComesBackResetsTheGoneCount() {
    RecrawlState state = policy.decide(fetchedOnce(), Observation.GONE, T0.plusSeconds(1)).state();
    state = policy.decide(state, Observation.GONE, T0.plusSeconds(2)).state();
    state = policy.decide(state, Observation.CHANGED, T0.plusSeconds(3)).state();

    assertEquals(0, state.gone());
    assertInstanceOf(Decision.Recrawl.class, policy.decide(state, Observation.GONE, T0.plusSeconds(4)));
  }

  @Test
  void redirectsAndBlockedUrlsAreCheckedAtTheDefaultInterval() {
    RecrawlState adapted = new RecrawlState(Duration.ofHours(3), 4, 3, Duration.ofHours(12),
        Optional.of(T0), Optional.of(T0), 2, 0);
    for (Observation observation : List.of(Observation.REDIRECT, Observation.BLOCKED)) {
      Decision decision = policy.decide(adapted, observation, T0);
      assertEquals(Duration.ofDays(7), waitOf(decision, T0), observation.name());
      assertEquals(Duration.ofHours(3), decision.state().interval(), "the change history is kept");
      assertEquals(0, decision.state().failures());
    }
  }

  @Test
  void aFirstFetchWaitsTheDefaultInterval() {
    assertEquals(Duration.ofDays(7), waitOf(policy.decide(policy.initialState(), Observation.FIRST, T0), T0));
  }

  @Test
  void aSitemapLastmodAfterTheLastFetchBringsTheUrlForward() {
    RecrawlState state = fetchedOnce();
    Instant scheduled = T0.plus(Duration.ofDays(7));
    Instant now = T0.plus(Duration.ofDays(2));

    assertEquals(T0.plus(Duration.ofDays(1)),
        policy.afterSitemapLastmod(state, scheduled, T0.plus(Duration.ofDays(1)), now));
    // Never sooner than min_interval after the last fetch: a sitemap stamping everything "now" is cheap.
    assertEquals(T0.plus(Duration.ofHours(1)),
        policy.afterSitemapLastmod(state, scheduled, T0.plus(Duration.ofMinutes(5)), now));
    // A lastmod in the future is taken as now.
    assertEquals(now, policy.afterSitemapLastmod(state, scheduled, T0.plus(Duration.ofDays(365)), now));
    // Older than our copy, or already due sooner: nothing changes.
    assertEquals(scheduled, policy.afterSitemapLastmod(state, scheduled, T0.minus(Duration.ofDays(1)), now));
    assertEquals(T0.plusSeconds(60),
        policy.afterSitemapLastmod(state, T0.plusSeconds(60), T0.plus(Duration.ofDays(1)), now));
    // Never fetched: it is due anyway.
    assertEquals(scheduled,
        policy.afterSitemapLastmod(policy.initialState(), scheduled, T0.plus(Duration.ofDays(1)), now));
  }

  @Test
  void crawlActionsMapToObservations() {
    Optional<String> a = Optional.of("sha1:AAAA");
    Optional<String> b = Optional.of("sha1:BBBB");
    Optional<String> none = Optional.empty();

    assertEquals(Observation.UNCHANGED, Observation.of(Outcome.NOT_MODIFIED, 304, a, none));
    assertEquals(Observation.UNCHANGED, Observation.of(Outcome.FETCHED, 200, a, a));
    assertEquals(Observation.CHANGED, Observation.of(Outcome.FETCHED, 200, a, b));
    assertEquals(Observation.CHANGED, Observation.of(Outcome.NOINDEX, 200, a, b));
    assertEquals(Observation.FIRST, Observation.of(Outcome.FETCHED, 200, none, a));
    assertEquals(Observation.UNCHANGED, Observation.of(Outcome.DUPLICATE_CONTENT, 200, a, a));
    assertEquals(Observation.REDIRECT, Observation.of(Outcome.REDIRECT, 301, a, none));
    assertEquals(Observation.BLOCKED, Observation.of(Outcome.BLOCKED_BY_ROBOTS_TXT, 0, a, none));
    assertEquals(Observation.GONE, Observation.of(Outcome.HTTP_ERROR, 404, a, none));
    assertEquals(Observation.GONE, Observation.of(Outcome.HTTP_ERROR, 410, a, none));
    assertEquals(Observation.FAILED, Observation.of(Outcome.HTTP_ERROR, 500, a, none));
    assertEquals(Observation.FAILED, Observation.of(Outcome.HTTP_ERROR, 403, a, none));
    assertEquals(Observation.FAILED, Observation.of(Outcome.TIMEOUT, 0, a, none));
    assertEquals(Observation.FAILED, Observation.of(Outcome.RATE_LIMITED, 429, a, none));
    for (Outcome outcome : Outcome.values()) Observation.of(outcome, 200, a, b); // every outcome has a meaning
  }
}
