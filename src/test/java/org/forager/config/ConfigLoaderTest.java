package org.forager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.forager.config.CrawlConfig.DoNotCrawlRule;
import org.forager.config.CrawlConfig.QueryParameterRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

  @TempDir Path dir;

  /** The Config example of DESIGN.md, with the elided skip_extensions list written out. */
  private static final String DESIGN_EXAMPLE = """
      user_agent: "ForagerBot/1.0 (+https://example.org/bot.html)"
      seeds: [ "https://example.org/" ]
      data_dir: ./crawl-data
      max_actions: 1000000
      politeness: { min_delay: 1s, max_delay: 120s, response_time_factor: 10, max_retry_after: 1h }
      robots: { cache_ttl: 30m }
      recrawl: { interval: 7d }
      skip_extensions: [ .jpg, .png, .gif, .pdf, .zip, .mp4 ]
      limits: { max_page_bytes: 2MiB, fetch_timeout: 30s, max_url_length: 2048, max_depth: 50, max_retries: 3 }
      do_not_crawl:
        - host: "ads.example.org"
        - prefix: "https://example.org/private/"
        - regex: ".*/calendar/\\\\d{4}/.*"
      url_query_parameters:        # a URL with a query is crawled only if a rule for its prefix allows all its parameter names
        - prefix: "https://example.org/search"
          allow: [ "q", "page" ]
      network: { allow_private_addresses: false }
      store: { kind: embedded }    # or { kind: postgres, url: "jdbc:postgresql://…" }
      """;

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  private CrawlConfig load(String yaml) throws IOException {
    return ConfigLoader.load(Optional.of(write("forager.yaml", yaml)), Overrides.none());
  }

  /** A whole number written as a decimal (YAML reads 1e3 as a float) was "1000.0 is not a whole number". */
  @Test
  void aWholeNumberWrittenAsADecimalIsReadAsOne() throws IOException {
    CrawlConfig config = load("max_actions: 1e3\nlimits: { max_depth: 10.0 }\n");
    assertEquals(1000, config.maxActions());
    assertEquals(10, config.limits().maxDepth());
  }

  @Test
  void loadsTheDesignExampleWithEveryValue() throws IOException {
    CrawlConfig config = load(DESIGN_EXAMPLE);

    assertEquals("ForagerBot/1.0 (+https://example.org/bot.html)", config.userAgent());
    assertEquals("ForagerBot", config.productToken());
    assertEquals(List.of("https://example.org/"), config.seeds());
    assertEquals(Path.of("./crawl-data"), config.dataDir());
    assertEquals(1_000_000, config.maxActions());
    assertEquals(256, config.concurrency());
    assertEquals(new CrawlConfig.Politeness(
        Duration.ofSeconds(1), Duration.ofSeconds(120), 10, Duration.ofHours(1)), config.politeness());
    assertEquals(Duration.ofMinutes(30), config.robots().cacheTtl());
    assertEquals(new CrawlConfig.Recrawl(Duration.ofDays(7), Duration.ofHours(1), Duration.ofDays(30)),
        config.recrawl());
    assertEquals(List.of(".jpg", ".png", ".gif", ".pdf", ".zip", ".mp4"), config.skipExtensions());
    assertEquals(new CrawlConfig.Limits(2 * 1024 * 1024, Duration.ofSeconds(30), 2048, 50, 3, 100, 100_000, 3),
        config.limits());
    assertEquals(List.of(
        DoNotCrawlRule.host("ads.example.org"),
        DoNotCrawlRule.prefix("https://example.org/private/"),
        DoNotCrawlRule.regex(".*/calendar/\\d{4}/.*")), config.doNotCrawl());
    assertEquals(List.of(new QueryParameterRule("https://example.org/search", List.of("q", "page"))),
        config.urlQueryParameters());
    assertEquals(false, config.network().allowPrivateAddresses());
    assertEquals(new CrawlConfig.Store("embedded", null), config.store());
  }

  @Test
  void readsEveryKeyWhenNoneIsADefault() throws IOException {
    CrawlConfig config = load("""
        user_agent: TestBot
        seeds:
          - http://a.example/
          - https://b.example:8443/start?x=1#top
        data_dir: /var/lib/forager
        max_actions: 0
        concurrency: 8
        politeness:
          min_delay: 250ms
          max_delay: 1.5m
          response_time_factor: 2.5
          max_retry_after: 0
        robots:
          cache_ttl: 1d
        recrawl:
          interval: 2w
          min_interval: 6h
          max_interval: 8w
        skip_extensions: [.PDF, .Tar]
        limits:
          max_page_bytes: 512KiB
          fetch_timeout: 5s
          max_url_length: 100
          max_depth: 0
          max_retries: 0
          max_decompression_ratio: 20
        do_not_crawl: []
        url_query_parameters:
          - prefix: http://a.example/list
            allow: []
        network:
          allow_private_addresses: true
        store:
          kind: postgres
          url: jdbc:postgresql://db.internal:5432/crawl
        warc:
          max_file_size: 100MiB
          gzip_level: 6
        sitemaps: { enabled: false, default_location: false, max_files: 3 }
        do_not_crawl_file: /etc/forager/never-crawl.txt
        fleet:
          lease: 2m
        status:
          port: 8090
          bind: 0.0.0.0
          allowed_hosts: [ crawler.internal, "[fd00::5]" ]
        duplicates: { skip_links: false }
        """);

    assertEquals(new CrawlConfig(
        "TestBot",
        List.of("http://a.example/", "https://b.example:8443/start?x=1#top"),
        Path.of("/var/lib/forager"),
        0,
        8,
        new CrawlConfig.Politeness(Duration.ofMillis(250), Duration.ofSeconds(90), 2.5, Duration.ZERO),
        new CrawlConfig.Robots(Duration.ofDays(1)),
        new CrawlConfig.Recrawl(Duration.ofDays(14), Duration.ofHours(6), Duration.ofDays(56)),
        List.of(".pdf", ".tar"),
        new CrawlConfig.Limits(512 * 1024, Duration.ofSeconds(5), 100, 0, 0, 20, 100_000, 3),
        List.of(),
        List.of(new QueryParameterRule("http://a.example/list", List.of())),
        new CrawlConfig.Network(true),
        new CrawlConfig.Store("postgres", "jdbc:postgresql://db.internal:5432/crawl"),
        new CrawlConfig.Warc(100L << 20, 6),
        new CrawlConfig.Sitemaps(false, false, 3),
        Optional.of(Path.of("/etc/forager/never-crawl.txt")),
        new CrawlConfig.Fleet(Duration.ofMinutes(2)),
        new CrawlConfig.Status(OptionalInt.of(8090), "0.0.0.0", List.of("crawler.internal", "[fd00::5]")),
        new CrawlConfig.Duplicates(false)), config);
  }

  @Test
  void noFileMeansTheDefaults() {
    assertEquals(CrawlConfig.defaults(), ConfigLoader.load(Optional.empty(), Overrides.none()));
  }

  @Test
  void anEmptyFileOrOneOfCommentsMeansTheDefaults() throws IOException {
    assertEquals(CrawlConfig.defaults(), load(""));
    assertEquals(CrawlConfig.defaults(), load("# nothing set yet\n\n"));
    assertEquals(CrawlConfig.defaults(), load("---\n"));
  }

  @Test
  void missingKeysTakeTheirDefaultsOneByOne() throws IOException {
    CrawlConfig config = load("""
        politeness: { min_delay: 3s }
        limits: { max_depth: 7 }
        """);
    CrawlConfig defaults = CrawlConfig.defaults();

    assertEquals(new CrawlConfig.Politeness(Duration.ofSeconds(3), defaults.politeness().maxDelay(),
        defaults.politeness().responseTimeFactor(), defaults.politeness().maxRetryAfter()), config.politeness());
    assertEquals(7, config.limits().maxDepth());
    assertEquals(defaults.limits().maxPageBytes(), config.limits().maxPageBytes());
    assertEquals(defaults.skipExtensions(), config.skipExtensions());
    assertEquals(defaults.userAgent(), config.userAgent());
    assertEquals(defaults.store(), config.store());
  }

  @Test
  void perIpPolitenessIsOneInFlightWithNoDelayOfItsOwnUnlessSet() throws IOException {
    assertEquals(new CrawlConfig.PerIp(1, Duration.ZERO), CrawlConfig.defaults().politeness().perIp());
    CrawlConfig config = load("""
        politeness: { min_delay: 3s, per_ip: { max_in_flight: 2, min_delay: 250ms } }
        """);
    assertEquals(new CrawlConfig.PerIp(2, Duration.ofMillis(250)), config.politeness().perIp());
    assertEquals(new CrawlConfig.PerIp(4, Duration.ZERO),
        load("politeness: { per_ip: { max_in_flight: 4 } }").politeness().perIp());
  }

  @Test
  void theUrlsKeptPerOriginAreAMillionUnlessSet() throws IOException {
    assertEquals(1_000_000, CrawlConfig.defaults().limits().maxUrlsPerOrigin());
    assertEquals(5_000_000, load("limits: { max_urls_per_origin: 5_000_000 }").limits().maxUrlsPerOrigin());
  }

  @Test
  void acceptsUnderscoresInNumbersAndBareBytes() throws IOException {
    CrawlConfig config = load("max_actions: 1_000\nlimits: { max_page_bytes: 65536 }\n");
    assertEquals(1000, config.maxActions());
    assertEquals(65536, config.limits().maxPageBytes());
  }

  @Test
  void lowerCasesDoNotCrawlHosts() throws IOException {
    CrawlConfig config = load("do_not_crawl: [ { host: Ads.Example.ORG } ]\n");
    assertEquals(List.of(DoNotCrawlRule.host("ads.example.org")), config.doNotCrawl());
  }

  @Test
  void ignoresAByteOrderMark() throws IOException {
    assertEquals(Duration.ofSeconds(4), load("\uFEFFpoliteness: { min_delay: 4s }\n").politeness().minDelay());
  }

  @Test
  void flagsOverrideTheFile() throws IOException {
    Path file = write("forager.yaml", """
        seeds: [ "https://file.example/" ]
        data_dir: from-file
        max_actions: 10
        """);
    Overrides flags = new Overrides(List.of("https://flag.example/"), Optional.empty(),
        Optional.of(Path.of("from-flag")), Optional.of(99L));

    CrawlConfig config = ConfigLoader.load(Optional.of(file), flags);

    assertEquals(List.of("https://flag.example/"), config.seeds());
    assertEquals(Path.of("from-flag"), config.dataDir());
    assertEquals(99, config.maxActions());
  }

  @Test
  void theLinksOfDuplicatesAreSkippedUnlessToldOtherwise() throws IOException {
    assertEquals(new CrawlConfig.Duplicates(true), load("").duplicates());
    assertEquals(new CrawlConfig.Duplicates(true), load("duplicates: {}").duplicates());
    assertEquals(new CrawlConfig.Duplicates(false), load("duplicates: { skip_links: false }").duplicates());
  }

  @Test
  void theStatusServerIsOffUnlessAPortIsGiven() throws IOException {
    assertEquals(new CrawlConfig.Status(OptionalInt.empty(), "127.0.0.1"), load("").status());
    assertEquals(new CrawlConfig.Status(OptionalInt.empty(), "127.0.0.1"), load("status: { bind: 127.0.0.1 }").status());
    assertEquals(new CrawlConfig.Status(OptionalInt.of(0), "127.0.0.1"), load("status: { port: 0 }").status());
  }

  @Test
  void theStatusPortFlagTurnsTheServerOnKeepingTheFilesBindAddress() throws IOException {
    Path file = write("forager.yaml", "status: { port: 8090, bind: 10.0.0.5, allowed_hosts: [ crawler ] }\n");
    Overrides flags = new Overrides(List.of(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(9000));

    CrawlConfig config = ConfigLoader.load(Optional.of(file), flags);

    assertEquals(new CrawlConfig.Status(OptionalInt.of(9000), "10.0.0.5", List.of("crawler")), config.status());
    assertEquals(new CrawlConfig.Status(OptionalInt.of(8090), "10.0.0.5", List.of("crawler")),
        ConfigLoader.load(Optional.of(file), Overrides.none()).status());
  }

  @Test
  void withoutFlagsTheFileDecides() throws IOException {
    Path file = write("forager.yaml", "seeds: [ \"https://file.example/\" ]\ndata_dir: from-file\nmax_actions: 10\n");

    CrawlConfig config = ConfigLoader.load(Optional.of(file), Overrides.none());

    assertEquals(List.of("https://file.example/"), config.seeds());
    assertEquals(Path.of("from-file"), config.dataDir());
    assertEquals(10, config.maxActions());
  }

  @Test
  void seedFlagsAndSeedsFileReplaceTheFileSeedsTogether() throws IOException {
    Path file = write("forager.yaml", "seeds: [ \"https://file.example/\" ]\n");
    Path seeds = write("seeds.txt", """
        # our sites
        https://one.example/

          https://two.example/page#part  \s
        #https://commented.example/
        """);
    Overrides flags = new Overrides(List.of(" https://flag.example/ "), Optional.of(seeds), Optional.empty(),
        Optional.empty());

    CrawlConfig config = ConfigLoader.load(Optional.of(file), flags);

    assertEquals(List.of("https://flag.example/", "https://one.example/", "https://two.example/page#part"),
        config.seeds());
  }

  @Test
  void aSeedsFileWithNoUrlStillReplacesTheFileSeeds() throws IOException {
    Path file = write("forager.yaml", "seeds: [ \"https://file.example/\" ]\n");
    Path seeds = write("seeds.txt", "# none yet\n");
    Overrides flags = new Overrides(List.of(), Optional.of(seeds), Optional.empty(), Optional.empty());

    assertEquals(List.of(), ConfigLoader.load(Optional.of(file), flags).seeds());
  }

  @Test
  void noSeedsAtAllIsAllowed() throws IOException {
    assertEquals(List.of(), load("seeds: []\n").seeds());
  }

  @Test
  void overridesCopiesItsSeeds() {
    var seeds = new java.util.ArrayList<>(List.of("https://a.example/"));
    Overrides flags = new Overrides(seeds, Optional.empty(), Optional.empty(), Optional.empty());
    seeds.add("https://b.example/");
    assertEquals(List.of("https://a.example/"), flags.seeds());
    assertThrows(UnsupportedOperationException.class, () -> flags.seeds().add("https://c.example/"));
  }

  @Test
  void theStoreUrlIsAbsentForTheEmbeddedStore() throws IOException {
    assertNull(load("store: { kind: embedded }\n").store().url());
  }

  @Test
  void theEmbeddedStoreMemoryIsASizeWith128MiBByDefault() throws IOException {
    assertEquals(128L << 20, load("store: { kind: embedded }\n").store().memoryBytes());
    assertEquals(2L << 30, load("store: { memory: 2GiB }\n").store().memoryBytes());
  }
}
