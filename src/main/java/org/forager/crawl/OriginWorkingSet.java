package org.forager.crawl;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.forager.frontier.OriginTask;
import org.forager.frontier.TaskSource;
import org.forager.store.AgendaEntry;
import org.forager.store.CrawlStore;
import org.forager.url.Origin;

/**
 * The origins a run crawls now, out of all those in scope (issue 14: a million sites must not be a
 * million crawlers in the heap, nor a million turns for those with nothing to do). The store's
 * agenda ({@link CrawlStore#agenda}) lists the origins that may have work, by time; this reads it
 * page by page up to the pass's cutoff and hands the scheduler a crawler for each origin as room frees
 * in its working set; an origin that finished leaves it (its state saved and its agenda entry brought
 * up to date by the crawler: {@link OriginCrawler#saveState}, {@link CrawlStore#settle}), so an origin
 * with nothing due costs a run nothing.
 *
 * <p>An origin that gets new work after it left (another origin's page linked to it) is taken up
 * again: when the pass has not reached its new entry yet, the pass will; otherwise it waits in a
 * bounded list of origins to revisit, and once that is full, the agenda is passed over once more at
 * the end. Taken up again, a crawler goes on where it stopped in this run ({@link
 * org.forager.store.OriginState.RunProgress}).
 *
 * <p>A continuous crawl passes over the agenda again and again: each pass up to the time it starts;
 * once one is over, the next starts when the agenda's next entry comes due (one alarm for the whole
 * crawl, not one per origin).
 *
 * <p>Thread-safe: the scheduler calls {@link #next} and {@link #finished} under its lock; turns call
 * {@link #wake}, the alarm {@link #passDue}.
 */
final class OriginWorkingSet implements TaskSource {

  /** Agenda entries read from the store at once. */
  static final int PAGE = 1_000;
  /** Origins waiting to be taken up again, at most; past it, another pass over the agenda. */
  static final int MAX_REVISITS = 100_000;
  /** Origins that left, kept as snapshots for the status page. */
  static final int RECENTLY_FINISHED = 100;
  /**
   * Continuous: passes start at most this often. A pass reads the agenda from its start, entries of
   * origins under way included, so a crawl whose entries come due all the time would otherwise pass
   * over them all the time; a URL is at most this late.
   */
  static final java.time.Duration MIN_PASS_INTERVAL = java.time.Duration.ofSeconds(1);

  private final CrawlStore store;
  private final Function<Origin, OriginCrawler> newCrawler;
  private final Map<Origin, OriginCrawler> active;
  private final Optional<Passes> passes;
  private final java.util.function.Predicate<Origin> blocked;
  private final ArrayDeque<AgendaEntry> page = new ArrayDeque<>();
  private final LinkedHashSet<Origin> revisits = new LinkedHashSet<>();
  private final ArrayDeque<OriginSnapshot> recentlyFinished = new ArrayDeque<>();
  /** Origins whose turn failed unexpectedly: they stop for this run (at most MAX_REVISITS kept). */
  private final java.util.Set<Origin> failed = new java.util.HashSet<>();
  /** Continuous: when the pass under way (or the last) started. */
  private Instant passStartedAt;
  /** The cutoff of this pass: entries up to it are taken. */
  private Instant passCutoff;
  /** The last entry read from the store in this pass; empty before the first. */
  private Optional<AgendaEntry> cursor = Optional.empty();
  private boolean passDone;
  private boolean passAgain;
  /** Continuous: the time the next pass was asked for, when one was. */
  private Optional<Instant> nextPassAt = Optional.empty();

  /**
   * How a continuous crawl's passes follow each other: {@code clock} gives each pass its cutoff, and
   * {@code alarm} is asked to call {@link #passDue} at a time.
   */
  record Passes(Supplier<Instant> clock, Consumer<Instant> alarm) {}

  /**
   * @param active the origins being crawled, by origin: filled and emptied here, read by the caller
   *     (wakes, the status page); a concurrent map
   * @param cutoff the run's start: a single run takes the origins with work by then
   * @param passes present for a continuous crawl
   */
  OriginWorkingSet(CrawlStore store, Map<Origin, OriginCrawler> active, Function<Origin, OriginCrawler> newCrawler,
      Instant cutoff, Optional<Passes> passes) {
    this(store, active, newCrawler, cutoff, passes, origin -> false);
  }

  /**
   * @param blocked origins not to take up (an operator blocked them): a wake or a later pass brings
   *     them back once unblocked
   */
  OriginWorkingSet(CrawlStore store, Map<Origin, OriginCrawler> active, Function<Origin, OriginCrawler> newCrawler,
      Instant cutoff, Optional<Passes> passes, java.util.function.Predicate<Origin> blocked) {
    this.blocked = blocked;
    this.store = store;
    this.active = active;
    this.newCrawler = newCrawler;
    this.passes = passes;
    this.passCutoff = cutoff;
    this.passStartedAt = cutoff;
  }

  @Override
  public synchronized List<OriginTask> next(int max) {
    // Made at the first origin: the scheduler asks at every wake, and most asks find none.
    List<OriginTask> tasks = List.of();
    while (tasks.size() < max) {
      Origin origin = nextOrigin();
      if (origin == null) break;
      if (active.containsKey(origin) || failed.contains(origin) || blocked.test(origin)) continue;
      OriginCrawler crawler = newCrawler.apply(origin);
      active.put(origin, crawler);
      if (tasks.isEmpty()) tasks = new ArrayList<>(Math.min(max, PAGE));
      tasks.add(crawler);
    }
    return tasks;
  }

  /**
   * {@inheritDoc} An origin resting after it was given up in a continuous crawl stays (parked, woken
   * at the end of its rest): taken up afresh by a link meanwhile, it would be crawled before its rest
   * is over.
   */
  @Override
  public synchronized boolean finished(OriginTask task) {
    if (!(task instanceof OriginCrawler crawler)) return true;
    if (crawler.resting()) return false;
    active.remove(crawler.origin(), crawler);
    // A turn that failed (a bug) stops its origin for this run: its agenda entry was not settled, and
    // every pass would take it up again to fail again (too many failures stop the whole crawl).
    if (crawler.failed() && failed.size() < MAX_REVISITS) failed.add(crawler.origin());
    if (recentlyFinished.size() == RECENTLY_FINISHED) recentlyFinished.removeFirst();
    recentlyFinished.addLast(crawler.snapshot());
    // A pass under way meets the origin's new entry (it is later than the pass's cutoff, so after its
    // cursor) when it asks for the next pass's time; one already over must hear of it.
    if (passDone) crawler.nextWork().ifPresent(this::passAt);
    return true;
  }

  /**
   * The last {@value #RECENTLY_FINISHED} origins that left the working set, as they were when they
   * left: what the status page shows beside the origins under way (once a run is over, all it has).
   */
  synchronized List<OriginSnapshot> recentlyFinished() {
    return List.copyOf(recentlyFinished);
  }

  /**
   * Tells that an origin not in the working set has new work: it is taken up again in this run.
   *
   * @return whether the scheduler should ask for more now
   */
  synchronized boolean wake(Origin origin) {
    if (active.containsKey(origin)) return false;
    if (!passDone && (cursor.isEmpty() || AgendaEntry.newWork(origin).compareTo(cursor.get()) > 0
        || page.stream().anyMatch(e -> e.origin().equals(origin)))) {
      return false; // this pass still comes to it: its new URLs put it on the agenda
    }
    if (revisits.size() < MAX_REVISITS) revisits.add(origin);
    else passAgain = true;
    return true;
  }

  /**
   * Has an origin not in the working set taken up in this run, whether or not the agenda lists it: one
   * with nothing due whose robots.txt other origins wait for ({@link BorrowedRobots}).
   *
   * @return whether the scheduler should ask for more now
   */
  synchronized boolean takeUp(Origin origin) {
    if (active.containsKey(origin) || revisits.contains(origin)) return false;
    if (revisits.size() < MAX_REVISITS) revisits.add(origin);
    else passAgain = true;
    return true;
  }

  /**
   * Continuous: the alarm asked for by the last pass (or a finished origin) went off; a new pass
   * starts if none is under way.
   *
   * @return whether the scheduler should ask for more now
   */
  synchronized boolean passDue() {
    nextPassAt = Optional.empty();
    if (!passDone) return false;
    startPass();
    return true;
  }

  /** The next origin to take up: one to revisit, else the pass's next, else a new pass if one is owed. */
  private Origin nextOrigin() {
    while (true) {
      if (!revisits.isEmpty()) {
        Origin origin = revisits.getFirst();
        revisits.remove(origin);
        return origin;
      }
      if (page.isEmpty() && !passDone) {
        List<AgendaEntry> read = store.agenda(passCutoff, cursor, PAGE);
        if (read.isEmpty()) {
          passDone = true;
          passes.ifPresent(p -> store.agenda(Instant.MAX, cursor, 1).stream().findFirst()
              .ifPresent(entry -> passAt(entry.at())));
        } else {
          page.addAll(read);
          cursor = Optional.of(read.getLast());
        }
      }
      if (!page.isEmpty()) return page.poll().origin();
      if (!passAgain) return null;
      passAgain = false;
      startPass();
    }
  }

  private void startPass() {
    passDone = false;
    cursor = Optional.empty();
    passes.ifPresent(p -> {
      passCutoff = p.clock().get();
      passStartedAt = passCutoff;
    });
  }

  /** Continuous: asks for a pass at {@code at} unless one was asked for by then. */
  private void passAt(Instant at) {
    if (passes.isEmpty()) return;
    Instant earliest = passStartedAt.plus(MIN_PASS_INTERVAL);
    if (at.isBefore(earliest)) at = earliest;
    if (nextPassAt.isPresent() && !at.isBefore(nextPassAt.get())) return;
    nextPassAt = Optional.of(at);
    passes.get().alarm().accept(at);
  }
}
