package org.forager.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.forager.config.CrawlConfig.ScopeConfig;
import org.forager.config.CrawlConfig.ScopeConfig.Mode;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;
import org.junit.jupiter.api.Test;

/** The scope decision of each mode, with allow, deny and max_origins. */
class ScopeTest {

  private static final List<Origin> SEEDS = List.of(
      Origin.ofUrl("https://www.example.co.uk/"), Origin.ofUrl("http://foo.blogspot.com/"),
      Origin.ofUrl("http://127.0.0.1:8080/"));

  private static Scope scope(Mode mode, List<String> allow, List<String> deny) {
    return Scope.of(new ScopeConfig(mode, allow, deny, ScopeConfig.DEFAULT_MAX_ORIGINS), SEEDS);
  }

  private static Scope scope(Mode mode) {
    return scope(mode, List.of(), List.of());
  }

  /** {@code contains} and {@code refuses} agree, on the normalized form of {@code url}. */
  private static Optional<String> decide(Scope scope, String url) {
    String normalized = UrlNormalizer.normalize(url).orElseThrow();
    Optional<String> reason = scope.refuses(normalized);
    assertEquals(reason.isEmpty(), scope.contains(normalized), "contains agrees with refuses on " + normalized);
    return reason;
  }

  private static void assertIn(Scope scope, String url) {
    assertEquals(Optional.empty(), decide(scope, url), url);
  }

  private static void assertOut(Scope scope, String url, String reason) {
    assertEquals(Optional.of(reason), decide(scope, url), url);
  }

  @Test
  void originsModeKeepsToTheSeedsOrigins() {
    Scope scope = scope(Mode.ORIGINS);
    assertEquals(Mode.ORIGINS, scope.mode());
    assertIn(scope, "https://www.example.co.uk/");
    assertIn(scope, "https://WWW.Example.CO.UK:443/a/b?q#f");
    assertIn(scope, "http://127.0.0.1:8080/x");
    assertOut(scope, "http://www.example.co.uk/",
        "out of scope: origin http://www.example.co.uk is not a seed origin (scope.mode: origins)");
    assertOut(scope, "https://www.example.co.uk:8443/",
        "out of scope: origin https://www.example.co.uk:8443 is not a seed origin (scope.mode: origins)");
    assertOut(scope, "https://example.co.uk/",
        "out of scope: origin https://example.co.uk is not a seed origin (scope.mode: origins)");
    assertOut(scope, "https://www.example.co.uk.evil.org/",
        "out of scope: origin https://www.example.co.uk.evil.org is not a seed origin (scope.mode: origins)");
    assertOut(scope, "http://127.0.0.1/",
        "out of scope: origin http://127.0.0.1 is not a seed origin (scope.mode: origins)");
  }

  /** More than a few seed origins take the set lookup instead of the prefix loop: same answers. */
  @Test
  void originsModeWithManySeeds() {
    List<Origin> seeds = IntStream.range(0, 100).mapToObj(i -> Origin.ofUrl("https://site" + i + ".example/")).toList();
    Scope scope = Scope.of(ScopeConfig.defaults(), seeds);
    assertIn(scope, "https://site7.example/page");
    assertIn(scope, "https://site99.example");
    assertOut(scope, "https://site100.example/",
        "out of scope: origin https://site100.example is not a seed origin (scope.mode: origins)");
    assertOut(scope, "https://site7.example:444/",
        "out of scope: origin https://site7.example:444 is not a seed origin (scope.mode: origins)");
    assertOut(scope, "https://www.site7.example/",
        "out of scope: origin https://www.site7.example is not a seed origin (scope.mode: origins)");
  }

  @Test
  void domainsModeTakesEverySubdomainSchemeAndPortOfTheSeedsDomains() {
    Scope scope = scope(Mode.DOMAINS);
    assertIn(scope, "http://example.co.uk/");
    assertIn(scope, "https://shop.example.co.uk:8443/basket");
    assertIn(scope, "http://a.b.c.example.co.uk/");
    assertIn(scope, "http://www.example.co.uk./trailing-dot");
    assertIn(scope, "https://foo.blogspot.com/");
    assertIn(scope, "https://www.foo.blogspot.com/");
    assertIn(scope, "http://127.0.0.1/");
    assertOut(scope, "https://other.co.uk/", "out of scope: domain other.co.uk is not a seed domain (scope.mode: domains)");
    assertOut(scope, "https://co.uk/", "out of scope: domain co.uk is not a seed domain (scope.mode: domains)");
    // Each blog on a private suffix is its own site.
    assertOut(scope, "https://bar.blogspot.com/",
        "out of scope: domain bar.blogspot.com is not a seed domain (scope.mode: domains)");
    assertOut(scope, "https://blogspot.com/",
        "out of scope: domain blogspot.com is not a seed domain (scope.mode: domains)");
    // An address is not a subdomain of anything, nor another address of the same network.
    assertOut(scope, "http://127.0.0.2:8080/", "out of scope: domain 127.0.0.2 is not a seed domain (scope.mode: domains)");
    assertOut(scope, "http://localhost:8080/", "out of scope: domain localhost is not a seed domain (scope.mode: domains)");
  }

  @Test
  void domainsModeWithIdnIpv6AndLocalhostSeeds() {
    List<Origin> seeds = List.of(
        Origin.ofUrl(UrlNormalizer.normalize("http://bücher.example.香港/").orElseThrow()),
        Origin.ofUrl("http://[2001:db8::1]/"), Origin.ofUrl("http://localhost:8080/"));
    Scope scope = Scope.of(ScopeConfig.of(Mode.DOMAINS), seeds);
    assertIn(scope, "https://www.bücher.example.香港/");
    assertIn(scope, "https://www.example.香港/");
    assertIn(scope, "https://[2001:db8::1]:8443/");
    assertIn(scope, "http://localhost:9090/");
    assertOut(scope, "https://other.香港/",
        "out of scope: domain other.xn--j6w193g is not a seed domain (scope.mode: domains)");
    assertOut(scope, "https://[2001:db8::2]/",
        "out of scope: domain [2001:db8::2] is not a seed domain (scope.mode: domains)");
    assertOut(scope, "http://foo.localhost/",
        "out of scope: domain foo.localhost is not a seed domain (scope.mode: domains)");
  }

  @Test
  void openModeTakesAnyHttpUrl() {
    Scope scope = scope(Mode.OPEN);
    assertIn(scope, "https://anything.example.net/");
    assertIn(scope, "http://[::1]:1/");
    assertIn(scope, "http://localhost/");
    assertEquals(Optional.of("out of scope: not an http(s) URL with a host"), scope.refuses("ftp://example.org/"));
    assertFalse(scope.contains("ftp://example.org/"));
    assertFalse(scope.contains("not a url"));
  }

  @Test
  void openModeAllowRestrictsToItsDomainsAndSuffixes() {
    Scope scope = scope(Mode.OPEN, List.of("example.org", ".de", "10.0.0.1"), List.of());
    assertIn(scope, "https://example.org/");
    assertIn(scope, "https://a.b.example.org/");
    assertIn(scope, "https://example.org./");
    assertIn(scope, "https://www.bücher.de/");
    assertIn(scope, "https://bund.de/");
    assertIn(scope, "http://10.0.0.1:8080/");
    String reason = "is not under scope.allow [example.org, .de, 10.0.0.1] (scope.mode: open)";
    assertOut(scope, "https://myexample.org/", "out of scope: host myexample.org " + reason);
    assertOut(scope, "https://example.org.uk/", "out of scope: host example.org.uk " + reason);
    assertOut(scope, "https://de/", "out of scope: host de " + reason);
    assertOut(scope, "https://example.dk/", "out of scope: host example.dk " + reason);
    assertOut(scope, "http://110.0.0.1/", "out of scope: host 110.0.0.1 " + reason);
    // Seeds are no exception: the allow list is the scope.
    assertOut(scope, "https://www.example.co.uk/", "out of scope: host www.example.co.uk " + reason);
  }

  @Test
  void denyRefusesInEveryModeSeedsIncluded() {
    List<String> deny = List.of("foo.blogspot.com", ".uk", "127.0.0.1", "xn--bcher-kva.de");
    for (Mode mode : Mode.values()) {
      Scope scope = scope(mode, List.of(), deny);
      assertOut(scope, "https://www.example.co.uk/", "out of scope: scope.deny .uk");
      assertOut(scope, "http://foo.blogspot.com/", "out of scope: scope.deny foo.blogspot.com");
      assertOut(scope, "http://www.foo.blogspot.com/", "out of scope: scope.deny foo.blogspot.com");
      assertOut(scope, "http://127.0.0.1:8080/", "out of scope: scope.deny 127.0.0.1");
      assertOut(scope, "http://bücher.de/", "out of scope: scope.deny xn--bcher-kva.de");
      assertOut(scope, "http://www.example.co.uk./", "out of scope: scope.deny .uk");
    }
    Scope open = scope(Mode.OPEN, List.of(), deny);
    assertIn(open, "http://bar.blogspot.com/");
    assertIn(open, "http://127.0.0.10/");
    assertIn(open, "http://uk/");
    assertIn(open, "http://bücher.com/");
  }

  @Test
  void denyWinsOverAllow() {
    Scope scope = scope(Mode.OPEN, List.of(".de"), List.of("spam.de"));
    assertIn(scope, "https://www.example.de/");
    assertOut(scope, "https://www.spam.de/", "out of scope: scope.deny spam.de");
  }

  /**
   * What a crawl's page relies on to judge its links to its own origin at once (PageStep): whether a
   * URL is in scope depends on its origin alone, in every mode, with allow and deny.
   */
  @Test
  void theAnswerDependsOnTheOriginAlone() {
    List<String> origins = List.of("https://www.example.co.uk", "http://www.example.co.uk",
        "https://www.example.co.uk:8443",
        "http://foo.blogspot.com", "http://bar.blogspot.com", "http://127.0.0.1:8080", "http://127.0.0.1:8081",
        "https://shop.example.co.uk", "http://other.org", "http://[::1]:8080");
    List<String> paths = List.of("", "/", "/a/b?c=d", "?q", "#top", "/x.example.org/", "/@evil.com/");
    for (Scope scope : List.of(scope(Mode.ORIGINS), scope(Mode.DOMAINS), scope(Mode.OPEN),
        scope(Mode.OPEN, List.of("example.co.uk"), List.of("shop.example.co.uk")),
        scope(Mode.DOMAINS, List.of(), List.of("shop.example.co.uk")))) {
      for (String origin : origins) {
        boolean first = scope.contains(UrlNormalizer.normalize(origin + "/").orElseThrow());
        for (String path : paths) {
          String url = UrlNormalizer.normalize(origin + path).orElseThrow();
          assertEquals(first, scope.contains(url), scope + ": " + url);
        }
      }
    }
  }

  @Test
  void mayAddOriginUpToMaxOrigins() {
    Scope scope = Scope.of(new ScopeConfig(Mode.OPEN, List.of(), List.of(), 3), SEEDS);
    assertTrue(scope.mayAddOrigin(0));
    assertTrue(scope.mayAddOrigin(2));
    assertFalse(scope.mayAddOrigin(3));
    assertFalse(scope.mayAddOrigin(Long.MAX_VALUE));
    assertTrue(Scope.of(ScopeConfig.defaults(), SEEDS).mayAddOrigin(999_999));
    assertFalse(Scope.of(ScopeConfig.defaults(), SEEDS).mayAddOrigin(1_000_000));
  }

  @Test
  void noSeedsNoScopeExceptInOpenMode() {
    assertFalse(Scope.of(ScopeConfig.defaults(), List.of()).contains("https://example.org/"));
    assertFalse(Scope.of(ScopeConfig.of(Mode.DOMAINS), List.of()).contains("https://example.org/"));
    assertTrue(Scope.of(ScopeConfig.of(Mode.OPEN), List.of()).contains("https://example.org/"));
  }

  @Test
  void theConfigurationRecordRefusesWhatTheFileReaderRefuses() {
    assertThrows(IllegalArgumentException.class,
        () -> new ScopeConfig(Mode.DOMAINS, List.of("example.org"), List.of(), 1));
    assertThrows(IllegalArgumentException.class, () -> new ScopeConfig(Mode.OPEN, List.of(), List.of(), 0));
  }

  @Test
  void describesItself() {
    assertEquals("scope domains (3 seed domains, deny [.de], max_origins 1000000)",
        scope(Mode.DOMAINS, List.of(), List.of(".de")).toString());
  }
}
