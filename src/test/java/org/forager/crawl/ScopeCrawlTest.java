package org.forager.crawl;

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
 * Scope as a new user meets it: a site whose apex redirects to {@code www.}, its subdomains, links to
 * other sites, a canonical on another origin. Host names are pinned to loopback with
 * {@code network.resolve}; two ports stand for two schemes or two hosts of one site.
 */
@Timeout(120)
class ScopeCrawlTest {

  @TempDir Path tmp;

  private static String resolve(String... hosts) {
    StringBuilder yaml = new StringBuilder("network: { allow_private_addresses: true, resolve: { ");
    for (int i = 0; i < hosts.length; i++) yaml.append(i > 0 ? ", " : "").append('"').append(hosts[i]).append("\": \"127.0.0.1\"");
    return yaml.append(" } }\n").toString();
  }

  private static String url(String host, TestSite site, String path) {
    return "http://" + host + ":" + site.origin().substring(site.origin().lastIndexOf(':') + 1) + path;
  }

  /** A seed redirecting to www. ended the crawl after one request, and nothing said why. */
  @Test
  void inOriginsModeARedirectOutOfScopeIsLoggedAndTheSeedsRedirectIsNotedInTheSummary() throws Exception {
    try (TestSite apex = TestSite.start(); TestSite www = TestSite.start()) {
      String target = url("www.example.test", www, "/");
      apex.route("/", ex -> {
        ex.getResponseHeaders().set("Location", target);
        TestSite.respond(ex, 301, null, "");
      });
      www.linking("/", "/a");
      Path data = tmp.resolve("data");
      String seed = url("example.test", apex, "/");
      RunSummary summary = TestCrawl.run(TestCrawl.config(data, List.of(seed), resolve("example.test", "www.example.test")));

      assertEquals(List.of(), www.paths(), "out of scope: not contacted");
      JsonNode out = TestCrawl.log(data).stream().filter(a -> a.get("outcome").asText().equals("OUT_OF_SCOPE"))
          .findFirst().orElseThrow();
      assertEquals(target, out.get("url").asText());
      assertTrue(out.get("reason").asText().startsWith("redirect of " + seed + ": "), out.toString());
      String rendered = summary.render(java.time.Duration.ofSeconds(1));
      assertTrue(rendered.contains("note: seed " + seed + " redirects to " + target + ", out of scope"), rendered);
    }
  }

  @Test
  void aCanonicalOnAnotherOriginIsLoggedOutOfScopeAndLinksOutOfScopeAreCounted() throws Exception {
    try (TestSite site = TestSite.start(); TestSite other = TestSite.start()) {
      String canonical = url("other.test", other, "/original");
      site.html("/", "<a href=\"/copy\">copy</a><a href=\"" + url("other.test", other, "/x") + "\">x</a>"
              + "<a href=\"" + url("other.test", other, "/y") + "\">y</a>")
          .html("/copy", "<link rel=canonical href=\"" + canonical + "\"><p>copy</p>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(url("site.test", site, "/")), resolve("site.test", "other.test")));

      assertEquals(List.of(), other.paths());
      List<JsonNode> log = TestCrawl.log(data);
      JsonNode home = log.stream().filter(a -> a.get("url").asText().equals(url("site.test", site, "/"))).findFirst().orElseThrow();
      assertEquals(2, home.get("out_of_scope_links").asInt(), home.toString());
      assertTrue(log.stream().anyMatch(a -> a.get("outcome").asText().equals("OUT_OF_SCOPE")
          && a.get("url").asText().equals(canonical)), "the canonical target is logged out of scope");
    }
  }
}
