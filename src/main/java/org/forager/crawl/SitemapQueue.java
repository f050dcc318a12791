package org.forager.crawl;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.forager.config.CrawlConfig;
import org.forager.robots.RobotsRules;
import org.forager.sitemap.SitemapSources;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;

/**
 * The sitemap files one origin still has to read in this run: those robots.txt lists (or
 * {@code /sitemap.xml}), then the children of the indexes read. Only the origin's own files are
 * fetched: a request to another origin would owe that origin's delay, which this crawler does not
 * hold. At most {@code sitemaps.max_files} per run, and no more are kept than can still be taken: an
 * index of 50,000 children costs {@code max_files} URLs here, not 50,000. Confined to the origin's turns.
 */
final class SitemapQueue {

  private final Origin origin;
  private final CrawlConfig.Sitemaps config;
  private final ArrayDeque<String> pending = new ArrayDeque<>();
  private final Set<String> seen = new HashSet<>();
  private boolean started;
  private int taken;

  SitemapQueue(Origin origin, CrawlConfig.Sitemaps config) {
    this.origin = origin;
    this.config = config;
  }

  /**
   * Queues the origin's sitemaps once per run, from its robots.txt: those on the origin, or {@code
   * /sitemap.xml} when it lists none there (and the default location is on).
   *
   * @return the sitemaps robots.txt lists on other origins, not read here (empty after the first call)
   */
  List<String> start(RobotsRules robots) {
    if (started || !config.enabled()) return List.of();
    started = true;
    List<String> listed = robots.sitemaps();
    if (listed.isEmpty() && !config.defaultLocation()) return List.of();
    List<String> sources = SitemapSources.of(origin, listed);
    List<String> elsewhere = sources.stream().filter(url -> !origin.contains(url)).toList();
    if (elsewhere.size() < sources.size()) {
      return add(sources);
    } else if (config.defaultLocation()) {
      add(List.of(SitemapSources.defaultLocation(origin)));
    }
    return elsewhere;
  }

  /**
   * Children of an index just read (one batch of them); those past the run's allowance are dropped.
   *
   * @return those on other origins, not read here
   */
  List<String> add(List<String> urls) {
    List<String> elsewhere = new ArrayList<>();
    for (String url : urls) {
      if (pending.size() + taken >= config.maxFiles()) break;
      Optional<String> normalized = UrlNormalizer.normalize(url);
      if (normalized.isEmpty()) continue;
      if (!origin.contains(normalized.get())) {
        elsewhere.add(normalized.get());
      } else if (seen.add(normalized.get())) {
        pending.add(normalized.get());
      }
    }
    return elsewhere;
  }

  /** The next file to fetch, while the run's allowance lasts. */
  Optional<String> next() {
    if (pending.isEmpty() || taken >= config.maxFiles()) return Optional.empty();
    taken++;
    return Optional.of(pending.poll());
  }

  /**
   * {@code url}, just taken, to be read again first as if it had not been (its request failed in an
   * outage of the crawler's own network, which is not the file's doing).
   */
  void again(String url) {
    taken--;
    pending.addFirst(url);
  }

  /** Whether this run started reading the origin's sitemaps (it reads them once a run). */
  boolean started() {
    return started;
  }

  /** This run already read the origin's sitemaps (an origin taken up again): none to read. */
  void alreadyRead() {
    started = true;
    pending.clear();
  }

  /** Whether this run still has sitemaps to read, or to look for once robots.txt is known. */
  boolean hasWork() {
    return (!started && config.enabled()) || hasNext();
  }

  boolean hasNext() {
    return !pending.isEmpty() && taken < config.maxFiles();
  }

  /** Files queued and not yet taken. */
  int pending() {
    return pending.size();
  }
}
