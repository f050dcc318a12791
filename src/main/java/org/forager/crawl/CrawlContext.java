package org.forager.crawl;

import java.time.Clock;
import java.time.Instant;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import org.forager.config.CrawlConfig;
import org.forager.extract.HtmlExtractor;
import org.forager.fetch.Fetcher;
import org.forager.policy.Gatekeeper;
import org.forager.record.CrawlLog;
import org.forager.record.RunSummary;
import org.forager.robots.RobotsFetcher;
import org.forager.store.CrawlStore;
import org.forager.store.Ranking;
import org.forager.url.Origin;
import org.forager.warc.WarcRecorder;

/**
 * What every origin crawler of a run shares. All of it is thread-safe.
 *
 * @param wake tells an origin that new candidates of it may have been stored
 * @param continuous keep crawling as URLs come due (recrawls) instead of ending when nothing is due
 * @param wakeAt in continuous mode, asks that an origin with nothing due now be woken at a time
 * @param listener told of every crawl action
 * @param origins the origins the crawl has taken on; new ones are admitted through it
 * @param ipGate politeness per IP address: which address a request goes to, and its slots
 */
record CrawlContext(
    CrawlConfig config,
    Clock clock,
    CrawlStore store,
    Fetcher fetcher,
    RobotsFetcher robotsFetcher,
    Gatekeeper gatekeeper,
    HtmlExtractor extractor,
    WarcRecorder warc,
    CrawlLog log,
    RunSummary summary,
    ActionBudget budget,
    Classifier classifier,
    Consumer<Origin> wake,
    Recrawls recrawls,
    PageListener pageListener,
    UrlGate extraGate,
    Ranking ranking,
    boolean continuous,
    java.util.function.BiConsumer<Origin, Instant> wakeAt,
    CrawlListener listener,
    KnownOrigins origins,
    IpGate ipGate) {

  /**
   * How a sitemap entry ranks: by its {@code <priority>} ({@link Ranking#sitemapEntry}) unless the
   * application ranks URLs itself ({@link Crawler#priority}).
   */
  Ranking sitemapRanking(OptionalDouble sitemapPriority) {
    return ranking == Ranking.LINKS ? Ranking.sitemapEntry(sitemapPriority.orElse(0.5)) : ranking;
  }
}
