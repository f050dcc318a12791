package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Defects found by the review of issue 13's scope (wip-review); each fails on the reviewed code. */
@Timeout(120)
class ScopeReviewDefectsCrawlTest {

  @TempDir Path tmp;

  /**
   * A host whose first label is Punycode ({@code xn--bcher-kva.test}) is never fetched: httpcore5's
   * {@code Host} turns such a name to Unicode ("bücher.test") before the DnsResolver is asked, so the
   * pin (and a real DNS lookup) misses: NETWORK_ERROR "dns: UnknownHostException: bücher.test".
   * {@code www.xn--bcher-kva.test} works (its first label is not Punycode).
   */
  @Test
  void aHostWhoseFirstLabelIsPunycodeIsFetched() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a").linking("/a");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("bücher.test", "/")), TestCrawl.pinnedToLoopback("bücher.test")));
      assertEquals(List.of("/robots.txt", "/", "/a"), site.paths());
      String port = site.origin().substring(site.origin().lastIndexOf(':') + 1);
      for (TestSite.Request r : site.requests()) {
        assertEquals("xn--bcher-kva.test:" + port, r.header("Host"), "the Host header in ASCII, as DNS knows it");
      }
    }
  }

  /**
   * docs/scope.md, "Resuming": after a change of scope "what the new scope leaves out is refused when
   * it comes due, never fetched". But the Scope is built from every origin in the store's scope: a
   * crawl started in open mode and resumed in domains mode takes every domain the open run met as a
   * seed domain, and fetches them (other.test here; also brand-new origins of those domains).
   */
  @Test
  void aCrawlResumedInDomainsModeAfterOpenModeDoesNotFetchOtherDomains() throws Exception {
    try (TestSite www = TestSite.start(); TestSite other = TestSite.start()) {
      String network = TestCrawl.pinnedToLoopback("www.example.test", "other.test");
      www.linking("/", other.url("other.test", "/x"));
      other.linking("/x");
      Path data = tmp.resolve("data");
      List<String> seeds = List.of(www.url("www.example.test", "/"));
      // max_actions 2: robots.txt and / of www; other.test is known, not fetched yet.
      TestCrawl.run(TestCrawl.config(data, seeds, "scope: { mode: open }\nmax_actions: 2\n" + network));
      assertEquals(List.of(), other.paths(), "not reached yet");

      TestCrawl.run(TestCrawl.config(data, seeds, "scope: { mode: domains }\n" + network));
      assertEquals(List.of(), other.paths(), "other.test is not under the seed domain example.test");
    }
  }
}
