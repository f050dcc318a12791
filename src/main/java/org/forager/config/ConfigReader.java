package org.forager.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;
import org.forager.config.CrawlConfig.Limits;
import org.forager.config.CrawlConfig.Politeness;
import org.forager.config.CrawlConfig.Recrawl;
import org.forager.config.CrawlConfig.Robots;
import org.forager.config.CrawlConfig.Store;
import org.forager.warc.RecordCompression;

/**
 * Builds a {@link CrawlConfig} from the tree of a configuration file: every key of the contract, with
 * its type and range checked and its default from {@link CrawlConfig#defaults()} when absent. The lists
 * of rules are read by {@link RuleReader}, the {@code network} section by {@link NetworkReader},
 * {@code scope} by {@link ScopeReader}, the {@code sites} list by {@link SiteReader}. Stateless.
 */
final class ConfigReader {

  static final List<String> ROOT_KEYS = List.of(
      "user_agent", "seeds", "data_dir", "max_actions", "concurrency", "politeness", "robots", "recrawl",
      "skip_extensions", "limits", "do_not_crawl", "url_query_parameters", "network", "store", "warc", "sitemaps",
      "do_not_crawl_file", "fleet", "status", "duplicates", "scope", "sites", "log");
  static final List<String> POLITENESS_KEYS =
      List.of("min_delay", "max_delay", "response_time_factor", "max_retry_after", "max_crawl_delay", "per_ip");
  static final List<String> PER_IP_KEYS = List.of("max_in_flight", "min_delay");
  static final List<String> LIMITS_KEYS = List.of(
      "max_page_bytes", "fetch_timeout", "max_url_length", "max_depth", "max_retries",
      "max_decompression_ratio", "max_pages_per_origin", "max_repeated_path_segments",
      "max_active_origins", "max_urls_per_origin");
  static final List<String> RECRAWL_KEYS = List.of("interval", "min_interval", "max_interval");
  static final List<String> STATUS_KEYS = List.of("port", "bind", "allowed_hosts");
  static final List<String> STORE_KINDS = List.of("embedded", "postgres");
  static final List<String> STORE_KEYS = List.of("kind", "url", "memory", "password_file");
  /** The login password parameter of a JDBC URL. */
  private static final Pattern URL_PASSWORD = Pattern.compile("[?&]password=");

  /** A product token (RFC 9309 section 2.2.1 matches robots.txt groups on it), then '/', space or the end. */
  private static final Pattern USER_AGENT = Pattern.compile("[A-Za-z0-9_-]+(?:[/ ].*)?");
  /** What a header value may hold, so the User-Agent cannot break the request. */
  private static final Pattern BIND_ADDRESS = Pattern.compile("[A-Za-z0-9.:%_-]+");
  private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9._-]+");
  private static final Pattern IPV6_LITERAL = Pattern.compile("[0-9A-Fa-f:.]+(%[A-Za-z0-9_.-]+)?");
  private static final Pattern PRINTABLE_ASCII = Pattern.compile("[\\x20-\\x7e]*");

  private ConfigReader() {}

  /** Sections whose keys are often written at the top level by mistake ({@code min_delay: 1s}). */
  private static final Map<String, List<String>> NESTED = new LinkedHashMap<>();

  static {
    NESTED.put("politeness", POLITENESS_KEYS);
    NESTED.put("limits", LIMITS_KEYS);
    NESTED.put("recrawl", RECRAWL_KEYS);
    NESTED.put("robots", List.of("cache_ttl"));
    NESTED.put("store", STORE_KEYS);
    NESTED.put("status", STATUS_KEYS);
  }

  /** A top-level key that belongs in a section: named with its place, rather than every top-level key listed. */
  private static void misplacedKey(JsonNode root) {
    if (!root.isObject()) return;
    for (var names = root.fieldNames(); names.hasNext(); ) {
      String key = names.next();
      if (ROOT_KEYS.contains(key)) continue;
      for (var section : NESTED.entrySet()) {
        if (section.getValue().contains(key)) {
          throw ConfigException.at("", "unknown key '" + key + "' (did you mean '" + section.getKey() + "." + key
              + "'? it goes under " + section.getKey() + ":)");
        }
      }
    }
  }

  /** The configuration a file's tree describes; {@code tree} empty means an empty file, all defaults. */
  static CrawlConfig read(Optional<JsonNode> tree) {
    CrawlConfig defaults = CrawlConfig.defaults();
    if (tree.isEmpty()) return defaults;
    misplacedKey(tree.get());
    Section root = Section.of("", tree.get(), ROOT_KEYS);
    Politeness politeness = politeness(root.section("politeness", POLITENESS_KEYS));
    Limits limits = limits(root.section("limits", LIMITS_KEYS));
    return checkUrlLengths(checkFleet(new CrawlConfig(
        root.get("user_agent", ConfigReader::userAgent).orElse(defaults.userAgent()),
        root.get("seeds", (path, node) -> Values.list(path, node, ConfigReader::seed)).orElse(defaults.seeds()),
        root.get("data_dir", ConfigReader::path).orElse(defaults.dataDir()),
        root.get("max_actions", (path, node) -> Values.wholeNumber(path, node, 0, Long.MAX_VALUE))
            .orElse(defaults.maxActions()),
        root.get("concurrency", (path, node) -> Values.intAtLeast(path, node, 1)).orElse(defaults.concurrency()),
        politeness,
        new Robots(root.section("robots", List.of("cache_ttl"))
            .get("cache_ttl", Values::positiveDuration).orElse(defaults.robots().cacheTtl())),
        recrawl(root.section("recrawl", RECRAWL_KEYS)),
        root.get("skip_extensions", (path, node) -> Values.list(path, node, RuleReader::extension))
            .orElse(defaults.skipExtensions()),
        limits,
        root.get("do_not_crawl", (path, node) -> Values.list(path, node, RuleReader::doNotCrawl))
            .orElse(defaults.doNotCrawl()),
        root.get("url_query_parameters", (path, node) -> Values.list(path, node, RuleReader::queryParameters))
            .orElse(defaults.urlQueryParameters()),
        NetworkReader.read(root.section("network", NetworkReader.KEYS)),
        store(root.section("store", STORE_KEYS)),
        warc(root.section("warc", List.of("max_file_size", "gzip_level", "compression", "zstd_level", "gzip_engine", "direct_io",
            "max_file_age"))),
        sitemaps(root.section("sitemaps", List.of("enabled", "default_location", "max_files", "reread_after"))),
        root.get("do_not_crawl_file", ConfigReader::path),
        fleet(root.section("fleet", List.of("lease"))),
        status(root.section("status", STATUS_KEYS)),
        new CrawlConfig.Duplicates(root.section("duplicates", List.of("skip_links"))
            .get("skip_links", Values::bool).orElse(defaults.duplicates().skipLinks())),
        root.has("scope") ? ScopeReader.read(root.section("scope", ScopeReader.KEYS)) : defaults.scope(),
        root.get("sites", (path, node) -> SiteReader.read(path, node, politeness, limits.maxPagesPerOrigin()))
            .orElse(defaults.sites()),
        log(root.section("log", List.of("rotate_size", "rotate_at_start", "keep"))))));
  }

  /**
   * A fleet process starts a request only while its lease outlasts the request's timeout
   * (docs/fleet.md, "Fencing"): with a fetch timeout over half the lease, it never could.
   */
  private static CrawlConfig checkFleet(CrawlConfig config) {
    Duration lease = config.fleet().lease();
    Duration fetchTimeout = config.limits().fetchTimeout();
    if (config.store().kind().equals("postgres") && fetchTimeout.compareTo(lease.dividedBy(2)) > 0) {
      throw ConfigException.at("fleet.lease", "must be at least twice limits.fetch_timeout ("
          + Durations.format(fetchTimeout) + ") for a fleet's requests to end within their lease, got "
          + Durations.format(lease));
    }
    return config;
  }

  /**
   * The longest URL the PostgreSQL store takes: its indexes hold a URL whole, beside its origin, and an
   * index entry is at most 2,704 bytes (a third of a page); 2,048 leaves room for the longest origin.
   */
  static final int POSTGRES_MAX_URL_LENGTH = 2048;

  /** Seeds within {@code limits.max_url_length}, and that within what the store can index. */
  private static CrawlConfig checkUrlLengths(CrawlConfig config) {
    int maxUrlLength = config.limits().maxUrlLength();
    if (config.store().kind().equals("postgres") && maxUrlLength > POSTGRES_MAX_URL_LENGTH) {
      throw ConfigException.at("limits.max_url_length", "must be at most " + POSTGRES_MAX_URL_LENGTH
          + " with store.kind postgres (an index entry of PostgreSQL holds the URL whole), got " + maxUrlLength);
    }
    List<String> seeds = config.seeds();
    for (int i = 0; i < seeds.size(); i++) {
      Optional<String> problem = Seeds.problem(seeds.get(i), maxUrlLength);
      if (problem.isPresent()) throw ConfigException.at("seeds[" + i + "]", problem.get());
    }
    return config;
  }

  private static String userAgent(String path, JsonNode node) {
    String userAgent = Values.nonBlank(path, node);
    if (!PRINTABLE_ASCII.matcher(userAgent).matches()) {
      throw ConfigException.at(path, "must be printable ASCII on one line");
    }
    if (!USER_AGENT.matcher(userAgent).matches()) {
      throw ConfigException.at(path, "must start with a product token (letters, digits, '-', '_') followed by"
          + " '/' or a space, like \"ForagerBot/1.0 (+https://example.org/bot.html)\"");
    }
    return userAgent;
  }

  private static String seed(String path, JsonNode node) {
    String url = Values.nonBlank(path, node);
    if (!Seeds.isHttpUrl(url)) throw ConfigException.at(path, Seeds.notHttpUrl(url));
    return url;
  }

  private static Path path(String keyPath, JsonNode node) {
    String text = Values.nonBlank(keyPath, node);
    try {
      return Path.of(text);
    } catch (InvalidPathException e) {
      throw ConfigException.at(keyPath, ConfigException.quote(text) + " is not a valid path: " + e.getReason());
    }
  }

  private static Politeness politeness(Section section) {
    Politeness defaults = Politeness.defaults();
    Duration minDelay = section.get("min_delay", Values::duration).orElse(defaults.minDelay());
    Duration maxDelay = section.get("max_delay", Values::duration).orElse(defaults.maxDelay());
    if (minDelay.compareTo(maxDelay) > 0) {
      throw ConfigException.at(section.path(), "min_delay (" + Durations.format(minDelay)
          + ") must be ≤ max_delay (" + Durations.format(maxDelay) + ")");
    }
    return new Politeness(
        minDelay,
        maxDelay,
        section.get("response_time_factor", (path, node) -> Values.numberAtLeast(path, node, 0))
            .orElse(defaults.responseTimeFactor()),
        section.get("max_retry_after", Values::duration).orElse(defaults.maxRetryAfter()),
        section.get("max_crawl_delay", Values::duration).orElse(defaults.maxCrawlDelay()),
        perIp(section.section("per_ip", PER_IP_KEYS)));
  }

  private static CrawlConfig.PerIp perIp(Section section) {
    CrawlConfig.PerIp defaults = CrawlConfig.PerIp.defaults();
    return new CrawlConfig.PerIp(
        section.get("max_in_flight", (path, node) -> Values.intAtLeast(path, node, 1)).orElse(defaults.maxInFlight()),
        section.get("min_delay", Values::duration).orElse(defaults.minDelay()));
  }

  /** Bounds left out follow the interval (see {@link Recrawl#Recrawl(Duration)}); bounds given must hold it. */
  private static Recrawl recrawl(Section section) {
    Recrawl bounds = new Recrawl(section.get("interval", Values::duration).orElse(Recrawl.defaults().interval()));
    Duration interval = bounds.interval();
    Duration min = section.get("min_interval", Values::duration).orElse(bounds.minInterval());
    Duration max = section.get("max_interval", Values::duration).orElse(bounds.maxInterval());
    if (min.compareTo(max) > 0) {
      throw ConfigException.at(section.path(), "min_interval (" + Durations.format(min)
          + ") must be ≤ max_interval (" + Durations.format(max) + ")");
    }
    if (interval.compareTo(min) < 0 || interval.compareTo(max) > 0) {
      throw ConfigException.at(section.path(), "interval (" + Durations.format(interval)
          + ") must be between min_interval (" + Durations.format(min) + ") and max_interval ("
          + Durations.format(max) + ")");
    }
    return new Recrawl(interval, min, max);
  }

  private static Limits limits(Section section) {
    Limits defaults = Limits.defaults();
    return new Limits(
        section.get("max_page_bytes", Values::positiveSize).orElse(defaults.maxPageBytes()),
        section.get("fetch_timeout", Values::positiveDuration).orElse(defaults.fetchTimeout()),
        section.get("max_url_length", (path, node) -> Values.intAtLeast(path, node, 1))
            .orElse(defaults.maxUrlLength()),
        section.get("max_depth", (path, node) -> Values.intAtLeast(path, node, 0)).orElse(defaults.maxDepth()),
        section.get("max_retries", (path, node) -> Values.intAtLeast(path, node, 0))
            .orElse(defaults.maxRetries()),
        section.get("max_decompression_ratio", (path, node) -> Values.wholeNumber(path, node, 1, Long.MAX_VALUE))
            .orElse(defaults.maxDecompressionRatio()),
        section.get("max_pages_per_origin", (path, node) -> Values.wholeNumber(path, node, 1, Long.MAX_VALUE))
            .orElse(defaults.maxPagesPerOrigin()),
        section.get("max_repeated_path_segments", (path, node) -> Values.intAtLeast(path, node, 1))
            .orElse(defaults.maxRepeatedPathSegments()),
        section.get("max_active_origins", (path, node) -> Values.intAtLeast(path, node, 1))
            .orElse(defaults.maxActiveOrigins()),
        section.get("max_urls_per_origin", (path, node) -> Values.wholeNumber(path, node, 1, Long.MAX_VALUE))
            .orElse(defaults.maxUrlsPerOrigin()));
  }

  private static CrawlConfig.Sitemaps sitemaps(Section section) {
    CrawlConfig.Sitemaps defaults = CrawlConfig.Sitemaps.defaults();
    return new CrawlConfig.Sitemaps(
        section.get("enabled", Values::bool).orElse(defaults.enabled()),
        section.get("default_location", Values::bool).orElse(defaults.defaultLocation()),
        section.get("max_files", (path, node) -> Values.intAtLeast(path, node, 0)).orElse(defaults.maxFiles()),
        section.get("reread_after", Values::positiveDuration).orElse(defaults.rereadAfter()));
  }

  private static CrawlConfig.Warc warc(Section section) {
    CrawlConfig.Warc defaults = CrawlConfig.Warc.defaults();
    CrawlConfig.Warc warc = new CrawlConfig.Warc(
        section.get("max_file_size", Values::positiveSize).orElse(defaults.maxFileBytes()),
        section.get("gzip_level", ConfigReader::gzipLevel).orElse(defaults.gzipLevel()),
        section.get("compression", ConfigReader::warcCompression).orElse(defaults.compression()),
        section.get("zstd_level", (path, node) -> Values.wholeNumber(path, node, 1, 19))
            .map(Long::intValue).orElse(defaults.zstdLevel()),
        section.get("gzip_engine", ConfigReader::gzipEngine).orElse(defaults.gzipEngine()),
        section.get("direct_io", Values::bool).orElse(defaults.directIo()),
        section.get("max_file_age", Values::positiveDuration).orElse(defaults.maxFileAge()));
    if (warc.gzipEngine() == CrawlConfig.Warc.GzipEngine.ISAL && warc.gzipLevel() > 3) {
      throw ConfigException.at(section.path() + ".gzip_engine",
          "isal compresses at gzip_level 1 to 3 or fastest (found " + warc.gzipLevel()
              + "); use auto or libdeflate for higher levels");
    }
    return warc;
  }

  /** A whole number 0 to 9, or {@code fastest}: the engine's own fastest mode, not a zlib level. */
  private static int gzipLevel(String path, JsonNode node) {
    if (node.isIntegralNumber()) return (int) Values.wholeNumber(path, node, 0, 9);
    if (node.isTextual() && node.textValue().equals("fastest")) return CrawlConfig.Warc.GZIP_FASTEST;
    throw ConfigException.at(path, "must be 0 to 9 or fastest, found " + Values.describe(node));
  }

  private static CrawlConfig.Warc.GzipEngine gzipEngine(String path, JsonNode node) {
    String text = Values.nonBlank(path, node);
    for (CrawlConfig.Warc.GzipEngine e : CrawlConfig.Warc.GzipEngine.values()) {
      if (!e.configName().equals(text)) continue;
      Optional<String> unavailable = switch (e) {
        case ISAL -> RecordCompression.isalUnavailable();
        case LIBDEFLATE -> RecordCompression.libdeflateUnavailable();
        case AUTO, ZLIB -> Optional.empty();
      };
      unavailable.ifPresent(why -> {
        throw ConfigException.at(path, why + "; or use auto");
      });
      return e;
    }
    throw ConfigException.at(path, "must be auto, isal, libdeflate or zlib, found " + ConfigException.quote(text));
  }

  private static CrawlConfig.Log log(Section section) {
    CrawlConfig.Log defaults = CrawlConfig.Log.defaults();
    return new CrawlConfig.Log(
        section.get("rotate_size", Values::positiveSize).orElse(defaults.rotateBytes()),
        section.get("rotate_at_start", Values::bool).orElse(defaults.rotateAtStart()),
        section.get("keep", Values::positiveDuration).or(defaults::keep));
  }

  private static CrawlConfig.Warc.Compression warcCompression(String path, JsonNode node) {
    String text = Values.nonBlank(path, node);
    for (CrawlConfig.Warc.Compression c : CrawlConfig.Warc.Compression.values()) {
      if (c.configName().equals(text)) return c;
    }
    throw ConfigException.at(path, "must be gzip or zstd, found " + ConfigException.quote(text));
  }

  private static CrawlConfig.Fleet fleet(Section section) {
    Duration lease = section.get("lease", Values::positiveDuration).orElse(CrawlConfig.Fleet.defaults().lease());
    if (lease.toMillis() < 300) {
      // Renewed every third: shorter than this, the renewals alone would keep the database busy.
      throw ConfigException.at(section.pathOf("lease"), "must be at least 300ms, got " + Durations.format(lease));
    }
    return new CrawlConfig.Fleet(lease);
  }

  private static CrawlConfig.Status status(Section section) {
    OptionalInt port = section.get("port", (path, node) -> (int) Values.wholeNumber(path, node, 0, 65535))
        .map(OptionalInt::of).orElse(OptionalInt.empty());
    String bind = section.get("bind", ConfigReader::bindAddress).orElse(CrawlConfig.Status.DEFAULT_BIND);
    List<String> allowedHosts = section.get("allowed_hosts", (path, node) -> Values.list(path, node,
        ConfigReader::allowedHost)).orElse(List.of());
    return new CrawlConfig.Status(port, bind, allowedHosts);
  }

  /** A host name or IP address (an IPv6 one in brackets or not) as a request's Host names it, no port. */
  private static String allowedHost(String path, JsonNode node) {
    String host = Values.nonBlank(path, node);
    boolean bracketed = host.startsWith("[") && host.endsWith("]");
    String bare = bracketed ? host.substring(1, host.length() - 1) : host;
    // Every IPv6 address has two colons or more; one colon is a name with a port.
    boolean valid = bare.indexOf(':') != bare.lastIndexOf(':') ? IPV6_LITERAL.matcher(bare).matches()
        : !bracketed && HOST_NAME.matcher(bare).matches();
    if (!valid) {
      throw ConfigException.at(path, ConfigException.quote(host)
          + " is not a host name or IP address (give it without scheme or port)");
    }
    return host;
  }

  /** An IP address or a host name; whether it can be listened on is known when the server starts. */
  private static String bindAddress(String path, JsonNode node) {
    String bind = Values.nonBlank(path, node);
    if (!BIND_ADDRESS.matcher(bind).matches()) {
      throw ConfigException.at(path, ConfigException.quote(bind) + " is not an IP address or host name");
    }
    return bind;
  }

  private static Store store(Section section) {
    String kind = section.get("kind", ConfigReader::storeKind).orElse(Store.defaults().kind());
    Optional<String> url = section.get("url", Values::nonBlank);
    Optional<Long> memory = section.get("memory", Values::positiveSize);
    Optional<Path> passwordFile = section.get("password_file", ConfigReader::path);
    if (memory.isPresent() && kind.equals("postgres")) {
      throw ConfigException.at(section.pathOf("memory"), "only used when store.kind is embedded");
    }
    if (memory.isPresent() && memory.get() < Store.MIN_MEMORY_BYTES) {
      throw ConfigException.at(section.pathOf("memory"),
          "must be at least 32MiB: RocksDB would spend the crawl compacting");
    }
    if (kind.equals("postgres")) {
      String jdbcUrl = url.orElseThrow(
          () -> ConfigException.at(section.pathOf("url"), "required when store.kind is postgres"));
      // Every message shows the URL redacted: it may hold a password.
      String shown = ConfigException.quote(StoreUrl.redact(jdbcUrl));
      if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
        throw ConfigException.at(section.pathOf("url"), shown
            + " is not a PostgreSQL JDBC URL (jdbc:postgresql://host/database)");
      }
      if (StoreUrl.hasUserinfo(jdbcUrl)) {
        throw ConfigException.at(section.pathOf("url"), shown + ": the PostgreSQL driver reads no user:password@"
            + " in a JDBC URL; give ?user=NAME and the password in store.password_file, FORAGER_STORE_PASSWORD"
            + " or PGPASSWORD");
      }
      if (passwordFile.isPresent() && URL_PASSWORD.matcher(jdbcUrl).find()) {
        throw ConfigException.at(section.pathOf("password_file"),
            "store.url has a password parameter too; give the password one way");
      }
      return new Store(kind, jdbcUrl, Store.DEFAULT_MEMORY_BYTES, passwordFile);
    }
    if (url.isPresent()) throw ConfigException.at(section.pathOf("url"), "only used when store.kind is postgres");
    if (passwordFile.isPresent()) {
      throw ConfigException.at(section.pathOf("password_file"), "only used when store.kind is postgres");
    }
    return new Store(kind, Store.defaults().url(), memory.orElse(Store.DEFAULT_MEMORY_BYTES));
  }

  private static String storeKind(String path, JsonNode node) {
    String kind = Values.nonBlank(path, node);
    if (!STORE_KINDS.contains(kind)) {
      throw ConfigException.at(path, ConfigException.quote(kind) + " is not a store kind (use embedded or postgres)");
    }
    return kind;
  }
}
