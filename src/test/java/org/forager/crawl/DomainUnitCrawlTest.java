package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.forager.audit.PolitenessAudit;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sites rule's {@code unit: domain} (DESIGN.md "Politeness": optionally per registrable domain): the
 * domain's hosts on two addresses (so the per-IP unit does not join them), crawled as one unit: never
 * two requests in flight across them, and the rule's min_delay between any two. Without it, each host
 * is a unit of its own and the two are crawled at once. Seen from the servers' side.
 */
@Timeout(60)
class DomainUnitCrawlTest {

  @TempDir Path tmp;

  /** What forager audit reads from the crawl's sites rules: both hosts in site.test, 150 ms apart. */
  private static final Function<String, Optional<PolitenessAudit.DomainUnit>> UNIT =
      origin -> Optional.of(new PolitenessAudit.DomainUnit("site.test", 150));

  private static final String NETWORK =
      "network: { allow_private_addresses: true, resolve: { \"a.site.test\": \"127.0.0.1\", \"b.site.test\": \"127.0.0.2\" } }\n";

  @Test
  void aDomainMadeOneUnitHasOneRequestInFlightAndItsDelayAcrossItsHosts() throws Exception {
    IpPolitenessCrawlTest.SharedServer server = new IpPolitenessCrawlTest.SharedServer(1, 200);
    try (TestSite a = server.site("127.0.0.1"); TestSite b = server.site("127.0.0.2")) {
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("a.site.test", "/"), b.url("b.site.test", "/")),
          "concurrency: 4\npoliteness: { min_delay: 20ms, max_delay: 2s, response_time_factor: 0 }\n" + NETWORK
              + "sites: [ { domain: \"site.test\", unit: domain, min_delay: 150ms } ]\n"));

      assertEquals(8, server.requestCount(), "robots.txt and three pages of each host");
      assertEquals(1, server.maxInFlight, "one request in flight to the domain, whatever the host or address");
      assertTrue(server.minGapMillis() >= 150, "the domain's delay between any two: " + server.minGapMillis() + " ms");
      TestCrawl.assertPolite(data);
      PolitenessAudit.Report audit = PolitenessAudit.audit(data.resolve("logs/crawl.jsonl"), PolitenessAudit.PerIp.DEFAULTS,
          UNIT);
      assertTrue(audit.polite(), audit.violations().toString());
      assertEquals(1, audit.domains().size());
      assertEquals(2, audit.domains().get(0).origins());
      assertEquals(1, audit.domains().get(0).maxInFlight());
    }
  }

  @Test
  void withoutTheRuleEachHostIsAUnitOfItsOwn() throws Exception {
    // Every answer takes 200 ms (two in flight are allowed, so none ends early): requests of the two
    // hosts at once overlap by far more than the log's millisecond, which the audit must see. With one
    // allowed, the second request's arrival ended both at once, an overlap under a millisecond that the
    // audit could not always see (a flaky test under load, session 67).
    IpPolitenessCrawlTest.SharedServer server = new IpPolitenessCrawlTest.SharedServer(2, 200);
    try (TestSite a = server.site("127.0.0.1"); TestSite b = server.site("127.0.0.2")) {
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("a.site.test", "/"), b.url("b.site.test", "/")),
          "concurrency: 4\npoliteness: { min_delay: 20ms, max_delay: 2s, response_time_factor: 0 }\n" + NETWORK
              + "sites: [ { domain: \"site.test\", min_delay: 150ms } ]\n"));

      assertEquals(8, server.requestCount());
      assertEquals(2, server.maxInFlight, "two hosts on two addresses: crawled at once");
      // Audited as if the domain were one unit, the same log is not polite: the audit can fail.
      PolitenessAudit.Report audit = PolitenessAudit.audit(data.resolve("logs/crawl.jsonl"), PolitenessAudit.PerIp.DEFAULTS,
          UNIT);
      assertTrue(audit.violations().stream().anyMatch(v -> v.rule().equals("in flight per domain")),
          audit.violations().toString());
    }
  }

  /**
   * robots.txt redirect hops keep the domain's delay, not only the origin's (a host rule below the unit
   * gives the origin a shorter one): the hops once came 20-50 ms apart where the unit asked 400 ms
   * (review of session 65).
   */
  @Test
  void robotsTxtRedirectHopsKeepTheDomainsDelay() throws Exception {
    try (TestSite a = TestSite.start()) {
      a.route("/robots.txt", ex -> {
        ex.getResponseHeaders().set("Location", "/r2.txt");
        TestSite.respond(ex, 301, null, "");
      }).route("/r2.txt", ex -> {
        ex.getResponseHeaders().set("Location", "/r3.txt");
        TestSite.respond(ex, 301, null, "");
      }).route("/r3.txt", ex -> TestSite.respond(ex, 200, "text/plain", "User-agent: *\nAllow: /\n")).linking("/");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("a.site.test", "/")),
          "politeness: { min_delay: 20ms, max_delay: 2s, response_time_factor: 0 }\n" + NETWORK
              + "sites: [ { domain: \"site.test\", unit: domain, min_delay: 400ms }, { host: a.site.test, min_delay: 20ms } ]\n"));
      assertTrue(a.minIntervalMillis() >= 400, "the domain's delay between every two requests: " + a.minIntervalMillis());
      PolitenessAudit.Report audit = PolitenessAudit.audit(data.resolve("logs/crawl.jsonl"), PolitenessAudit.PerIp.DEFAULTS,
          origin -> Optional.of(new PolitenessAudit.DomainUnit("site.test", 400)));
      assertTrue(audit.polite(), audit.violations().toString());
    }
  }
}
