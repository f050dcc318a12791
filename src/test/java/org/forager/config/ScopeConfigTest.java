package org.forager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.forager.config.CrawlConfig.ScopeConfig;
import org.forager.config.CrawlConfig.ScopeConfig.Mode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code scope} section: mode, allow and deny entries normalized, max_origins; mistakes in one line. */
class ScopeConfigTest {

  @TempDir Path dir;

  private ScopeConfig load(String yaml) throws IOException {
    Path file = Files.writeString(dir.resolve("forager.yaml"), yaml);
    return ConfigLoader.load(Optional.of(file), Overrides.none()).scope();
  }

  @Test
  void defaultsAreTheSeedsOriginsAndAMillionOrigins() throws IOException {
    ScopeConfig scope = load("max_actions: 1\n");
    assertEquals(new ScopeConfig(Mode.ORIGINS, List.of(), List.of(), 1_000_000), scope);
    assertEquals(ScopeConfig.defaults(), scope);
    assertEquals(ScopeConfig.defaults(), CrawlConfig.defaults().scope());
    assertEquals(ScopeConfig.defaults(), load("scope: {}\n"));
  }

  @Test
  void domainsModeWithDeny() throws IOException {
    assertEquals(new ScopeConfig(Mode.DOMAINS, List.of(), List.of("ads.example.org", ".xxx"), 50),
        load("scope: { mode: domains, deny: [ ads.example.org, .xxx ], max_origins: 50 }\n"));
  }

  /** Entries are normalized as URL hosts are, a leading dot kept to mark a suffix. */
  @Test
  void domainsModeMayWanderMaxHopsLinksAway() throws IOException {
    assertEquals(new ScopeConfig(Mode.DOMAINS, List.of(), List.of(), ScopeConfig.DEFAULT_MAX_ORIGINS, 2),
        load("scope: { mode: domains, max_hops: 2 }\n"));
    assertEquals(0, load("scope: { mode: domains }\n").maxHops());
  }

  @Test
  void maxOriginsPerDomainHasADefaultAndMayBeGiven() throws IOException {
    assertEquals(ScopeConfig.DEFAULT_MAX_ORIGINS_PER_DOMAIN, load("scope: { mode: open }\n").maxOriginsPerDomain());
    assertEquals(250, load("scope: { mode: open, max_origins_per_domain: 250 }\n").maxOriginsPerDomain());
  }

  @Test
  void openModeEntriesAreNormalized() throws IOException {
    ScopeConfig scope = load("""
        scope:
          mode: open
          allow: [ Example.ORG, ".DE", "bücher.example", ".香港", "example.net.", 10.0.0.1, "[2001:DB8::1]", 0x7f.1 ]
          deny: [ " spam.de " ]
        """);
    assertEquals(Mode.OPEN, scope.mode());
    assertEquals(List.of("example.org", ".de", "xn--bcher-kva.example", ".xn--j6w193g", "example.net", "10.0.0.1",
        "[2001:db8::1]", "127.0.0.1"), scope.allow());
    assertEquals(List.of("spam.de"), scope.deny());
  }

  @Test
  void withScopeAndTheOldConstructorKeepTheRest() {
    CrawlConfig config = CrawlConfig.defaults().withScope(ScopeConfig.of(Mode.OPEN));
    assertEquals(Mode.OPEN, config.scope().mode());
    assertEquals(CrawlConfig.defaults(), config.withScope(ScopeConfig.defaults()));
  }

  /** The examples of docs/scope.md load, with the modes they show. */
  @Test
  void theScopeDocumentsExamplesLoad() throws IOException {
    String docs = Files.readString(Path.of("docs", "scope.md"));
    List<ScopeConfig> examples = new ArrayList<>();
    for (int start = docs.indexOf("```yaml\n"); start >= 0; start = docs.indexOf("```yaml\n", start + 1)) {
      examples.add(load(docs.substring(start + 8, docs.indexOf("```", start + 8))));
    }
    assertEquals(List.of(
        new ScopeConfig(Mode.DOMAINS, List.of(), List.of("ads.example.org"), ScopeConfig.DEFAULT_MAX_ORIGINS),
        new ScopeConfig(Mode.OPEN, List.of(".de"), List.of("spam-example.de"), 100_000)), examples);
  }

  static Stream<Arguments> mistakes() {
    String howTo = "write a domain alone, like example.org (it covers its subdomains), or .de for every host under .de";
    return Stream.of(
        arguments("scope: { mode: domain }",
            "config: scope.mode: \"domain\" is not a scope mode (use origins, domains or open)"),
        arguments("scope: { mode: ORIGINS }",
            "config: scope.mode: \"ORIGINS\" is not a scope mode (use origins, domains or open)"),
        arguments("scope: { mode: domains, allow: [ example.org ] }",
            "config: scope.allow: only used when scope.mode is open (in domains mode the seeds make the scope:"
                + " add a seed to widen it, or use scope.deny to narrow it)"),
        arguments("scope: { allow: [ example.org ] }",
            "config: scope.allow: only used when scope.mode is open (in origins mode the seeds make the scope:"
                + " add a seed to widen it, or use scope.deny to narrow it)"),
        arguments("scope: { deny: [ \"https://example.org/\" ] }",
            "config: scope.deny[0]: \"https://example.org/\" has a scheme: " + howTo),
        arguments("scope: { deny: [ \"*.example.org\" ] }",
            "config: scope.deny[0]: \"*.example.org\" has a wildcard: " + howTo),
        arguments("scope: { mode: open, allow: [ a.example, \"example.org/blog\" ] }",
            "config: scope.allow[1]: \"example.org/blog\" has a path: " + howTo),
        arguments("scope: { deny: [ \"example.org:8080\" ] }",
            "config: scope.deny[0]: \"example.org:8080\" has a port: an entry covers every port; " + howTo),
        arguments("scope: { deny: [ \"2001:db8::1\" ] }",
            "config: scope.deny[0]: \"2001:db8::1\" is an IPv6 address without brackets: write it like [2001:db8::1]"),
        arguments("scope: { deny: [ \".\" ] }", "config: scope.deny[0]: \".\" is not a domain: " + howTo),
        arguments("scope: { deny: [ \"..de\" ] }", "config: scope.deny[0]: \"..de\" is not a domain: " + howTo),
        arguments("scope: { deny: [ \"a b.org\" ] }", "config: scope.deny[0]: \"a b.org\" is not a domain: " + howTo),
        arguments("scope: { deny: [ \"user@example.org\" ] }",
            "config: scope.deny[0]: \"user@example.org\" is not a domain: " + howTo),
        arguments("scope: { deny: [ .10.0.0.1 ] }",
            "config: scope.deny[0]: \".10.0.0.1\" is an IP address, which has no subdomains: write it without the"
                + " leading dot"),
        arguments("scope: { deny: [ \"\" ] }", "config: scope.deny[0]: must not be empty"),
        arguments("scope: { deny: example.org }", "config: scope.deny: must be a list, found \"example.org\""),
        arguments("scope: { max_origins: 0 }", "config: scope.max_origins: must be ≥ 1"),
        arguments("scope: { max_origins_per_domain: 0 }", "config: scope.max_origins_per_domain: must be ≥ 1"),
        arguments("scope: { max_hops: 1 }",
            "config: scope.max_hops: only used when scope.mode is domains (how many links a crawl may follow outside"
                + " the seeds' domains; an origins crawl stays on the seeds' origins: use scope.mode: domains)"),
        arguments("scope: { mode: open, max_hops: 2 }",
            "config: scope.max_hops: only used when scope.mode is domains (how many links a crawl may follow outside"
                + " the seeds' domains; an open crawl has no such bound)"),
        arguments("scope: { mode: domains, max_hops: 101 }", "config: scope.max_hops: must be ≤ 100"),
        arguments("scope: { mode: domains, max_hops: -1 }", "config: scope.max_hops: must be ≥ 0"),
        arguments("scope: { maxorigins: 5 }", "config: scope: unknown key 'maxorigins' (did you mean 'max_origins'?)"),
        arguments("scope: open", "config: scope: must be a map (key: value), found \"open\""));
  }

  @ParameterizedTest
  @MethodSource("mistakes")
  void mistakesGiveOneLineNamingTheKey(String yaml, String message) {
    ConfigException e = assertThrows(ConfigException.class, () -> load(yaml + "\n"));
    assertEquals(message, e.getMessage());
  }
}
