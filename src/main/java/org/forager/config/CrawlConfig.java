package org.forager.config;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;

/**
 * A whole crawl configuration. Built by {@link ConfigLoader} from YAML and flags (validated there), or
 * from code: {@link #defaults()} then the {@code with...} methods, each returning a changed copy.
 * Immutable.
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
    Sitemaps sitemaps,
    Optional<Path> doNotCrawlFile,
    Fleet fleet,
    Status status,
    Duplicates duplicates,
    ScopeConfig scope,
    Sites sites,
    Log log) {

  public static final String DEFAULT_USER_AGENT =
      "ForagerBot/0.1 (+https://github.com/forager-crawler/forager)";

  /**
   * With the default scope (the seeds' origins) and no per-site settings: the constructor from before
   * {@code scope} and {@code sites} existed.
   */
  public CrawlConfig(
      String userAgent, List<String> seeds, Path dataDir, long maxActions, int concurrency,
      Politeness politeness, Robots robots, Recrawl recrawl, List<String> skipExtensions, Limits limits,
      List<DoNotCrawlRule> doNotCrawl, List<QueryParameterRule> urlQueryParameters, Network network,
      Store store, Warc warc, Sitemaps sitemaps, Optional<Path> doNotCrawlFile, Fleet fleet, Status status,
      Duplicates duplicates) {
    this(userAgent, seeds, dataDir, maxActions, concurrency, politeness, robots, recrawl, skipExtensions,
        limits, doNotCrawl, urlQueryParameters, network, store, warc, sitemaps, doNotCrawlFile, fleet, status,
        duplicates, ScopeConfig.defaults(), Sites.NONE);
  }

  /** With the default crawl-log rotation: the constructor from before {@code log} existed. */
  public CrawlConfig(
      String userAgent, List<String> seeds, Path dataDir, long maxActions, int concurrency,
      Politeness politeness, Robots robots, Recrawl recrawl, List<String> skipExtensions, Limits limits,
      List<DoNotCrawlRule> doNotCrawl, List<QueryParameterRule> urlQueryParameters, Network network,
      Store store, Warc warc, Sitemaps sitemaps, Optional<Path> doNotCrawlFile, Fleet fleet, Status status,
      Duplicates duplicates, ScopeConfig scope, Sites sites) {
    this(userAgent, seeds, dataDir, maxActions, concurrency, politeness, robots, recrawl, skipExtensions,
        limits, doNotCrawl, urlQueryParameters, network, store, warc, sitemaps, doNotCrawlFile, fleet, status,
        duplicates, scope, sites, Log.defaults());
  }

  /**
   * @param maxDelay caps the delay Forager chooses itself (response times, rate-limit penalty); a
   *     robots.txt Crawl-delay above it is honoured all the same
   * @param maxCrawlDelay the longest robots.txt Crawl-delay honoured; an origin asking for more is
   *     put off to a later run, never crawled faster than it asked
   */
  public record Politeness(
      Duration minDelay, Duration maxDelay, double responseTimeFactor, Duration maxRetryAfter,
      Duration maxCrawlDelay, PerIp perIp) {

    public static final Duration DEFAULT_MAX_CRAWL_DELAY = Duration.ofHours(1);

    public Politeness {
      java.util.Objects.requireNonNull(perIp, "perIp");
    }

    /** With the default per-IP politeness. */
    public Politeness(Duration minDelay, Duration maxDelay, double responseTimeFactor, Duration maxRetryAfter,
        Duration maxCrawlDelay) {
      this(minDelay, maxDelay, responseTimeFactor, maxRetryAfter, maxCrawlDelay, PerIp.defaults());
    }

    /** With the default max_crawl_delay and per-IP politeness. */
    public Politeness(Duration minDelay, Duration maxDelay, double responseTimeFactor, Duration maxRetryAfter) {
      this(minDelay, maxDelay, responseTimeFactor, maxRetryAfter, DEFAULT_MAX_CRAWL_DELAY);
    }

    /** These settings with {@code perIp} in place of the per-IP politeness. */
    public Politeness withPerIp(PerIp perIp) {
      return new Politeness(minDelay, maxDelay, responseTimeFactor, maxRetryAfter, maxCrawlDelay, perIp);
    }

    public static Politeness defaults() {
      return new Politeness(Duration.ofSeconds(1), Duration.ofSeconds(120), 10, Duration.ofHours(1));
    }
  }

  /**
   * Politeness per IP address ({@code politeness.per_ip}), on top of the origin's: many hosts share
   * one server, and the server is what a crawler can overload (docs/crawl-loop.md, "Politeness per IP
   * address").
   *
   * @param maxInFlight the most requests in flight at once to one IP address, fleet-wide
   * @param minDelay the least time from the end of one request to an address to the start of the next
   */
  public record PerIp(int maxInFlight, Duration minDelay) {

    public PerIp {
      if (maxInFlight < 1) throw new IllegalArgumentException("max in flight per IP must be at least 1");
      if (minDelay.isNegative()) throw new IllegalArgumentException("min delay per IP must not be negative");
    }

    /** One request in flight per address, no delay of its own (each origin's delay still holds). */
    public static PerIp defaults() {
      return new PerIp(1, Duration.ZERO);
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
      int maxRepeatedPathSegments,
      int maxActiveOrigins,
      long maxUrlsPerOrigin) {

    /** {@link #maxActiveOrigins} when sized from the heap (the default). */
    public static final int ACTIVE_ORIGINS_BY_HEAP = 0;
    /** {@code limits.max_urls_per_origin}'s default. */
    public static final long DEFAULT_MAX_URLS_PER_ORIGIN = 1_000_000;

    public Limits {
      if (maxActiveOrigins < 0) throw new IllegalArgumentException("maxActiveOrigins must not be negative");
      if (maxUrlsPerOrigin < 1) throw new IllegalArgumentException("maxUrlsPerOrigin must be at least 1");
    }

    /** Limits with the default URL cap per origin. */
    public Limits(long maxPageBytes, Duration fetchTimeout, int maxUrlLength, int maxDepth, int maxRetries,
        long maxDecompressionRatio, long maxPagesPerOrigin, int maxRepeatedPathSegments, int maxActiveOrigins) {
      this(maxPageBytes, fetchTimeout, maxUrlLength, maxDepth, maxRetries, maxDecompressionRatio, maxPagesPerOrigin,
          maxRepeatedPathSegments, maxActiveOrigins, DEFAULT_MAX_URLS_PER_ORIGIN);
    }

    /** Limits with the working set sized from the heap. */
    public Limits(long maxPageBytes, Duration fetchTimeout, int maxUrlLength, int maxDepth, int maxRetries,
        long maxDecompressionRatio, long maxPagesPerOrigin, int maxRepeatedPathSegments) {
      this(maxPageBytes, fetchTimeout, maxUrlLength, maxDepth, maxRetries, maxDecompressionRatio, maxPagesPerOrigin,
          maxRepeatedPathSegments, ACTIVE_ORIGINS_BY_HEAP);
    }

    /** These limits with {@code limits.max_urls_per_origin} set. */
    public Limits withMaxUrlsPerOrigin(long max) {
      return new Limits(maxPageBytes, fetchTimeout, maxUrlLength, maxDepth, maxRetries, maxDecompressionRatio,
          maxPagesPerOrigin, maxRepeatedPathSegments, maxActiveOrigins, max);
    }

    public static Limits defaults() {
      return new Limits(2L << 20, Duration.ofSeconds(30), 2048, 50, 3, 100, 100_000, 3);
    }
  }

  /**
   * One {@code do_not_crawl} rule: exactly one of its parts is set, the others are null. Hosts,
   * domains and prefixes are in the form normalized URLs have (see {@code UrlNormalizer.host} and
   * {@code prefix}); a domain covers its subdomains.
   */
  public record DoNotCrawlRule(String host, String domain, String prefix, String regex) {

    public static DoNotCrawlRule host(String host) {
      return new DoNotCrawlRule(host, null, null, null);
    }

    public static DoNotCrawlRule domain(String domain) {
      return new DoNotCrawlRule(null, domain, null, null);
    }

    public static DoNotCrawlRule prefix(String prefix) {
      return new DoNotCrawlRule(null, null, prefix, null);
    }

    public static DoNotCrawlRule regex(String regex) {
      return new DoNotCrawlRule(null, null, null, regex);
    }
  }

  public record QueryParameterRule(String prefix, List<String> allow) {}

  /**
   * Which addresses may be connected to and how names and certificates are checked.
   *
   * @param allowPrivateAddresses whether loopback, private and other non-public addresses may be
   *     connected to (they are refused by default)
   * @param resolve host names (lower case, as in normalized URLs) answered with these addresses
   *     instead of asking DNS; each list holds at least one address, tried in order. Pinned addresses
   *     still pass the network policy.
   * @param verifyTls whether https certificates must be trusted, valid and name the host
   * @param dns how names not pinned are looked up: the cache and the deadline
   * @param earlyRequests when an origin's next request goes out as its turn ends ({@code
   *     network.early_requests}, docs/crawl-loop.md "Early requests")
   */
  public record Network(
      boolean allowPrivateAddresses, Map<String, List<InetAddress>> resolve, boolean verifyTls, Dns dns,
      EarlyRequests earlyRequests) {
    public Network {
      resolve = resolve.entrySet().stream()
          .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> List.copyOf(e.getValue())));
      Objects.requireNonNull(dns, "dns");
      Objects.requireNonNull(earlyRequests, "earlyRequests");
    }

    /** With early requests decided by the cores' idle time (the default). */
    public Network(boolean allowPrivateAddresses, Map<String, List<InetAddress>> resolve, boolean verifyTls, Dns dns) {
      this(allowPrivateAddresses, resolve, verifyTls, dns, EarlyRequests.AUTO);
    }

    /** With the default DNS settings. */
    public Network(boolean allowPrivateAddresses, Map<String, List<InetAddress>> resolve, boolean verifyTls) {
      this(allowPrivateAddresses, resolve, verifyTls, Dns.defaults());
    }

    /** No pinned names, TLS verified. */
    public Network(boolean allowPrivateAddresses) {
      this(allowPrivateAddresses, Map.of(), true);
    }

    public static Network defaults() {
      return new Network(false);
    }

    /** This section with {@code dns} instead of its DNS settings. */
    public Network withDns(Dns dns) {
      return new Network(allowPrivateAddresses, resolve, verifyTls, dns, earlyRequests);
    }

    /** This section with {@code earlyRequests} instead of its own. */
    public Network withEarlyRequests(EarlyRequests earlyRequests) {
      return new Network(allowPrivateAddresses, resolve, verifyTls, dns, earlyRequests);
    }
  }

  /**
   * When an origin whose next request is due at once sends it as its turn ends, its response read
   * through the page gate, instead of waiting for the scheduler to start its next turn.
   */
  public enum EarlyRequests {
    /** While the machine's cores idle (a slow web's responses all awaited at once). */
    AUTO,
    ALWAYS,
    NEVER
  }

  /**
   * How host names are looked up ({@code network.dns}; see docs/fetching.md, "DNS").
   *
   * @param resolver who answers: Forager asking name servers itself, or the system resolver
   * @param servers the name servers asked (with {@link ResolverKind#DNSJAVA}), in order; empty for the
   *     system's ({@code /etc/resolv.conf})
   * @param minTtl the least time an answer is kept, whatever its records' TTL
   * @param maxTtl the most time an answer is kept, whatever its records' TTL
   * @param cacheTtl how long addresses that come without a TTL are kept (every answer of the system
   *     resolver; names from the hosts file)
   * @param negativeTtl how long a name that did not resolve (or timed out) is failed without asking again
   * @param timeout the most one lookup may take before the fetch fails with {@code DNS_ERROR}
   */
  public record Dns(ResolverKind resolver, List<InetSocketAddress> servers, Duration minTtl, Duration maxTtl,
      Duration cacheTtl, Duration negativeTtl, Duration timeout) {
    public Dns {
      Objects.requireNonNull(resolver, "resolver");
      servers = List.copyOf(servers);
      Objects.requireNonNull(minTtl, "minTtl");
      Objects.requireNonNull(maxTtl, "maxTtl");
      Objects.requireNonNull(cacheTtl, "cacheTtl");
      Objects.requireNonNull(negativeTtl, "negativeTtl");
      Objects.requireNonNull(timeout, "timeout");
    }

    /** The default resolver, servers and TTL bounds with these times. */
    public Dns(Duration cacheTtl, Duration negativeTtl, Duration timeout) {
      this(ResolverKind.DNSJAVA, List.of(), Duration.ofMinutes(1), Duration.ofHours(1), cacheTtl, negativeTtl,
          timeout);
    }

    public static Dns defaults() {
      return new Dns(Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofSeconds(5));
    }

    /** Who answers lookups ({@code network.dns.resolver}). */
    public enum ResolverKind {
      /** Forager asks the name servers itself (dnsjava), after the hosts file: record TTLs, no thread held. */
      DNSJAVA,
      /** The operating system's resolver ({@code getaddrinfo}): no TTLs, a thread held per lookup. */
      SYSTEM
    }
  }

  /**
   * The crawl database.
   *
   * @param kind {@code embedded} or {@code postgres}
   * @param url the PostgreSQL JDBC URL; null for the embedded store. Shown only through
   *     {@link StoreUrl#redact}
   * @param memoryBytes the embedded store's native memory (block cache and memtables)
   * @param passwordFile a file holding only the PostgreSQL password (see docs/fleet.md, "Passwords")
   */
  public record Store(String kind, String url, long memoryBytes, Optional<Path> passwordFile) {
    /** The embedded store's native memory unless told otherwise: enough for about 10^7 URLs. */
    public static final long DEFAULT_MEMORY_BYTES = 128L << 20;
    /** The least accepted: below it the memtables flush so often that compaction eats the crawl. */
    public static final long MIN_MEMORY_BYTES = 32L << 20;

    public Store(String kind, String url, long memoryBytes) {
      this(kind, url, memoryBytes, Optional.empty());
    }

    public Store(String kind, String url) {
      this(kind, url, DEFAULT_MEMORY_BYTES);
    }

    public static Store defaults() {
      return new Store("embedded", null);
    }

    /** Without the URL's secrets: a configuration may end up in a log or a debugger. */
    @Override
    public String toString() {
      return "Store[kind=" + kind + ", url=" + StoreUrl.redact(url) + ", memoryBytes=" + memoryBytes
          + ", passwordFile=" + passwordFile + "]";
    }
  }

  /**
   * Sitemaps (sitemaps.org) as a source of candidates: read once per run per origin the run takes
   * up, after robots.txt.
   *
   * @param enabled whether sitemaps are read at all
   * @param defaultLocation whether {@code /sitemap.xml} is tried when robots.txt lists none
   * @param maxFiles sitemap files (indexes included) fetched per origin per run
   * @param rereadAfter an origin with no URL due is still taken up this long after it was last, to
   *     read its sitemaps again (a run takes up only the origins with work: the store's agenda)
   */
  public record Sitemaps(boolean enabled, boolean defaultLocation, int maxFiles, Duration rereadAfter) {
    public static final Duration DEFAULT_REREAD_AFTER = Duration.ofDays(1);

    public Sitemaps(boolean enabled, boolean defaultLocation, int maxFiles) {
      this(enabled, defaultLocation, maxFiles, DEFAULT_REREAD_AFTER);
    }

    public static Sitemaps defaults() {
      return new Sitemaps(true, true, 20, DEFAULT_REREAD_AFTER);
    }
  }

  /**
   * WARC output.
   *
   * @param maxFileBytes a file is finished and a new one started once it reaches this size
   * @param gzipLevel deflate level of each record's gzip member, 0 (store) to 9 (smallest), or
   *     {@link #GZIP_FASTEST}
   * @param compression how each record is compressed: a gzip member or a zstd frame
   * @param zstdLevel zstd level of each record's frame, 1 (fastest) to 19
   * @param gzipEngine what deflates the gzip members
   * @param directIo whether files are written with direct I/O where the file system takes it
   *     (docs/warc.md), else through the page cache
   * @param maxFileAge a file is also finished at the first write once it is this old, so that a long
   *     (continuous) crawl's captures are indexed, packaged and replayable within that time
   */
  public record Warc(long maxFileBytes, int gzipLevel, Compression compression, int zstdLevel, GzipEngine gzipEngine,
      boolean directIo, Duration maxFileAge) {

    /** {@code warc.max_file_age}'s default. */
    public static final Duration DEFAULT_MAX_FILE_AGE = Duration.ofDays(1);

    /** Finished by size, and by age at {@link #DEFAULT_MAX_FILE_AGE}. */
    public Warc(long maxFileBytes, int gzipLevel, Compression compression, int zstdLevel, GzipEngine gzipEngine,
        boolean directIo) {
      this(maxFileBytes, gzipLevel, compression, zstdLevel, gzipEngine, directIo, DEFAULT_MAX_FILE_AGE);
    }

    /**
     * {@code gzip_level: fastest}: the gzip engine's fastest mode, which is no zlib level (ISA-L
     * igzip's level 0; libdeflate's and zlib's level 1). Not 0, which stores.
     */
    public static final int GZIP_FASTEST = -1;

    /** The container of each record (docs/warc.md says which readers read which). */
    public enum Compression {
      /** One gzip member per record, {@code .warc.gz}: the default, read by every WARC tool. */
      GZIP,
      /** One zstd frame per record, {@code .warc.zst}: about a third of gzip's CPU. */
      ZSTD;

      /** The name the configuration file uses, e.g. {@code zstd}. */
      public String configName() {
        return name().toLowerCase(Locale.ROOT);
      }
    }

    /** What makes the gzip members' DEFLATE streams (docs/warc.md). */
    public enum GzipEngine {
      /**
       * ISA-L at gzip levels 1 to 3 and fastest when the system has it, else libdeflate, else the
       * JDK's zlib: the default.
       */
      AUTO,
      /** The system's ISA-L (igzip), gzip levels 1 to 3 and fastest; the crawl refuses to start without it. */
      ISAL,
      /** The system's libdeflate; the crawl refuses to start without it. */
      LIBDEFLATE,
      /** The JDK's zlib. */
      ZLIB;

      /** The name the configuration file uses, e.g. {@code libdeflate}. */
      public String configName() {
        return name().toLowerCase(Locale.ROOT);
      }
    }

    /** Direct I/O where the file system takes it. */
    public Warc(long maxFileBytes, int gzipLevel, Compression compression, int zstdLevel, GzipEngine gzipEngine) {
      this(maxFileBytes, gzipLevel, compression, zstdLevel, gzipEngine, true);
    }

    /** The gzip engine chosen for the system ({@link GzipEngine#AUTO}). */
    public Warc(long maxFileBytes, int gzipLevel, Compression compression, int zstdLevel) {
      this(maxFileBytes, gzipLevel, compression, zstdLevel, GzipEngine.AUTO);
    }

    /** Gzip records at {@code gzipLevel}, the zstd level left at its default. */
    public Warc(long maxFileBytes, int gzipLevel) {
      this(maxFileBytes, gzipLevel, Compression.GZIP, 1);
    }

    public static Warc defaults() {
      return new Warc(1L << 30, 1);
    }
  }

  /**
   * Several crawler processes sharing one PostgreSQL store (docs/fleet.md).
   *
   * @param lease how long a claimed origin stays leased to a process without renewal; renewed every
   *     third of it. After a process dies its origins wait this long before another takes them.
   */
  public record Fleet(Duration lease) {
    public static Fleet defaults() {
      return new Fleet(Duration.ofSeconds(60));
    }
  }

  /**
   * The live status page and metrics of a running crawl (docs/status.md).
   *
   * @param port the port to serve on, 0 for any free one; empty (the default) for no server
   * @param bind the address to listen on; loopback unless configured otherwise
   * @param allowedHosts names (or addresses) accepted in a request's {@code Host} besides localhost,
   *     loopback and the bound address; others are refused (DNS rebinding)
   */
  public record Status(OptionalInt port, String bind, List<String> allowedHosts) {
    public static final String DEFAULT_BIND = "127.0.0.1";

    public Status {
      allowedHosts = List.copyOf(allowedHosts);
    }

    public Status(OptionalInt port, String bind) {
      this(port, bind, List.of());
    }

    public static Status defaults() {
      return new Status(OptionalInt.empty(), DEFAULT_BIND);
    }

    public Status withPort(int port) {
      return new Status(OptionalInt.of(port), bind, allowedHosts);
    }

    public boolean enabled() {
      return port.isPresent();
    }
  }

  public CrawlConfig withStatus(Status status) {
    return toBuilder().status(status).build();
  }

  public CrawlConfig withSeeds(List<String> seeds) {
    // A packed list (a seeds file) is immutable already; copying it would unpack every seed.
    return toBuilder().seeds(seeds instanceof PackedStrings ? seeds : List.copyOf(seeds)).build();
  }

  public CrawlConfig withDataDir(Path dataDir) {
    return toBuilder().dataDir(dataDir).build();
  }

  public CrawlConfig withMaxActions(long maxActions) {
    return toBuilder().maxActions(maxActions).build();
  }

  public CrawlConfig withUserAgent(String userAgent) {
    return toBuilder().userAgent(userAgent).build();
  }

  public CrawlConfig withConcurrency(int concurrency) {
    return toBuilder().concurrency(concurrency).build();
  }

  public CrawlConfig withPoliteness(Politeness politeness) {
    return toBuilder().politeness(politeness).build();
  }

  public CrawlConfig withNetwork(Network network) {
    return toBuilder().network(network).build();
  }

  /**
   * Exact duplicate content (docs/freshness.md, "Duplicates").
   *
   * @param skipLinks whether the links of a page whose body is a duplicate of an earlier URL's are not
   *     followed (the original's were)
   */
  public record Duplicates(boolean skipLinks) {
    public static Duplicates defaults() {
      return new Duplicates(true);
    }
  }

  /**
   * Rotation and retention of the crawl log, {@code logs/crawl.jsonl} (docs/configuration.md, {@code log}).
   *
   * @param rotateBytes the live file is finished (renamed, then gzipped) once it reaches this size
   * @param rotateAtStart also finish a non-empty live file when a crawl starts, so that each run has its own
   * @param keep finished files whose last line is older than this are deleted; empty: all are kept
   */
  public record Log(long rotateBytes, boolean rotateAtStart, Optional<Duration> keep) {
    public static final long DEFAULT_ROTATE_BYTES = 256L << 20;

    public static Log defaults() {
      return new Log(DEFAULT_ROTATE_BYTES, false, Optional.empty());
    }
  }

  public CrawlConfig withLog(Log log) {
    return toBuilder().log(log).build();
  }

  /**
   * Which URLs the crawl may take on (docs/scope.md). Enforced by {@code org.forager.scope.Scope}.
   *
   * @param mode what the seeds stand for: their origins, their registrable domains, or a start into
   *     the open web
   * @param allow with {@link Mode#OPEN} only: when not empty, only hosts these entries cover are in
   *     scope. Entries are hosts in the form normalized URLs carry them (lower case, IDN in ASCII, no
   *     trailing dot): {@code example.org} covers itself and its subdomains, a leading dot ({@code .de})
   *     every host under the name, an IP address only itself
   * @param deny entries as in {@code allow}; a host one covers is out of scope in every mode, seeds
   *     included
   * @param maxOrigins how many origins the crawl takes on at most (at least 1)
   * @param maxOriginsPerDomain how many origins of one registrable domain the crawl takes on at most
   *     (at least 1): what bounds a domain that mints host names without end
   */
  public record ScopeConfig(Mode mode, List<String> allow, List<String> deny, long maxOrigins, int maxHops,
      long maxOriginsPerDomain) {

    public static final long DEFAULT_MAX_ORIGINS = 1_000_000;
    /**
     * Ten thousand origins of one domain: far more than a site's subdomains, schemes and ports (a
     * hundred languages of an encyclopedia on two schemes), far fewer than a wildcard DNS trap mints.
     */
    public static final long DEFAULT_MAX_ORIGINS_PER_DOMAIN = 10_000;
    /** The largest {@code scope.max_hops}: beyond a few hops a domains crawl is an open crawl. */
    public static final int MAX_HOPS = 100;

    /** What the seeds stand for. */
    public enum Mode {
      /** Only the seeds' origins (scheme, host, port): the default. */
      ORIGINS,
      /** The seeds' registrable domains, whatever the scheme, subdomain or port. */
      DOMAINS,
      /** Any http(s) URL, within {@code allow} and {@code deny}. */
      OPEN;

      /** The name the configuration file uses, e.g. {@code domains}. */
      public String key() {
        return name().toLowerCase(Locale.ROOT);
      }
    }

    public ScopeConfig {
      Objects.requireNonNull(mode, "mode");
      allow = allow.stream().map(ScopeConfig::entry).toList();
      deny = deny.stream().map(ScopeConfig::entry).toList();
      if (maxOrigins < 1) throw new IllegalArgumentException("maxOrigins must be at least 1: " + maxOrigins);
      if (maxOriginsPerDomain < 1) {
        throw new IllegalArgumentException("maxOriginsPerDomain must be at least 1: " + maxOriginsPerDomain);
      }
      if (!allow.isEmpty() && mode != Mode.OPEN) {
        throw new IllegalArgumentException("allow is only used in mode OPEN, not " + mode);
      }
      if (maxHops < 0 || maxHops > MAX_HOPS) {
        throw new IllegalArgumentException("maxHops must be 0.." + MAX_HOPS + ": " + maxHops);
      }
      if (maxHops > 0 && mode != Mode.DOMAINS) {
        throw new IllegalArgumentException("maxHops is only used in mode DOMAINS, not " + mode);
      }
    }

    /** A scope with {@link #DEFAULT_MAX_ORIGINS_PER_DOMAIN}. */
    public ScopeConfig(Mode mode, List<String> allow, List<String> deny, long maxOrigins, int maxHops) {
      this(mode, allow, deny, maxOrigins, maxHops, DEFAULT_MAX_ORIGINS_PER_DOMAIN);
    }

    /** A scope without hops beyond the seeds' domains. */
    public ScopeConfig(Mode mode, List<String> allow, List<String> deny, long maxOrigins) {
      this(mode, allow, deny, maxOrigins, 0);
    }

    /**
     * An allow or deny entry in the form hosts are compared in (lower case, IDN in ASCII, no trailing
     * dot), however the caller wrote it: an entry spelled otherwise would never match, and a deny that
     * never matches is worse than none.
     *
     * @throws IllegalArgumentException when it is not a domain, a {@code .suffix} or an IP address
     */
    static String entry(String entry) {
      String text = entry.strip();
      boolean suffix = text.startsWith(".");
      String name = suffix ? text.substring(1) : text;
      boolean port = name.lastIndexOf(':') > name.lastIndexOf(']');
      Optional<String> host = name.isEmpty() || port || name.startsWith(".")
          || name.chars().anyMatch(c -> c == '*' || c == '/' || c == '?' || c == '#' || c == '@')
          ? Optional.empty() : UrlNormalizer.host(name);
      String normalized = host.orElseThrow(() -> new IllegalArgumentException(
          "scope entry \"" + entry + "\" is not a domain, a .suffix or an IP address"));
      return suffix ? "." + normalized : normalized;
    }

    private static final ScopeConfig NOT_GIVEN = of(Mode.ORIGINS);

    /**
     * The seeds' origins, no lists, {@link #DEFAULT_MAX_ORIGINS}: the scope of a configuration that
     * gives none. This very instance (not an equal one) also means "not given": a crawl resumed with
     * it uses the scope saved in its store by an earlier run (see {@link #isGiven}).
     */
    public static ScopeConfig defaults() {
      return NOT_GIVEN;
    }

    /**
     * Whether this scope was given (a {@code scope} section, {@code withScope}), rather than left to
     * the default, which defers to the scope a resumed crawl saved.
     */
    public boolean isGiven() {
      return this != NOT_GIVEN;
    }

    /** {@code mode} without lists, {@link #DEFAULT_MAX_ORIGINS}. */
    public static ScopeConfig of(Mode mode) {
      return new ScopeConfig(mode, List.of(), List.of(), DEFAULT_MAX_ORIGINS);
    }
  }

  public CrawlConfig withScope(ScopeConfig scope) {
    return toBuilder().scope(scope).build();
  }

  public CrawlConfig withLimits(Limits limits) {
    return toBuilder().limits(limits).build();
  }

  public CrawlConfig withSites(Sites sites) {
    return toBuilder().sites(sites).build();
  }

  /**
   * The politeness settings and page limit of one origin: the {@code sites} rules covering its host
   * laid over {@link #politeness()} and {@code limits.max_pages_per_origin} (see {@link Sites}).
   */
  public Sites.Settings siteSettings(Origin origin) {
    return sites.settingsFor(origin.host(), politeness, limits.maxPagesPerOrigin());
  }

  /**
   * The most URLs the store keeps of an origin of {@code host}: the {@code sites} rules' {@code max_urls}
   * covering it, else {@code limits.max_urls_per_origin}.
   */
  public long maxUrlsFor(String host) {
    return sites.maxUrlsFor(host, limits.maxUrlsPerOrigin());
  }

  /** A builder holding this configuration's values, to change several at once. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.userAgent = userAgent;
    b.seeds = seeds;
    b.dataDir = dataDir;
    b.maxActions = maxActions;
    b.concurrency = concurrency;
    b.politeness = politeness;
    b.robots = robots;
    b.recrawl = recrawl;
    b.skipExtensions = skipExtensions;
    b.limits = limits;
    b.doNotCrawl = doNotCrawl;
    b.urlQueryParameters = urlQueryParameters;
    b.network = network;
    b.store = store;
    b.warc = warc;
    b.sitemaps = sitemaps;
    b.doNotCrawlFile = doNotCrawlFile;
    b.fleet = fleet;
    b.status = status;
    b.duplicates = duplicates;
    b.scope = scope;
    b.sites = sites;
    b.log = log;
    return b;
  }

  /** Collects the values of a {@link CrawlConfig}; start from {@link CrawlConfig#toBuilder()}. */
  public static final class Builder {
    private String userAgent;
    private List<String> seeds;
    private Path dataDir;
    private long maxActions;
    private int concurrency;
    private Politeness politeness;
    private Robots robots;
    private Recrawl recrawl;
    private List<String> skipExtensions;
    private Limits limits;
    private List<DoNotCrawlRule> doNotCrawl;
    private List<QueryParameterRule> urlQueryParameters;
    private Network network;
    private Store store;
    private Warc warc;
    private Sitemaps sitemaps;
    private Optional<Path> doNotCrawlFile;
    private Fleet fleet;
    private Status status;
    private Duplicates duplicates;
    private ScopeConfig scope;
    private Sites sites;
    private Log log;

    private Builder() {}

    public Builder userAgent(String userAgent) {
      this.userAgent = userAgent;
      return this;
    }

    public Builder seeds(List<String> seeds) {
      this.seeds = seeds;
      return this;
    }

    public Builder dataDir(Path dataDir) {
      this.dataDir = dataDir;
      return this;
    }

    public Builder maxActions(long maxActions) {
      this.maxActions = maxActions;
      return this;
    }

    public Builder concurrency(int concurrency) {
      this.concurrency = concurrency;
      return this;
    }

    public Builder politeness(Politeness politeness) {
      this.politeness = politeness;
      return this;
    }

    public Builder robots(Robots robots) {
      this.robots = robots;
      return this;
    }

    public Builder recrawl(Recrawl recrawl) {
      this.recrawl = recrawl;
      return this;
    }

    public Builder skipExtensions(List<String> skipExtensions) {
      this.skipExtensions = skipExtensions;
      return this;
    }

    public Builder limits(Limits limits) {
      this.limits = limits;
      return this;
    }

    public Builder doNotCrawl(List<DoNotCrawlRule> doNotCrawl) {
      this.doNotCrawl = doNotCrawl;
      return this;
    }

    public Builder urlQueryParameters(List<QueryParameterRule> urlQueryParameters) {
      this.urlQueryParameters = urlQueryParameters;
      return this;
    }

    public Builder network(Network network) {
      this.network = network;
      return this;
    }

    public Builder store(Store store) {
      this.store = store;
      return this;
    }

    public Builder warc(Warc warc) {
      this.warc = warc;
      return this;
    }

    public Builder sitemaps(Sitemaps sitemaps) {
      this.sitemaps = sitemaps;
      return this;
    }

    public Builder doNotCrawlFile(Optional<Path> doNotCrawlFile) {
      this.doNotCrawlFile = doNotCrawlFile;
      return this;
    }

    public Builder fleet(Fleet fleet) {
      this.fleet = fleet;
      return this;
    }

    public Builder status(Status status) {
      this.status = status;
      return this;
    }

    public Builder duplicates(Duplicates duplicates) {
      this.duplicates = duplicates;
      return this;
    }

    public Builder scope(ScopeConfig scope) {
      this.scope = scope;
      return this;
    }

    public Builder sites(Sites sites) {
      this.sites = sites;
      return this;
    }

    public Builder log(Log log) {
      this.log = log;
      return this;
    }

    public CrawlConfig build() {
      return new CrawlConfig(userAgent, seeds, dataDir, maxActions, concurrency, politeness, robots, recrawl,
          skipExtensions, limits, doNotCrawl, urlQueryParameters, network, store, warc, sitemaps, doNotCrawlFile, fleet,
          status, duplicates, scope, sites, log);
    }
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

  /** max_actions when the configuration does not set it. */
  public static final long DEFAULT_MAX_ACTIONS = 1_000_000;

  public static CrawlConfig defaults() {
    return new CrawlConfig(
        DEFAULT_USER_AGENT,
        List.of(),
        Path.of("crawl-data"),
        DEFAULT_MAX_ACTIONS,
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
        Sitemaps.defaults(),
        Optional.empty(),
        Fleet.defaults(),
        Status.defaults(),
        Duplicates.defaults(),
        ScopeConfig.defaults(),
        Sites.NONE,
        Log.defaults());
  }

  /** The product token robots.txt groups and meta robots names are matched on: the User-Agent up to '/' or space. */
  public String productToken() {
    String ua = userAgent.strip();
    int end = 0;
    while (end < ua.length() && ua.charAt(end) != '/' && !Character.isWhitespace(ua.charAt(end))) end++;
    return ua.substring(0, end);
  }
}
