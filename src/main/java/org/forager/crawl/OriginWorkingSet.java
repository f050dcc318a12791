package org.forager.crawl;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.forager.frontier.OriginTask;
import org.forager.frontier.TaskSource;
import org.forager.store.CrawlStore;
import org.forager.url.Origin;

/**
 * The origins a run crawls now, out of all those in scope (issue 14: a million sites must not be a
 * million crawlers in the heap). The scope lives in the store; this reads it page by page in origin
 * order and hands the scheduler a crawler for each origin as room frees in its working set; an
 * origin that finished leaves it (its state, run progress included, saved in the store: {@link
 * OriginCrawler#saveState}).
 *
 * <p>An origin that gets new work after it left (another origin's page linked to it) is taken up
 * again: when the pass over the scope has not reached it yet, the pass will; otherwise it waits in a
 * bounded list of origins to revisit, and once that is full, the scope is passed over once more at
 * the end. Taken up again, a crawler goes on where it stopped in this run ({@link
 * org.forager.store.OriginState.RunProgress}).
 *
 * <p>Thread-safe: the scheduler calls {@link #next} and {@link #finished} under its lock; turns call
 * {@link #wake}.
 */
final class OriginWorkingSet implements TaskSource {

  /** Origins read from the store at once. */
  static final int PAGE = 1_000;
  /** Origins waiting to be taken up again, at most; past it, another pass over the scope. */
  static final int MAX_REVISITS = 100_000;
  /** Origins that left, kept as snapshots for the status page. */
  static final int RECENTLY_FINISHED = 100;

  private final CrawlStore store;
  private final Function<Origin, OriginCrawler> newCrawler;
  private final Map<Origin, OriginCrawler> active;
  private final ArrayDeque<Origin> page = new ArrayDeque<>();
  private final LinkedHashSet<Origin> revisits = new LinkedHashSet<>();
  private final ArrayDeque<OriginSnapshot> recentlyFinished = new ArrayDeque<>();
  /** The last origin read from the store in this pass; empty before the first. */
  private Optional<Origin> cursor = Optional.empty();
  private boolean passDone;
  private boolean passAgain;

  /**
   * @param active the origins being crawled, by origin: filled and emptied here, read by the caller
   *     (wakes, the status page); a concurrent map
   */
  OriginWorkingSet(CrawlStore store, Map<Origin, OriginCrawler> active, Function<Origin, OriginCrawler> newCrawler) {
    this.store = store;
    this.active = active;
    this.newCrawler = newCrawler;
  }

  @Override
  public synchronized List<OriginTask> next(int max) {
    List<OriginTask> tasks = new ArrayList<>(Math.min(max, PAGE));
    while (tasks.size() < max) {
      Origin origin = nextOrigin();
      if (origin == null) break;
      if (active.containsKey(origin)) continue;
      OriginCrawler crawler = newCrawler.apply(origin);
      active.put(origin, crawler);
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
    if (recentlyFinished.size() == RECENTLY_FINISHED) recentlyFinished.removeFirst();
    recentlyFinished.addLast(crawler.snapshot());
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
    if (!passDone && (cursor.isEmpty() || isAfter(origin, cursor.get()) || page.contains(origin))) {
      return false; // this pass still comes to it
    }
    if (revisits.size() < MAX_REVISITS) revisits.add(origin);
    else passAgain = true;
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
        List<Origin> read = store.scopeOrigins(cursor, PAGE);
        if (read.isEmpty()) {
          passDone = true;
        } else {
          page.addAll(read);
          cursor = Optional.of(read.getLast());
        }
      }
      if (!page.isEmpty()) return page.poll();
      if (!passAgain) return null;
      passAgain = false;
      passDone = false;
      cursor = Optional.empty();
    }
  }

  /** Whether {@code a} comes after {@code b} in the store's origin order (ASCII: the same as the bytes'). */
  private static boolean isAfter(Origin a, Origin b) {
    return a.toString().compareTo(b.toString()) > 0;
  }
}
