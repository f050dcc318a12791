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
  private final int maxUrlLength;
  private boolean started;
  private int taken;
  /** Sitemaps on other origins this run met (up to the allowance), and those it did not log, only counted. */
  private int elsewhereSeen;
  private long elsewhereNotLogged;

  SitemapQueue(Origin origin, CrawlConfig.Sitemaps config, int maxUrlLength) {
    this.origin = origin;
    this.config = config;
    this.maxUrlLength = maxUrlLength;
  }

  /**
   * Sitemaps on other origins this run found and did not hand on to be logged: past {@code
   * sitemaps.max_files} of them, or longer than {@code limits.max_url_length}. A chain of indexes each
   * naming 8,300 children elsewhere under 2,000-char names wrote 2.8 GB of crawl log in 18 s, a line a
   * child (an attacker's review); the index's own line counts them instead.
   */
  long elsewhereNotLogged() {
    return elsewhereNotLogged;
  }

  /** {@code url}, on another origin, to be logged while this run's allowance lasts, else only counted. */
  private boolean logElsewhere(String url) {
    if (elsewhereSeen++ >= config.maxFiles() || url.length() > maxUrlLength) {
      elsewhereNotLogged++;
      return false;
    }
    return true;
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
    List<String> elsewhere = sources.stream().filter(url -> !origin.contains(url)).filter(this::logElsewhere).toList();
    if (sources.stream().anyMatch(origin::contains)) {
      add(sources.stream().filter(origin::contains).toList());
      return elsewhere;
    } else if (config.defaultLocation()) {
      add(List.of(SitemapSources.defaultLocation(origin)));
    }
    return elsewhere;
  }

  /**
   * Children of an index just read (one batch of them); those past the run's allowance are dropped.
   *
   * @return those on other origins, not read here, to be logged ({@link #elsewhereNotLogged})
   */
  List<String> add(List<String> urls) {
    List<String> elsewhere = new ArrayList<>();
    for (String url : urls) {
      if (pending.size() + taken >= config.maxFiles()) break;
      // Past the allowance of children elsewhere, one on another origin is only counted, found so from
      // its origin alone: not normalized whole (a hostile chain of indexes had 166,000 children of 2,000
      // CJK chars, 18 KB each once encoded).
      if (elsewhereSeen >= config.maxFiles() && !mayBeOwn(url)) {
        elsewhereNotLogged++;
        continue;
      }
      Optional<String> normalized = UrlNormalizer.normalize(url);
      if (normalized.isEmpty()) continue;
      if (!origin.contains(normalized.get())) {
        if (logElsewhere(normalized.get())) elsewhere.add(normalized.get());
      } else if (seen.add(normalized.get())) {
        pending.add(normalized.get());
      }
    }
    return elsewhere;
  }

  /**
   * Whether {@code url} may be on this origin, from its scheme and authority alone (normalized as the
   * whole URL would be): true when they cannot be told apart from the rest.
   */
  private boolean mayBeOwn(String url) {
    int scheme = url.indexOf("://");
    if (scheme < 0) return true;
    int end = scheme + 3;
    while (end < url.length() && "/?#\\".indexOf(url.charAt(end)) < 0) end++;
    Optional<String> head = UrlNormalizer.normalize(url.substring(0, end) + "/");
    return head.isEmpty() || origin.contains(head.get());
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
