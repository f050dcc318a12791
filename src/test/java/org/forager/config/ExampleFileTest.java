package org.forager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.forager.config.CrawlConfig.DoNotCrawlRule;
import org.forager.config.CrawlConfig.QueryParameterRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shipped example and the documentation stay true to the loader. */
class ExampleFileTest {

  // Surefire runs the tests in the project directory.
  private static final Path EXAMPLE = Path.of("examples", "forager.yaml");
  private static final Path DOCS = Path.of("docs", "configuration.md");

  @Test
  void theExampleLoadsWithTheDefaultsItSaysItHas() {
    CrawlConfig config = ConfigLoader.load(Optional.of(EXAMPLE), Overrides.none());
    CrawlConfig defaults = CrawlConfig.defaults();

    assertEquals(new CrawlConfig(
        "ExampleBot/1.0 (+https://example.org/bot.html)",
        List.of("https://example.org/", "https://example.com/news/"),
        Path.of("./crawl-data"),
        defaults.maxActions(),
        defaults.concurrency(),
        defaults.politeness(),
        defaults.robots(),
        defaults.recrawl(),
        defaults.skipExtensions(),
        defaults.limits(),
        List.of(
            DoNotCrawlRule.host("ads.example.org"),
            DoNotCrawlRule.domain("tracker.example.net"),
            DoNotCrawlRule.prefix("https://example.org/private/"),
            DoNotCrawlRule.regex(".*/calendar/\\d{4}/.*")),
        List.of(new QueryParameterRule("https://example.org/search", List.of("q", "page"))),
        defaults.network(),
        defaults.store(),
        defaults.warc(),
        defaults.sitemaps(),
        defaults.doNotCrawlFile(),
        defaults.fleet(),
        defaults.status(),
        defaults.duplicates()), config);
  }

  @Test
  void theDocumentationsExamplesLoad(@TempDir Path dir) throws IOException {
    String docs = Files.readString(DOCS);
    int blocks = 0;
    for (int start = docs.indexOf("```yaml\n"); start >= 0; start = docs.indexOf("```yaml\n", start + 1)) {
      int end = docs.indexOf("```", start + 8);
      Path file = Files.writeString(dir.resolve("example" + blocks++ + ".yaml"), docs.substring(start + 8, end));
      ConfigLoader.load(Optional.of(file), Overrides.none());
    }
    assertEquals(3, blocks);
  }

  @Test
  void theDocumentationNamesEveryKey() throws IOException {
    String docs = Files.readString(DOCS);
    Stream.of(
            ConfigReader.ROOT_KEYS.stream(),
            ConfigReader.POLITENESS_KEYS.stream().map(key -> "politeness." + key),
            ConfigReader.PER_IP_KEYS.stream().map(key -> "politeness.per_ip." + key),
            ConfigReader.LIMITS_KEYS.stream().map(key -> "limits." + key),
            ConfigReader.RECRAWL_KEYS.stream().map(key -> "recrawl." + key),
            ConfigReader.STATUS_KEYS.stream().map(key -> "status." + key),
            Stream.of("robots.cache_ttl", "store.kind", "store.url", "network.tls.verify"),
            NetworkReader.KEYS.stream().map(key -> "network." + key),
            NetworkReader.DNS_KEYS.stream().map(key -> "network.dns." + key),
            ScopeReader.KEYS.stream().map(key -> "scope." + key),
            RuleReader.DO_NOT_CRAWL_KEYS.stream(),
            RuleReader.QUERY_PARAMETER_KEYS.stream(),
            SiteReader.KEYS.stream())
        .flatMap(keys -> keys)
        .forEach(key -> assertTrue(docs.contains("`" + key + "`"), key + " is documented"));
  }
}
