package org.forager.scope;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.forager.config.CrawlConfig;
import org.forager.config.CrawlConfig.ScopeConfig;
import org.forager.config.CrawlConfig.ScopeConfig.Mode;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;
import org.junit.jupiter.api.Test;

/** Defects found by the review of issue 13's scope (wip-review); each fails on the reviewed code. */
class ScopeReviewDefectsTest {

  private static final List<Origin> SEEDS = List.of(Origin.ofUrl("http://hub.test/"));

  private static String norm(String url) {
    return UrlNormalizer.normalize(url).orElseThrow();
  }

  /**
   * deny 127.0.0.5 is bypassed by the IPv4-mapped spelling {@code [::ffff:127.0.0.5]}: the crawl
   * connects to 127.0.0.5 (seen from a server bound there). The network policy judges mapped forms by
   * their IPv4 address; the scope does not.
   */
  @Test
  void denyOfAnIpv4AddressAlsoCoversItsIpv4MappedIpv6Spelling() {
    Scope scope = Scope.of(new ScopeConfig(Mode.OPEN, List.of(), List.of("127.0.0.5"), 10), SEEDS);
    assertTrue(scope.refuses(norm("http://127.0.0.5/")).isPresent());
    assertTrue(scope.refuses(norm("http://[::ffff:127.0.0.5]/")).isPresent(), "mapped spelling must be denied");
  }

  /**
   * The library's ScopeConfig takes deny entries as given: "Example.ORG", "bücher.de", "*.evil.com",
   * a URL or a trailing dot are accepted and then never match, so the deny is silently void. The YAML
   * reader normalizes and refuses such entries; {@code withScope} should do the same (or refuse them).
   */
  @Test
  void aLibraryScopeConfigWithUnnormalizedDenyEntriesIsNormalizedOrRefused() {
    List<String> entries = List.of("Example.ORG", "bücher.de", "127.0.0.5.");
    List<String> urls = List.of("http://example.org/", "http://www.bücher.de/", "http://127.0.0.5/");
    ScopeConfig config;
    try {
      config = CrawlConfig.defaults().withScope(new ScopeConfig(Mode.OPEN, List.of(), entries, 10)).scope();
    } catch (IllegalArgumentException refused) {
      return; // refusing them is fine too
    }
    Scope scope = Scope.of(config, SEEDS);
    for (String url : urls) {
      assertTrue(scope.refuses(norm(url)).isPresent(), url + " is covered by deny " + entries);
    }
  }
}
