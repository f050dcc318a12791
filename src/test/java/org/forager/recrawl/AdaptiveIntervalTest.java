package org.forager.recrawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;
import org.forager.config.CrawlConfig;
import org.forager.fetch.Outcome;
import org.junit.jupiter.api.Test;

/** Pages that change on a known schedule, fetched over simulated months: where the interval settles. */
class AdaptiveIntervalTest {

  private static final long DAY = 86_400;
  private static final long HOUR = 3_600;
  private final RecrawlPolicy policy = new RecrawlPolicy(CrawlConfig.Recrawl.defaults());

  @Test
  void aPageThatChangesEveryDaySettlesAtAboutADay() {
    SimulatedPage page = new SimulatedPage(policy, t -> t / DAY).runFor(Duration.ofDays(120));

    double days = page.meanOfLastDays(30);
    // A Poisson page changing daily would settle at 1 day; a strictly periodic one at about 1 − 1/e of
    // its period, since every fetch a day or more apart sees a change (docs/freshness.md).
    assertTrue(days > 0.5 && days < 1.5, "settled at " + days + " days");
  }

  @Test
  void aPageThatNeverChangesDriftsToMaxInterval() {
    SimulatedPage page = new SimulatedPage(policy, t -> 0).runFor(Duration.ofDays(200));

    assertEquals(List.of(Duration.ofDays(7), Duration.ofDays(14), Duration.ofDays(28), Duration.ofDays(30)),
        page.intervals().subList(0, 4));
    assertEquals(Duration.ofDays(30), page.lastInterval());
  }

  @Test
  void aPageThatChangesAtEveryFetchGoesToMinIntervalAndNoLower() {
    // Rotating ads or a clock in the page: a new digest at every fetch, whatever the interval.
    SimulatedPage page = new SimulatedPage(policy, t -> t).runFor(Duration.ofDays(60));

    assertEquals(Duration.ofHours(1), page.lastInterval());
    assertTrue(page.intervals().stream().allMatch(d -> d.compareTo(Duration.ofHours(1)) >= 0));
    // At most halving per fetch, and the estimate remembers the slow start: no sudden swing to 1 hour.
    assertTrue(page.intervals().get(1).compareTo(Duration.ofDays(3)) > 0, page.intervals().toString());
  }

  @Test
  void aFlappingPageIsFollowedThroughEachPhase() {
    // Changes hourly for 60 days, then not at all until day 150, then hourly again.
    long quietFrom = 60 * DAY;
    long busyAgainFrom = 150 * DAY;
    SimulatedPage page = new SimulatedPage(policy,
        t -> t < quietFrom ? t / HOUR : t < busyAgainFrom ? quietFrom / HOUR : t / HOUR);

    page.runFor(Duration.ofDays(60));
    assertTrue(page.lastInterval().compareTo(Duration.ofHours(2)) <= 0, "busy: " + page.lastInterval());
    page.runFor(Duration.ofDays(150));
    assertEquals(Duration.ofDays(30), page.lastInterval(), "quiet");
    int before = page.intervals().size();
    page.runFor(Duration.ofDays(240));
    assertTrue(page.lastInterval().compareTo(Duration.ofHours(2)) <= 0, "busy again: " + page.lastInterval());
    // Back from 30 days to hours: each fetch finds a change, so the interval shrinks at every fetch.
    List<Duration> recovery = page.intervals().subList(before, page.intervals().size());
    long fetchesToRecover = recovery.stream().takeWhile(d -> d.compareTo(Duration.ofHours(2)) > 0).count();
    assertTrue(fetchesToRecover <= 16, fetchesToRecover + " fetches to recover: " + recovery);
  }

  @Test
  void aPoissonPageSettlesNearItsMeanTimeBetweenChanges() {
    // Changes at random, on average every 3 days (the model the estimator is built on).
    Random random = new Random(42);
    TreeSet<Long> changeTimes = new TreeSet<>();
    for (double t = 0; t < 400 * DAY; ) {
      t += -Math.log(1 - random.nextDouble()) * 3 * DAY;
      changeTimes.add((long) t);
    }
    SimulatedPage page = new SimulatedPage(policy, t -> changeTimes.headSet(t, true).size())
        .runFor(Duration.ofDays(400));

    double days = page.meanOfLastDays(60);
    assertTrue(days > 1.5 && days < 6, "settled at " + days + " days");
  }

  @Test
  void aNotModifiedAnswerCountsAsUnchanged() {
    RecrawlState state = policy.decide(policy.initialState(), Observation.FIRST, SimulatedPage.START).state();
    Decision after304 = policy.decide(state,
        Observation.of(Outcome.NOT_MODIFIED, 304, Optional.of("sha1:A"),
            Optional.empty()),
        SimulatedPage.START.plus(Duration.ofDays(7)));

    assertEquals(Duration.ofDays(14), after304.state().interval());
    assertEquals(0, after304.state().changes());
  }

  @Test
  void zeroIntervalKeepsMeaningEveryRun() {
    RecrawlPolicy everyRun = new RecrawlPolicy(new CrawlConfig.Recrawl(Duration.ZERO));
    SimulatedPage page = new SimulatedPage(everyRun, t -> 0);
    for (int i = 0; i < 5; i++) page.fetch();

    assertTrue(page.intervals().stream().allMatch(Duration::isZero), page.intervals().toString());
  }
}
