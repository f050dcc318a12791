package org.forager.crawl;

import java.time.Clock;
import java.time.Instant;
import java.util.OptionalDouble;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.forager.config.CrawlConfig;
import org.forager.extract.HtmlExtractor;
import org.forager.fetch.Fetcher;
import org.forager.frontier.Slots;
import org.forager.policy.Gatekeeper;
import org.forager.record.CrawlLog;
import org.forager.record.RunSummary;
import org.forager.robots.RobotsFetcher;
import org.forager.store.CrawlStore;
import org.forager.store.Ranking;
import org.forager.url.Origin;
import org.forager.warc.WarcRecorder;

/**
 * What every origin crawler of a run shares, in four parts by what they are for: how requests go out
 * ({@link Network}), what decides about a URL ({@link Policy}), where a crawl action goes
 * ({@link Outputs}), and the run's own control ({@link Run}). All of it is thread-safe.
 *
 * @param extractor finds a page's links and directives
 */
record CrawlContext(
    CrawlConfig config,
    Clock clock,
    CrawlStore store,
    HtmlExtractor extractor,
    Network network,
    Policy policy,
    Outputs outputs,
    Run run) {

  /**
   * How requests go out.
   *
   * @param robotsFetcher fetches and caches robots.txt, through the same fetcher
   * @param ipGate politeness per IP address: which address a request goes to, and its slots
   * @param health whether the crawler's own network works: a crawl holds while it does not
   * @param borrowedRobots the robots.txt of origins other origins' robots.txt redirect to
   * @param domainSlots politeness per domain, for the domains a sites rule makes one unit
   * @param robotsMemory the heap the active origins' large robots.txt rules may take
   */
  record Network(Fetcher fetcher, RobotsFetcher robotsFetcher, IpGate ipGate, NetworkHealth health,
      BorrowedRobots borrowedRobots, Slots<String> domainSlots, RobotsMemory robotsMemory) {}

  /**
   * What decides about a URL, before and after its request.
   *
   * @param gatekeeper the configured gates: scope, exclusions, traps, network policy
   * @param extraGate the embedding application's gate, after the configured ones
   * @param classifier reads a fetch's outcome (what to retry, what costs patience)
   * @param recrawls when a crawled URL is due again
   * @param ranking how a link ranks among the origin's URLs
   */
  record Policy(Gatekeeper gatekeeper, UrlGate extraGate, Classifier classifier, Recrawls recrawls, Ranking ranking) {}

  /**
   * Where a crawl action goes.
   *
   * @param listener told of every crawl action
   * @param pageListener given each page fetched, for the embedding application
   */
  record Outputs(WarcRecorder warc, CrawlLog log, RunSummary summary, CrawlListener listener,
      PageListener pageListener) {}

  /**
   * The run's own control.
   *
   * @param budget the crawl actions left (max_actions)
   * @param continuous keep crawling as URLs come due (recrawls) instead of ending when nothing is due
   * @param wake tells an origin that new candidates of it may have been stored
   * @param wakeAt in continuous mode, asks that an origin be woken at a time (its rest over, a URL a
   *     sitemap brought forward)
   * @param origins the origins the crawl has taken on; new ones are admitted through it
   * @param control the operator's orders: origins paused or blocked, delays set
   * @param pageGate how many pages are read and processed at once, and whose first
   * @param earlySends whether origins send their next request as their turn ends (through the gate)
   * @param internalErrors told of the errors the crawl survives as one URL's or origin's failure
   */
  record Run(ActionBudget budget, boolean continuous, Consumer<Origin> wake, BiConsumer<Origin, Instant> wakeAt,
      KnownOrigins origins, CrawlControl control, PageGate pageGate,
      EarlySends earlySends, InternalErrors internalErrors) {}

  /**
   * How a sitemap entry ranks: by its {@code <priority>} ({@link Ranking#sitemapEntry}) unless the
   * application ranks URLs itself ({@link Crawler#priority}).
   */
  Ranking sitemapRanking(OptionalDouble sitemapPriority) {
    Ranking ranking = policy.ranking();
    return ranking == Ranking.LINKS ? Ranking.sitemapEntry(sitemapPriority.orElse(0.5)) : ranking;
  }
}
