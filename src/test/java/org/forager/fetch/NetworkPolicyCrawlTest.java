package org.forager.fetch;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.forager.dns.IpLiterals;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SSRF through a whole crawl (issues 12 and 19): seeds that spell an internal address, and names that
 * {@code network.resolve} answers with one, are refused with {@code BLOCKED_BY_NETWORK_POLICY} in the
 * crawl log, and the loopback server they all lead to sees no request at all: not robots.txt, not a
 * sitemap, not a page. robots.txt is every origin's first request, so it is where the refusal shows;
 * the pages, sitemaps and redirect targets that would follow go through the same {@link Fetcher}
 * (see {@code HttpFetcherPolicyTest}).
 */
@Timeout(60)
class NetworkPolicyCrawlTest {

  @TempDir Path tmp;

  /** Names answered, through the resolver seam, with addresses that reach or embed internal ones. */
  private static final Map<String, String> PINS = new LinkedHashMap<>();

  static {
    PINS.put("mapped-loopback.test", "::ffff:127.0.0.1");
    PINS.put("mapped-metadata.test", "::ffff:169.254.169.254");
    PINS.put("mapped-private.test", "::ffff:10.0.0.1");
    PINS.put("compatible.test", "::127.0.0.1");
    PINS.put("nat64.test", "64:ff9b::7f00:1");
    PINS.put("sixtofour.test", "2002:7f00:1::");
    PINS.put("teredo.test", "2001:0:4136:e378:8000:63bf:80ff:fffe");
    PINS.put("unique-local.test", "fc00::1");
    PINS.put("link-local.test", "fe80::1");
    PINS.put("metadata.test", "169.254.169.254");
    PINS.put("loopback.test", "127.0.0.1");
  }

  /** Spellings of internal addresses as seeds; %d is the loopback server's port. */
  private static final List<String> LITERAL_SEEDS = List.of(
      "http://[::ffff:127.0.0.1]:%d/", "http://0.0.0.0:%d/", "http://[::]:%d/", "http://2130706433:%d/",
      "http://0177.0.0.1:%d/", "http://0:%d/", "http://0x7f.1:%d/", "http://017700000001:%d/", "http://127.1:%d/",
      "http://127。0。0。1:%d/", "http://１２７．０．０．１:%d/", "http://[::1]:%d/",
      "http://[0:0:0:0:0:ffff:7f00:1]:%d/", "http://user:secret@127.0.0.1:%d/", "http://localhost:%d/",
      "http://169.254.169.254/latest/meta-data/", "http://[fc00::1]/", "http://[fd12:3456::1]:%d/",
      "http://[fe80::1]/", "http://100.64.0.1/", "http://10.0.0.1/");

  private static String resolveYaml() {
    return PINS.entrySet().stream().map(e -> "\"" + e.getKey() + "\": \"" + e.getValue() + "\"")
        .collect(Collectors.joining(", ", "{ ", " }"));
  }

  /** A web site with everything a crawl would ask for: robots.txt naming a sitemap, pages, a redirect. */
  private static TestSite site() throws java.io.IOException {
    TestSite site = TestSite.start()
        .robots("User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n")
        .linking("/", "/a", "/moved")
        .linking("/a", "/")
        .route("/moved", ex -> {
          ex.getResponseHeaders().set("Location", "/a");
          TestSite.respond(ex, 301, "text/plain", "");
        })
        .route("/sitemap.xml", ex -> TestSite.respond(ex, 200, "application/xml",
            "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>/a</loc></url></urlset>"));
    return site;
  }

  @Test
  void seedsAndNamesLeadingToInternalAddressesAreRefusedAndTheServerSeesNoRequest() throws Exception {
    // Nothing below may be connected to if the policy ever regressed: that fails here first.
    for (String address : PINS.values()) {
      assertTrue(NetworkPolicy.isBlocked(IpLiterals.parse(address).orElseThrow()), address);
    }
    for (String seed : LITERAL_SEEDS) {
      String host = Origin.ofUrl(UrlNormalizer.normalize(seed.formatted(1)).orElseThrow()).host();
      IpLiterals.parse(host).ifPresent(address -> assertTrue(NetworkPolicy.isBlocked(address), seed));
    }
    try (TestSite site = site()) {
      int port = Integer.parseInt(site.origin().substring(site.origin().lastIndexOf(':') + 1));
      List<String> seeds = new ArrayList<>();
      for (String spelling : LITERAL_SEEDS) seeds.add(spelling.formatted(port));
      for (String name : PINS.keySet()) seeds.add("http://" + name + ":" + port + "/");
      Path data = tmp.resolve("data");

      TestCrawl.run(TestCrawl.config(data, seeds, "network: { allow_private_addresses: false, resolve: "
          + resolveYaml() + " }\nsitemaps: { default_location: true }"));

      assertEquals(List.of(), site.paths(), "the loopback server saw no request");
      List<JsonNode> log = TestCrawl.log(data);
      Set<String> refusedRobots = new TreeSet<>();
      for (JsonNode line : log) {
        assertEquals("BLOCKED_BY_NETWORK_POLICY", line.get("outcome").asText(), line.toString());
        if (line.get("kind").asText().equals("robots")) refusedRobots.add(line.get("url").asText());
      }
      assertAll(seeds.stream().map(seed -> () -> {
        String robots = Origin.ofUrl(UrlNormalizer.normalize(seed).orElseThrow()).robotsTxtUrl();
        assertTrue(refusedRobots.contains(robots), seed + ": " + robots + " refused in " + refusedRobots);
      }));
    }
  }

  /** A pin is an answer like any other: with private addresses allowed it is used for every request. */
  @Test
  void aPinnedNameIsCrawledThroughThePinOnlyWhenPrivateAddressesAreAllowed() throws Exception {
    try (TestSite site = site()) {
      int port = Integer.parseInt(site.origin().substring(site.origin().lastIndexOf(':') + 1));
      String seed = "http://staging.test:" + port + "/";
      String pin = "resolve: { \"staging.test\": \"127.0.0.1\" }";

      Path refused = tmp.resolve("refused");
      TestCrawl.run(TestCrawl.config(refused, List.of(seed),
          "network: { allow_private_addresses: false, " + pin + " }\nsitemaps: { default_location: true }"));
      assertEquals(List.of(), site.paths());
      assertEquals("BLOCKED_BY_NETWORK_POLICY", TestCrawl.lastOutcome(refused, seed + "robots.txt"));

      Path allowed = tmp.resolve("allowed");
      TestCrawl.run(TestCrawl.config(allowed, List.of(seed),
          "network: { allow_private_addresses: true, " + pin + " }\nsitemaps: { default_location: true }"));
      assertEquals(Set.of("/robots.txt", "/sitemap.xml", "/", "/a", "/moved"), Set.copyOf(site.paths()));
      assertTrue(site.requests().stream().allMatch(r -> ("staging.test:" + port).equals(r.header("Host"))));
      assertEquals("FETCHED", TestCrawl.lastOutcome(allowed, seed + "a"));
    }
  }
}
