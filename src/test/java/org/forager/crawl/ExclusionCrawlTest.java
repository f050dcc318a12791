package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * "I have instructed the crawler never to visit your site again" (seed 002): an excluded host gets no
 * request of any kind, checked from the excluded server's side. The excluded site is a seed, is linked
 * to, is a redirect target and lists sitemaps; the allowed site (the same machine under the name
 * {@code localhost}) is crawled as usual.
 */
@Timeout(60)
class ExclusionCrawlTest {

  @TempDir Path tmp;

  /** robots.txt and /sitemap.xml of an excluded host were fetched before any gate ran. */
  @ParameterizedTest
  @ValueSource(strings = {"host rule", "domain rule", "prefix rule", "exclusion file", "exclusion file host:"})
  void anExcludedHostGetsNoRequestOfAnyKind(String how) throws Exception {
    try (TestSite allowed = TestSite.start(); TestSite excluded = TestSite.start()) {
      String allowedOrigin = "http://localhost:" + allowed.port();
      excluded.robots("User-agent: *\nAllow: /\nSitemap: " + excluded.url("/sitemap.xml") + "\n")
          .linking("/", "/a")
          .html("/sitemap.xml", "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>"
              + excluded.url("/b") + "</loc></url></urlset>");
      allowed.robots("User-agent: *\nAllow: /\n")
          .linking("/", excluded.url("/linked"), "/moved")
          .route("/moved", ex -> {
            ex.getResponseHeaders().set("Location", excluded.url("/target"));
            TestSite.respond(ex, 301, null, "");
          });
      String rule = switch (how) {
        case "host rule" -> "do_not_crawl: [ { host: \"127.0.0.1\" } ]\n";
        case "domain rule" -> "do_not_crawl: [ { domain: \"127.0.0.1\" } ]\n";
        case "prefix rule" -> "do_not_crawl: [ { prefix: \"" + excluded.origin() + "\" } ]\n";
        case "exclusion file" -> "do_not_crawl_file: \"" + Files.writeString(tmp.resolve("never.txt"),
            "# the owner asked\n127.0.0.1\n") + "\"\n";
        default -> "do_not_crawl_file: \"" + Files.writeString(tmp.resolve("never.txt"), "host:127.0.0.1\n") + "\"\n";
      };
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(allowedOrigin + "/", excluded.url("/")),
          rule + "sitemaps: { default_location: true }\n"));

      assertEquals(List.of(), excluded.paths(), "the excluded server saw no request at all");
      assertTrue(allowed.paths().containsAll(List.of("/robots.txt", "/", "/moved")), allowed.paths().toString());
      for (String path : List.of("/", "/linked", "/target")) {
        assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", TestCrawl.lastOutcome(data, excluded.url(path)), path);
      }
    }
  }

  /** A robots.txt redirect took the crawl to an excluded host's /secret-admin?token=abc. */
  @Test
  void aRobotsTxtRedirectToAnExcludedHostIsNotFollowedAndTheFileCountsAsUnavailable() throws Exception {
    try (TestSite allowed = TestSite.start(); TestSite excluded = TestSite.start()) {
      String allowedOrigin = "http://localhost:" + allowed.port();
      allowed.route("/robots.txt", ex -> {
        ex.getResponseHeaders().set("Location", excluded.url("/secret-admin?token=abc"));
        TestSite.respond(ex, 302, null, "");
      }).linking("/", "/a").linking("/a");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(allowedOrigin + "/", excluded.url("/")),
          "do_not_crawl: [ { host: \"127.0.0.1\" } ]\n"));

      assertEquals(List.of(), excluded.paths(), "the excluded server saw no request");
      assertEquals(List.of("/robots.txt", "/", "/a"), allowed.paths(), "robots.txt unavailable: allow all");
      JsonNode refused = robotsAction(data, excluded.url("/secret-admin?token=abc"));
      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", refused.get("outcome").asText());
      assertEquals("do_not_crawl host 127.0.0.1", refused.get("reason").asText());
    }
  }

  /** The same for a redirect to a do_not_crawl prefix or a query no url_query_parameters rule allows. */
  @ParameterizedTest
  @ValueSource(strings = {"/private/robots.txt", "/robots.txt?token=abc"})
  void aRobotsTxtRedirectRefusedByLocalPolicyOnTheSameHostIsNotFollowed(String target) throws Exception {
    try (TestSite site = TestSite.start()) {
      site.route("/robots.txt", ex -> {
        ex.getResponseHeaders().set("Location", target);
        TestSite.respond(ex, 301, null, "");
      }).linking("/");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")),
          "do_not_crawl: [ { prefix: \"" + site.url("/private/") + "\" } ]\n"));

      assertEquals(List.of("/robots.txt", "/"), site.paths());
      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", robotsAction(data, site.url(target)).get("outcome").asText());
    }
  }

  /** Local policy refusing the origin's own robots.txt: no request, and no page without its rules. */
  @Test
  void anOriginWhoseRobotsTxtIsExcludedIsNotContacted() throws Exception {
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("/")), "do_not_crawl: [ { regex: \".*/robots\\\\.txt\" } ]\n"));
      assertEquals(List.of(), site.paths());
      JsonNode page = TestCrawl.log(data).get(0);
      assertEquals(site.url("/"), page.get("url").asText());
      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", page.get("outcome").asText());
      assertTrue(page.get("reason").asText().endsWith("(for the origin's robots.txt)"), page.toString());
    }
  }

  /** A robots.txt may list sitemaps anywhere; only its own origin's are read (pinned, held before). */
  @Test
  void aSitemapLineNamingAnotherHostIsNotFetched() throws Exception {
    try (TestSite site = TestSite.start(); TestSite other = TestSite.start()) {
      other.html("/sitemap.xml", "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"></urlset>");
      String otherSitemap = other.url("/sitemap.xml").replace("127.0.0.1", "localhost");
      site.robots("User-agent: *\nAllow: /\nSitemap: " + otherSitemap + "\n").linking("/");
      TestCrawl.run(TestCrawl.config(tmp.resolve("data"), List.of(site.url("/")), "sitemaps: { default_location: false }"));
      assertEquals(List.of(), other.paths());
      assertEquals(List.of("/robots.txt", "/"), site.paths());
    }
  }

  private static JsonNode robotsAction(Path data, String url) {
    return TestCrawl.log(data).stream()
        .filter(a -> a.get("kind").asText().equals("robots") && a.get("url").asText().equals(url))
        .findFirst().orElseThrow(() -> new AssertionError("no robots action for " + url));
  }
}
