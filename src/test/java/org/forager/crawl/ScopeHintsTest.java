package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.forager.config.CrawlConfig.ScopeConfig;
import org.forager.config.CrawlConfig.ScopeConfig.Mode;
import org.forager.scope.Scope;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;

class ScopeHintsTest {

  private static Scope scope(Mode mode) {
    return Scope.of(new ScopeConfig(mode, List.of(), List.of(), ScopeConfig.DEFAULT_MAX_ORIGINS, 0,
        ScopeConfig.DEFAULT_MAX_ORIGINS_PER_DOMAIN), List.of(Origin.ofUrl("http://example.org/")));
  }

  @Test
  void theSameDomainNamesTheDomainsModeAnotherTheSeedToAddAndWhatAnOpenScopeTakesIn() {
    assertEquals("; scope.mode: domains would include it",
        ScopeHints.toInclude("http://example.org/", "https://www.example.org/", scope(Mode.ORIGINS)));
    // A crawl of a list of sites told only "use scope.mode: open" would crawl the web (a new user's review).
    assertEquals("; add https://elsewhere.example/ as a seed (scope.mode: open would include it, and every other"
        + " site the crawl links to)",
        ScopeHints.toInclude("http://example.org/", "https://elsewhere.example/a", scope(Mode.DOMAINS)));
    assertEquals("", ScopeHints.toInclude("http://example.org/", "https://elsewhere.example/", scope(Mode.OPEN)));
  }
}
