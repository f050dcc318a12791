package org.forager.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.forager.config.CrawlConfig;
import org.forager.config.CrawlConfig.DoNotCrawlRule;
import org.forager.config.CrawlConfig.QueryParameterRule;
import org.forager.fetch.Outcome;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;

class GatekeeperTest {

  private static final Origin EXAMPLE = Origin.ofUrl("https://example.org/");

  private static Gatekeeper gatekeeper(List<DoNotCrawlRule> doNotCrawl, List<QueryParameterRule> queries) {
    CrawlConfig d = CrawlConfig.defaults();
    CrawlConfig config = new CrawlConfig(d.userAgent(), d.seeds(), d.dataDir(), d.maxActions(), d.concurrency(),
        d.politeness(), d.robots(), d.recrawl(), d.skipExtensions(), d.limits(), doNotCrawl, queries, d.network(),
        d.store(), d.warc(), d.sitemaps(), d.doNotCrawlFile(), d.fleet(), d.status(), d.duplicates())
        .withLimits(new CrawlConfig.Limits(d.limits().maxPageBytes(), d.limits().fetchTimeout(), 60, 3,
            d.limits().maxRetries(), d.limits().maxDecompressionRatio(), 1000, 2));
    return new Gatekeeper(config, Set.of(EXAMPLE, Origin.ofUrl("http://ads.example.org/")));
  }

  private static String reason(Verdict v) {
    return ((Verdict.Rejected) v).reason();
  }

  @Test
  void scopeIsTheSeedsOrigins() {
    Gatekeeper g = gatekeeper(List.of(), List.of());
    assertTrue(g.isCandidate("https://example.org/a", 1));
    assertFalse(g.isCandidate("http://example.org/a", 1), "another scheme is another origin");
    assertFalse(g.isCandidate("https://example.org:8443/a", 1), "another port is another origin");
    assertFalse(g.isCandidate("https://example.org.evil.com/a", 1));
    assertInstanceOf(Verdict.Rejected.class, g.check("https://other.org/", 0));
  }

  @Test
  void doNotCrawlMatchesHostExactlyPrefixAsStringAndRegexWholeUrl() {
    Gatekeeper g = gatekeeper(List.of(
        DoNotCrawlRule.host("ADS.example.org"),
        DoNotCrawlRule.prefix("https://example.org/private/"),
        DoNotCrawlRule.regex(".*/calendar/\\d{4}/.*")), List.of());
    assertEquals("do_not_crawl host ads.example.org", reason(g.check("http://ads.example.org/x", 0)));
    assertEquals("do_not_crawl prefix https://example.org/private/", reason(g.check("https://example.org/private/x", 0)));
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/privatex", 0));
    assertInstanceOf(Verdict.Rejected.class, g.check("https://example.org/calendar/2024/05", 0));
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/calendar/24/05", 0));
  }

  /**
   * java.util.regex recurses once per repetition of a group: a rule with nested groups overflowed the
   * stack on a redirect's or a sitemap's URL some thousands of characters long, checked against the
   * rules only to say why it was not followed. No URL longer than max_url_length is ever a candidate:
   * it is refused as too long before any regex runs over it, for a page and for any request.
   */
  @Test
  void aUrlLongerThanMaxUrlLengthIsRefusedAsSuchBeforeAnyRegexRunsOverIt() {
    Gatekeeper g = gatekeeper(List.of(
        DoNotCrawlRule.prefix("https://example.org/excluded/"),
        DoNotCrawlRule.regex(".*/private/(((((((a|b)|c)|d)|e)|f)|g)|h)+")), List.of());
    String deep = "https://example.org/private/" + "ab".repeat(50_000); // overflows the stack when matched
    assertEquals("longer than limits.max_url_length 60", reason(g.check(deep, 0)));
    assertEquals("longer than limits.max_url_length 60", reason(g.checkRequest(deep)), "a sitemap, a robots.txt redirect");
    assertFalse(g.isCandidate(deep, 1));
    assertEquals("do_not_crawl prefix https://example.org/excluded/",
        reason(g.checkRequest("https://example.org/excluded/" + "a".repeat(100))), "the rules that cannot overflow first");
    assertEquals("do_not_crawl regex .*/private/(((((((a|b)|c)|d)|e)|f)|g)|h)+",
        reason(g.check("https://example.org/private/abab", 0)), "within the limit, the regex says it");
  }

  /** A domain rule covers the domain and its subdomains; rules are matched in normalized form. */
  @Test
  void doNotCrawlDomainCoversSubdomainsAndNotLookalikes() {
    CrawlConfig config = CrawlConfig.defaults().toBuilder()
        .doNotCrawl(List.of(DoNotCrawlRule.domain("example.org"))).build();
    Gatekeeper g = new Gatekeeper(config,
        Set.of(EXAMPLE, Origin.ofUrl("https://www.example.org/"), Origin.ofUrl("https://myexample.org/")));
    assertEquals("do_not_crawl domain example.org", reason(g.check("https://example.org/", 0)));
    assertEquals("do_not_crawl domain example.org", reason(g.checkRequest("https://www.example.org/robots.txt")));
    assertEquals(Verdict.ALLOWED, g.checkRequest("https://myexample.org/"));
  }

  /** robots.txt and sitemaps are requests but not pages: no depth, extension or trap limit applies. */
  @Test
  void checkRequestRunsTheScopeAndExclusionGatesOnly() {
    Gatekeeper g = gatekeeper(List.of(DoNotCrawlRule.prefix("https://example.org/private/")), List.of());
    assertEquals(Verdict.ALLOWED, g.checkRequest("https://example.org/sitemap.xml.gz"));
    assertInstanceOf(Verdict.Rejected.class, g.check("https://example.org/sitemap.xml.gz", 1), ".gz is skipped as a page");
    assertInstanceOf(Verdict.Rejected.class, g.checkRequest("https://example.org/private/robots.txt"));
    assertInstanceOf(Verdict.Rejected.class, g.checkRequest("https://other.org/robots.txt"), "out of scope");
    assertInstanceOf(Verdict.Rejected.class, g.checkRequest("https://example.org/robots.txt?token=1"), "query rules");
  }

  @Test
  void aQueryNeedsARuleAllowingAllItsParameterNames() {
    Gatekeeper g = gatekeeper(List.of(), List.of(new QueryParameterRule("https://example.org/search", List.of("q", "page"))));
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/search?q=a&page=2", 0));
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/search/advanced?q=a", 0));
    assertInstanceOf(Verdict.Rejected.class, g.check("https://example.org/search?q=a&sid=1", 0));
    assertInstanceOf(Verdict.Rejected.class, g.check("https://example.org/search?Q=a", 0), "names are case-sensitive");
    assertInstanceOf(Verdict.Rejected.class, g.check("https://example.org/other?q=a", 0));
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/other", 0), "no query, no rule needed");
  }

  @Test
  void aStarAllowsEveryParameterUnderItsPrefixAndASchemeAloneIsEveryUrlOfIt() {
    Gatekeeper g = gatekeeper(List.of(), List.of(new QueryParameterRule("https://", List.of("*"))));
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/search?q=a&sid=1", 0));
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/x?anything=1&more", 0));
    assertInstanceOf(Verdict.Rejected.class, g.check("http://example.org/search?q=a", 0), "another scheme");
  }

  @Test
  void pathsWithASegmentRepeatedTooOftenAreTraps() {
    Gatekeeper g = gatekeeper(List.of(), List.of()); // max_repeated_path_segments: 2
    assertTrue(g.isCandidate("https://example.org/a/b/a/c", 1));
    assertFalse(g.isCandidate("https://example.org/a/b/a/c/a", 1));
    assertTrue(g.isCandidate("https://example.org/x?a/a/a/a", 1), "the query is not the path");
    assertTrue(reason(g.check("https://example.org/a/a/a", 0)).contains("max_repeated_path_segments"));
  }

  @Test
  void extensionsLengthAndDepth() {
    Gatekeeper g = gatekeeper(List.of(), List.of());
    assertEquals("skip_extensions", reason(g.check("https://example.org/a/photo.JPEG", 0)));
    assertEquals("skip_extensions", reason(g.check("https://example.org/a.pdf", 0)));
    assertEquals("skip_extensions", reason(g.check("https://example.org/b.PdF", 0)));
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/a.pdfx", 0), "a longer extension is another one");
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/a.pd", 0), "so is a shorter one");
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/a.averyveryverylongextension", 0));
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/a.pdf/b", 0), "the last segment's extension only");
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/a.pd", 0), "a shorter one too");
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/a.", 0));
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/a.html", 0), "no skipped extension of five starts with h");
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/a.HTML", 0));
    assertEquals("skip_extensions", reason(g.check("https://example.org/a.Webm", 0)), "the first char in any case");
    assertEquals("skip_extensions", reason(g.check("https://example.org/a.7z", 0)), "a digit first");
    assertTrue(reason(g.check("https://example.org/a.pdf?download=1", 0)).startsWith("url_query_parameters"),
        "gates run in order: the query rule comes before the extension");
    assertFalse(g.isCandidate("https://example.org/a.pdf?download=1", 1), "extension seen before the query");
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/a.pdf/index.html", 0));
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/v1.2/", 0));
    assertTrue(reason(g.check("https://example.org/" + "a".repeat(60), 0)).contains("max_url_length"));
    assertTrue(reason(g.check("https://example.org/", 4)).contains("max_depth"));
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/", 3));
    assertEquals(Outcome.BLOCKED_URL_BY_LOCAL_POLICY, ((Verdict.Rejected) g.check("https://example.org/", 4)).outcome());
  }

  /** An extension configured with a char outside ASCII still matches as {@code regionMatches} folds case. */
  @Test
  void extensionsOutsideAsciiMatchAsBefore() {
    CrawlConfig config = CrawlConfig.defaults().toBuilder().skipExtensions(List.of(".\u0131x", "kml")).build();
    Gatekeeper g = new Gatekeeper(config, Set.of(EXAMPLE));
    // U+0131 (dotless i) upper-cases to I, as i does: the comparison ignoring case takes them as one.
    assertEquals("skip_extensions", reason(g.check("https://example.org/a.ix", 0)));
    assertEquals("skip_extensions", reason(g.check("https://example.org/a.KML", 0)));
    assertEquals(Verdict.ALLOWED, g.check("https://example.org/a.jx", 0));
  }
}
