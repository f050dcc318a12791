package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host with two addresses, the first of which takes no connection (a dead server in a round-robin
 * answer): the crawl used to send every request to the first and give the host up; it now passes it
 * over for the next one after the first refused connect, as browsers do.
 */
@Timeout(60)
class AddressFallbackCrawlTest {

  @TempDir Path tmp;

  @Test
  void aHostWhoseFirstAddressRefusesIsCrawledThroughItsNextOne() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a", "/b").linking("/a").linking("/b");
      Path data = tmp.resolve("data");
      // The site listens on 127.0.0.1 only: a connect to 127.0.0.2 on its port is refused.
      String network = "network: { allow_private_addresses: true, resolve: { \"two.example.test\": [ \"127.0.0.2\","
          + " \"127.0.0.1\" ] } }\n";
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("two.example.test", "/")), network));

      assertEquals(List.of("/robots.txt", "/", "/a", "/b"), site.paths());
      List<JsonNode> log = TestCrawl.log(data);
      assertEquals("NETWORK_ERROR", log.get(0).get("outcome").asText(), log.get(0).toString());
      assertEquals("127.0.0.2", log.get(0).get("ip").asText());
      assertTrue(log.stream().skip(1).allMatch(l -> l.get("ip").asText().equals("127.0.0.1")), log.toString());
    }
  }
}
