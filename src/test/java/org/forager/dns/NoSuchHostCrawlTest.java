package org.forager.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.forager.record.RunSummary;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An origin whose host name does not exist is given up at its first answer: retries would only hold its
 * place in the working set through their back-off (a seed list of a million domains holds many dead
 * ones). A name server that fails says nothing about the name: that origin is retried as before.
 */
@Timeout(60)
class NoSuchHostCrawlTest {

  @TempDir Path tmp;

  @Test
  void aHostThatDoesNotExistIsAskedOnceAServerFailureIsRetried() throws Exception {
    try (TestDnsServer dns = TestDnsServer.start(); TestSite site = TestSite.start()) {
      dns.a("live.test", 300, "127.0.0.1").servfail("broken.test");
      site.linking("/", "/a").html("/a", "<p>a</p>");
      String live = "http://live.test:" + site.port();
      String gone = "http://gone.test:" + site.port();
      String broken = "http://broken.test:" + site.port();
      Path data = tmp.resolve("data");
      RunSummary summary = TestCrawl.run(TestCrawl.config(data, List.of(live + "/", gone + "/", broken + "/"),
          "network: { allow_private_addresses: true, dns: { servers: [ \"127.0.0.1:" + dns.address().getPort()
              + "\" ], negative_ttl: 1s } }\nlimits: { fetch_timeout: 2s, max_retries: 2 }"));

      List<JsonNode> log = TestCrawl.log(data);
      List<JsonNode> goneLines = log.stream().filter(l -> l.path("url").asText().startsWith(gone)).toList();
      assertEquals(1, goneLines.size(), goneLines.toString());
      assertEquals("DNS_ERROR", goneLines.get(0).get("outcome").asText());
      assertEquals("robots", goneLines.get(0).get("kind").asText());
      assertTrue(goneLines.get(0).get("reason").asText().contains("no such domain (NXDOMAIN)"), goneLines.toString());
      long brokenTries = log.stream().filter(l -> l.path("url").asText().equals(broken + "/robots.txt")).count();
      assertEquals(3, brokenTries, "a server failure is retried: max_retries 2");
      assertEquals("FETCHED", TestCrawl.lastOutcome(data, live + "/a"));
      // The seed that does not exist is named for the operator, not only counted among robots.txt failures.
      assertTrue(summary.notes().stream().anyMatch(n -> n.startsWith(gone + ": no such host (")
          && n.endsWith("); nothing of it crawled")), summary.notes().toString());
    }
  }
}
