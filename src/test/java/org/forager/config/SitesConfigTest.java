package org.forager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.forager.config.CrawlConfig.Politeness;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code sites} section: which rules cover a host, what each origin inherits, and the mistakes refused. */
class SitesConfigTest {

  @TempDir Path dir;

  private CrawlConfig load(String yaml) throws IOException {
    return YamlFiles.load(dir, yaml);
  }

  private static Sites.Settings settings(CrawlConfig config, String origin) {
    return config.siteSettings(Origin.ofUrl(origin + "/"));
  }

  private static Duration minDelay(CrawlConfig config, String origin) {
    return settings(config, origin).politeness().minDelay();
  }

  private static final String ISSUE_EXAMPLE = """
      politeness: { min_delay: 1s, max_delay: 60s }
      limits: { max_pages_per_origin: 500 }
      sites:
        - { domain: "example.org", min_delay: 5s, max_pages: 10000 }
        - { host: "www.example.org", min_delay: 10s }
        - { domain: "static.example.org", min_delay: 2s }
        - { domain: "a.static.example.org", response_time_factor: 0 }
      """;

  @Test
  void anExactHostRuleBeatsEveryDomainRule() throws IOException {
    CrawlConfig config = load(ISSUE_EXAMPLE);
    assertEquals(Duration.ofSeconds(10), minDelay(config, "https://www.example.org"));
    // Any scheme and port: rules name hosts, not origins.
    assertEquals(Duration.ofSeconds(10), minDelay(config, "http://www.example.org:8080"));
    // The host rule is exact: a subdomain of www is governed by the domain rule.
    assertEquals(Duration.ofSeconds(5), minDelay(config, "https://x.www.example.org"));
  }

  /** unit: domain makes a domain's hosts one politeness unit, with the rule's min_delay as it inherits it. */
  @Test
  void aDomainUnitCoversItsHostsWithTheRulesDelay() throws IOException {
    CrawlConfig config = load("""
        politeness: { min_delay: 1s, max_delay: 60s }
        sites:
          - { domain: "example.org", unit: domain, min_delay: 3s }
          - { host: "www.example.org", min_delay: 10s }
          - { domain: "other.org", unit: origin, min_delay: 2s }
        """);
    Sites.DomainUnit unit = new Sites.DomainUnit("example.org", Duration.ofSeconds(3));
    assertEquals(java.util.Optional.of(unit), settings(config, "https://a.example.org").domainUnit());
    assertEquals(java.util.Optional.of(unit), settings(config, "http://www.example.org:8080").domainUnit(),
        "a host rule below it keeps its own delay and the domain's unit");
    assertEquals(Duration.ofSeconds(10), minDelay(config, "https://www.example.org"));
    assertEquals(java.util.Optional.empty(), settings(config, "https://other.org").domainUnit());
    assertEquals(java.util.Optional.empty(), settings(config, "https://example.com").domainUnit());

    // A unit rule inside a wider one does not split it: the widest unit holds.
    CrawlConfig nested = load("""
        sites:
          - { domain: "example.org", unit: domain, min_delay: 3s }
          - { domain: "sub.example.org", unit: domain, min_delay: 5s }
        """);
    assertEquals(java.util.Optional.of(unit), settings(nested, "https://a.sub.example.org").domainUnit());
    assertEquals(Duration.ofSeconds(5), minDelay(nested, "https://a.sub.example.org"), "each origin keeps its own delay");
  }

  @Test
  void maxUrlsCascadesLikeTheOtherSettingsOverTheGlobalLimit() throws IOException {
    CrawlConfig config = load("""
        limits: { max_urls_per_origin: 500 }
        sites:
          - { domain: "example.org", max_urls: 100000000 }
          - { host: "www.example.org", min_delay: 10s }
          - { domain: "small.example.org", max_urls: 10 }
        """);
    assertEquals(100_000_000, config.maxUrlsFor("www.example.org"), "a host rule not setting it inherits");
    assertEquals(100_000_000, config.maxUrlsFor("example.org"));
    assertEquals(10, config.maxUrlsFor("a.small.example.org"));
    assertEquals(500, config.maxUrlsFor("example.com"));
  }

  @Test
  void theLongestCoveringDomainWins() throws IOException {
    CrawlConfig config = load(ISSUE_EXAMPLE);
    assertEquals(Duration.ofSeconds(5), minDelay(config, "https://example.org"));
    assertEquals(Duration.ofSeconds(5), minDelay(config, "https://blog.example.org"));
    assertEquals(Duration.ofSeconds(2), minDelay(config, "https://static.example.org"));
    assertEquals(Duration.ofSeconds(2), minDelay(config, "https://img.static.example.org"));
    // A domain is matched at a label boundary only.
    assertEquals(Duration.ofSeconds(1), minDelay(config, "https://myexample.org"));
    assertEquals(Duration.ofSeconds(1), minDelay(config, "https://example.org.evil.test"));
  }

  /** Each value comes from the most specific rule that sets it, else from the global key. */
  @Test
  void unsetValuesAreInheritedFromLessSpecificRulesThenTheGlobalKeys() throws IOException {
    CrawlConfig config = load(ISSUE_EXAMPLE);
    Sites.Settings www = settings(config, "https://www.example.org");
    assertEquals(10_000, www.maxPagesPerOrigin(), "from the example.org rule");
    assertEquals(new Politeness(Duration.ofSeconds(10), Duration.ofSeconds(60), 10, Duration.ofHours(1)),
        www.politeness(), "the rest from politeness.*");

    Sites.Settings deep = settings(config, "https://a.static.example.org");
    assertEquals(new Politeness(Duration.ofSeconds(2), Duration.ofSeconds(60), 0, Duration.ofHours(1)),
        deep.politeness());
    assertEquals(10_000, deep.maxPagesPerOrigin());

    Sites.Settings elsewhere = settings(config, "https://example.com");
    assertEquals(config.politeness(), elsewhere.politeness());
    assertEquals(500, elsewhere.maxPagesPerOrigin());
  }

  @Test
  void everyOverridableKeyIsRead() throws IOException {
    CrawlConfig config = load("""
        sites:
          - host: "slow.example.test"
            min_delay: 3s
            max_delay: 4s
            response_time_factor: 2.5
            max_retry_after: 5m
            max_crawl_delay: 10s
            max_pages: 7
        """);
    assertEquals(
        new Sites.Settings(new Politeness(Duration.ofSeconds(3), Duration.ofSeconds(4), 2.5, Duration.ofMinutes(5),
            Duration.ofSeconds(10)), 7),
        settings(config, "http://slow.example.test"));
    assertEquals(List.of(Sites.Rule.host("slow.example.test").withMinDelay(Duration.ofSeconds(3))
            .withMaxDelay(Duration.ofSeconds(4)).withResponseTimeFactor(2.5).withMaxRetryAfter(Duration.ofMinutes(5))
            .withMaxCrawlDelay(Duration.ofSeconds(10)).withMaxPages(7)),
        config.sites().rules());
  }

  /** The operator knows their staging server: a rule may go below politeness.min_delay, to zero. */
  @Test
  void aRuleMayLowerTheDelayBelowTheGlobalOne() throws IOException {
    CrawlConfig config = load("sites: [ { host: \"staging.example.org\", min_delay: 0 } ]");
    assertEquals(Duration.ZERO, minDelay(config, "http://staging.example.org"));
    assertEquals(Duration.ofSeconds(1), minDelay(config, "http://example.org"));
  }

  @Test
  void namesAreMatchedAsNormalizedUrlsSpellThem() throws IOException {
    CrawlConfig config = load("""
        sites:
          - { domain: "Bücher.Example.", min_delay: 7s }
          - { host: "10.0.0.5", min_delay: 8s }
          - { domain: "0.0.5", min_delay: 9s }
          - { host: "[::1]", min_delay: 6s }
        """);
    assertEquals(Duration.ofSeconds(7), minDelay(config, "https://www.xn--bcher-kva.example"));
    assertEquals(Duration.ofSeconds(8), minDelay(config, "http://10.0.0.5:8080"));
    // An IP address has no parent domains.
    assertEquals(Duration.ofSeconds(1), minDelay(config, "http://10.0.0.5.0.0.5"), "a name, not an address");
    assertEquals(Duration.ofSeconds(1), minDelay(config, "http://127.0.0.5"));
    assertEquals(Duration.ofSeconds(6), minDelay(config, "http://[::1]:8080"));
  }

  @Test
  void noSitesMeansTheGlobalValuesForEveryOrigin() throws IOException {
    CrawlConfig config = load("max_actions: 1\n");
    assertEquals(Sites.NONE, config.sites());
    assertEquals(new Sites.Settings(config.politeness(), config.limits().maxPagesPerOrigin()),
        settings(config, "https://example.org"));
  }

  /** Hundreds of rules and a million origins: one map lookup per label, no scan of the rules. */
  @Test
  void aMillionOriginsAgainstHundredsOfRulesTakeLittleTime() {
    List<Sites.Rule> rules = new java.util.ArrayList<>();
    for (int i = 0; i < 500; i++) rules.add(Sites.Rule.domain("site" + i + ".example").withMaxPages(i + 1));
    for (int i = 0; i < 500; i++) rules.add(Sites.Rule.host("www.site" + i + ".example").withMaxPages(1000 + i));
    CrawlConfig config = CrawlConfig.defaults().withSites(Sites.of(rules));
    long sum = 0;
    long start = System.nanoTime();
    for (int i = 0; i < 1_000_000; i++) {
      sum += config.siteSettings(new Origin("https", "a" + i + ".site" + (i % 1000) + ".example", -1))
          .maxPagesPerOrigin();
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    // Half the hosts fall under a rule (site0..site499), the others get the default 100,000.
    assertEquals(500_000L * 100_000 + 1000L * (500 * 501 / 2), sum);
    // Generous: measured about 0.5 s; a scan of the rules per origin takes many times that.
    assertTrue(millis < 10_000, millis + " ms");
  }

  @Test
  void theLibraryRefusesTwoRulesForOneName() {
    assertThrows(IllegalArgumentException.class, () -> Sites.of(List.of(
        Sites.Rule.domain("example.org").withMaxPages(1), Sites.Rule.domain("example.org").withMaxPages(2))));
  }

  static Stream<Arguments> mistakes() {
    return Stream.of(
        arguments("sites: { domain: example.org }", "config: sites: must be a list, found a map"),
        arguments("sites: [ { min_delay: 5s } ]", "config: sites[0]: needs exactly one of host, domain"),
        arguments("sites: [ { host: a.example, domain: example, min_delay: 5s } ]",
            "config: sites[0]: needs exactly one of host, domain"),
        arguments("sites: [ { domain: example.org } ]", "config: sites[0]: sets nothing (give at least one of"
            + " min_delay, max_delay, response_time_factor, max_retry_after, max_crawl_delay, max_pages, max_urls, unit)"),
        arguments("sites: [ { host: www.example.org, unit: domain } ]", "config: sites[0].unit: domain needs a domain"
            + " rule: write domain: \"www.example.org\" to crawl it and its subdomains as one unit"),
        arguments("sites: [ { domain: example.org, unit: site } ]", "config: sites[0].unit: \"site\" is not a politeness"
            + " unit (use origin, the default: each origin its own, or domain: every host of the domain as one)"),
        arguments("sites: [ { domain: example.org, min_dealy: 5s } ]",
            "config: sites[0]: unknown key 'min_dealy' (did you mean 'min_delay'?)"),
        arguments("sites: [ { domain: example.org, max_pages_per_origin: 5 } ]",
            "config: sites[0]: unknown key 'max_pages_per_origin' (in a sites rule it is 'max_pages')"),
        arguments("sites: [ { domain: example.org, max_urls_per_origin: 5 } ]",
            "config: sites[0]: unknown key 'max_urls_per_origin' (in a sites rule it is 'max_urls')"),
        arguments("sites: [ { domain: example.org, max_urls: 0 } ]", "config: sites[0].max_urls: must be ≥ 1"),
        arguments("sites: [ { domain: \"*.example.org\", min_delay: 5s } ]", "config: sites[0].domain: \"*.example.org\":"
            + " no wildcards; write domain: \"example.org\" (a domain covers all its subdomains)"),
        arguments("sites: [ { host: \"https://example.org/\", min_delay: 5s } ]",
            "config: sites[0].host: \"https://example.org/\" is not a host name (write it without scheme, port or"
                + " path, like \"ads.example.org\")"),
        arguments("sites: [ { domain: example.org, min_delay: soon } ]",
            "config: sites[0].min_delay: \"soon\" is not a duration (use a number and ms, s, m, h, d or w)"),
        arguments("sites: [ { domain: example.org, min_delay: -1s } ]",
            "config: sites[0].min_delay: \"-1s\" is negative; a duration must be ≥ 0"),
        arguments("sites: [ { domain: example.org, max_pages: 0 } ]", "config: sites[0].max_pages: must be ≥ 1"),
        arguments("sites: [ { domain: example.org, response_time_factor: -1 } ]",
            "config: sites[0].response_time_factor: must be ≥ 0"),
        arguments("sites: [ { domain: example.org, min_delay: 1s }, { domain: EXAMPLE.org., max_pages: 3 } ]",
            "config: sites[1].domain: names the domain example.org a second time (first in sites[0])"),
        // min_delay ≤ max_delay once the rule's values are laid over what it inherits.
        arguments("politeness: { max_delay: 30s }\nsites: [ { domain: example.org, min_delay: 1m } ]",
            "config: sites[0].min_delay: 1m must be ≤ max_delay (30s, politeness.max_delay)"),
        arguments("sites: [ { domain: example.org, max_delay: 500ms } ]",
            "config: sites[0].max_delay: 500ms must be ≥ min_delay (1s, politeness.min_delay)"),
        arguments("sites:\n  - { domain: example.org, max_delay: 5s }\n  - { host: www.example.org, min_delay: 10s }",
            "config: sites[1].min_delay: 10s must be ≤ max_delay (5s, from sites[0])"),
        arguments("sites:\n  - { domain: example.org, min_delay: 10s, max_delay: 20s }\n"
                + "  - { domain: www.example.org, max_delay: 5s }",
            "config: sites[1].max_delay: 5s must be ≥ min_delay (10s, from sites[0])"));
  }

  @ParameterizedTest
  @MethodSource("mistakes")
  void mistakesStopTheLoadWithOneLineNamingTheKey(String yaml, String message) {
    ConfigException e = assertThrows(ConfigException.class, () -> load(yaml));
    assertEquals(message, e.getMessage());
  }

  /** A host and a domain of one name are two rules: the host rule governs that host, the domain its subdomains. */
  @Test
  void aHostAndADomainOfTheSameNameAreDifferentRules() throws IOException {
    CrawlConfig config = load("""
        sites:
          - { host: example.org, min_delay: 10s }
          - { domain: example.org, min_delay: 3s, max_pages: 9 }
        """);
    assertEquals(new Sites.Settings(new Politeness(Duration.ofSeconds(10), Duration.ofSeconds(120), 10,
        Duration.ofHours(1)), 9), settings(config, "https://example.org"));
    assertEquals(Duration.ofSeconds(3), minDelay(config, "https://www.example.org"));
  }
}
