package org.forager.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

/**
 * A whole crawl configuration, validated. Built by {@link ConfigLoader} from YAML and flags, or by
 * {@link #defaults()} from code. Immutable.
 */
public record CrawlConfig(
    String userAgent,
    List<String> seeds,
    Path dataDir,
    long maxActions,
    int concurrency,
    Politeness politeness,
    Robots robots,
    Recrawl recrawl,
    List<String> skipExtensions,
    Limits limits,
    List<DoNotCrawlRule> doNotCrawl,
    List<QueryParameterRule> urlQueryParameters,
    Network network,
    Store store,
    Warc warc,
    Status status) {

  public static final String DEFAULT_USER_AGENT =
      "ForagerBot/0.1 (+https://github.com/forager-crawler/forager)";

  public record Politeness(
      Duration minDelay, Duration maxDelay, double responseTimeFactor, Duration maxRetryAfter) {
    public static Politeness defaults() {
      return new Politeness(Duration.ofSeconds(1), Duration.ofSeconds(120), 10, Duration.ofHours(1));
    }
  }

  public record Robots(Duration cacheTtl) {
    public static Robots defaults() {
      return new Robots(Duration.ofMinutes(30));
    }
  }

  /**
   * When a fetched URL is due again (see docs/freshness.md).
   *
   * @param interval the interval before anything is known about how a URL changes; also the interval
   *     after a redirect and the base of the failure backoff
   * @param minInterval the shortest interval the change-rate estimate may choose
   * @param maxInterval the longest interval the change-rate estimate may choose; also the recheck
   *     interval of a 404/410
   */
  public record Recrawl(Duration interval, Duration minInterval, Duration maxInterval) {
    public static final Duration DEFAULT_MIN_INTERVAL = Duration.ofHours(1);
    public static final Duration DEFAULT_MAX_INTERVAL = Duration.ofDays(30);

    /** {@code interval} with the default bounds, widened to hold it (so {@code 0} keeps meaning "every run"). */
    public Recrawl(Duration interval) {
      this(interval, min(DEFAULT_MIN_INTERVAL, interval), max(DEFAULT_MAX_INTERVAL, interval));
    }

    public static Recrawl defaults() {
      return new Recrawl(Duration.ofDays(7));
    }

    private static Duration min(Duration a, Duration b) {
      return a.compareTo(b) <= 0 ? a : b;
    }

    private static Duration max(Duration a, Duration b) {
      return a.compareTo(b) >= 0 ? a : b;
    }
  }

  public record Limits(
      long maxPageBytes,
      Duration fetchTimeout,
      int maxUrlLength,
      int maxDepth,
      int maxRetries,
      long maxDecompressionRatio,
      long maxPagesPerOrigin,
      int maxRepeatedPathSegments) {
    public static Limits defaults() {
      return new Limits(2L << 20, Duration.ofSeconds(30), 2048, 50, 3, 100, 100_000, 3);
    }
  }

  /** Exactly one of host, prefix, regex is set. */
  public record DoNotCrawlRule(String host, String prefix, String regex) {}

  public record QueryParameterRule(String prefix, List<String> allow) {}

  public record Network(boolean allowPrivateAddresses) {
    public static Network defaults() {
      return new Network(false);
    }
  }

  public record Store(String kind, String url) {
    public static Store defaults() {
      return new Store("embedded", null);
    }
  }

  /**
   * WARC output.
   *
   * @param maxFileBytes a file is finished and a new one started once it reaches this size
   * @param gzipLevel deflate level of each record's gzip member, 0 (store) to 9 (smallest)
   */
  public record Warc(long maxFileBytes, int gzipLevel) {
    public static Warc defaults() {
      return new Warc(1L << 30, 1);
    }
  }

  /**
   * The live status page and metrics of a running crawl (docs/status.md).
   *
   * @param port the port to serve on, 0 for any free one; empty (the default) for no server
   * @param bind the address to listen on; loopback unless configured otherwise
   */
  public record Status(OptionalInt port, String bind) {
    public static final String DEFAULT_BIND = "127.0.0.1";

    public static Status defaults() {
      return new Status(OptionalInt.empty(), DEFAULT_BIND);
    }

    public boolean enabled() {
      return port.isPresent();
    }
  }

  public CrawlConfig withStatus(Status status) {
    return new CrawlConfig(userAgent, seeds, dataDir, maxActions, concurrency, politeness, robots,
        recrawl, skipExtensions, limits, doNotCrawl, urlQueryParameters, network, store, warc, status);
  }

  public CrawlConfig withSeeds(List<String> seeds) {
    return new CrawlConfig(userAgent, List.copyOf(seeds), dataDir, maxActions, concurrency, politeness, robots,
        recrawl, skipExtensions, limits, doNotCrawl, urlQueryParameters, network, store, warc, status);
  }

  public CrawlConfig withDataDir(Path dataDir) {
    return new CrawlConfig(userAgent, seeds, dataDir, maxActions, concurrency, politeness, robots,
        recrawl, skipExtensions, limits, doNotCrawl, urlQueryParameters, network, store, warc, status);
  }

  public CrawlConfig withMaxActions(long maxActions) {
    return new CrawlConfig(userAgent, seeds, dataDir, maxActions, concurrency, politeness, robots,
        recrawl, skipExtensions, limits, doNotCrawl, urlQueryParameters, network, store, warc, status);
  }

  public CrawlConfig withLimits(Limits limits) {
    return new CrawlConfig(userAgent, seeds, dataDir, maxActions, concurrency, politeness, robots,
        recrawl, skipExtensions, limits, doNotCrawl, urlQueryParameters, network, store, warc, status);
  }

  /** The skip_extensions default: binary and non-HTML formats not worth fetching (seed 002). */
  public static final List<String> DEFAULT_SKIP_EXTENSIONS = List.of(
      ".jpg", ".jpeg", ".png", ".gif", ".bmp", ".webp", ".svg", ".ico", ".tif", ".tiff", ".psd",
      ".mp3", ".wav", ".ogg", ".flac", ".aac", ".m4a", ".wma",
      ".mp4", ".avi", ".mov", ".mkv", ".wmv", ".flv", ".webm", ".mpg", ".mpeg", ".m4v",
      ".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".tar", ".jar", ".iso", ".dmg",
      ".exe", ".msi", ".bin", ".apk", ".deb", ".rpm",
      ".pdf", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".ods", ".odp", ".rtf",
      ".css", ".js", ".woff", ".woff2", ".ttf", ".otf", ".eot", ".swf");

  public static CrawlConfig defaults() {
    return new CrawlConfig(
        DEFAULT_USER_AGENT,
        List.of(),
        Path.of("crawl-data"),
        1_000_000,
        256,
        Politeness.defaults(),
        Robots.defaults(),
        Recrawl.defaults(),
        DEFAULT_SKIP_EXTENSIONS,
        Limits.defaults(),
        List.of(),
        List.of(),
        Network.defaults(),
        Store.defaults(),
        Warc.defaults(),
        Status.defaults());
  }

  /** The product token robots.txt groups and meta robots names are matched on: the User-Agent up to '/' or space. */
  public String productToken() {
    String ua = userAgent.strip();
    int end = 0;
    while (end < ua.length() && ua.charAt(end) != '/' && !Character.isWhitespace(ua.charAt(end))) end++;
    return ua.substring(0, end);
  }
}
