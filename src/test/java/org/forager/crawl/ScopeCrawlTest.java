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

  /** A seed redirecting to www. ended the crawl after one request, and nothing said why. */
  @Test
  void inOriginsModeARedirectOutOfScopeIsLoggedAndTheSeedsRedirectIsNotedInTheSummary() throws Exception {
    try (TestSite apex = TestSite.start(); TestSite www = TestSite.start()) {
      String target = www.url("www.example.test", "/");
      apex.route("/", ex -> {
        ex.getResponseHeaders().set("Location", target);
        TestSite.respond(ex, 301, null, "");
      });
      www.linking("/", "/a");
      Path data = tmp.resolve("data");
      String seed = apex.url("example.test", "/");
      RunSummary summary = TestCrawl.run(TestCrawl.config(data, List.of(seed), TestCrawl.pinnedToLoopback("example.test", "www.example.test")));

      assertEquals(List.of(), www.paths(), "out of scope: not contacted");
      JsonNode out = TestCrawl.log(data).stream().filter(a -> a.get("outcome").asText().equals("OUT_OF_SCOPE"))
          .findFirst().orElseThrow();
      assertEquals(target, out.get("url").asText());
      assertTrue(out.get("reason").asText().startsWith("redirect of " + seed + ": "), out.toString());
      String rendered = summary.render(java.time.Duration.ofSeconds(1));
      assertTrue(rendered.contains("note: seed " + seed + " redirects to " + target + ", out of scope"), rendered);
    }
  }

  /**
   * A redirect to an origin past scope.max_origins, or to a URL past a trap limit, was dropped with no
   * line of its own (a count in the page's out_of_scope_links at most): each is said in the log now.
   */
  @Test
  void aRedirectPastMaxOriginsOrATrapLimitIsLoggedNotDroppedInSilence() throws Exception {
    try (TestSite apex = TestSite.start(); TestSite www = TestSite.start()) {
      String target = www.url("www.example.test", "/");
      String deep = apex.url("example.test", "/" + "x".repeat(120));
      apex.route("/", ex -> {
        ex.getResponseHeaders().set("Location", target);
        TestSite.respond(ex, 301, null, "");
      }).route("/long", ex -> {
        ex.getResponseHeaders().set("Location", deep);
        TestSite.respond(ex, 302, null, "");
      });
      www.linking("/", "/a");
      Path data = tmp.resolve("data");
      String seed = apex.url("example.test", "/");
      TestCrawl.run(TestCrawl.config(data, List.of(seed, apex.url("example.test", "/long")),
          "scope: { mode: domains, max_origins: 1 }\nlimits: { max_url_length: 100, fetch_timeout: 2s, max_retries: 2 }\n"
              + TestCrawl.pinnedToLoopback("example.test", "www.example.test")));

      assertEquals(List.of(), www.paths(), "past max_origins: not contacted");
      List<JsonNode> log = TestCrawl.log(data);
      JsonNode out = log.stream().filter(a -> a.get("url").asText().equals(target)).findFirst().orElseThrow();
      assertEquals("OUT_OF_SCOPE", out.get("outcome").asText());
      assertTrue(out.get("reason").asText().startsWith("redirect of " + seed + ": its origin is past scope.max_origins"),
          out.toString());
      JsonNode tooLong = log.stream().filter(a -> a.get("url").asText().equals(deep)).findFirst().orElseThrow();
      assertEquals("BLOCKED_URL_BY_LOCAL_POLICY", tooLong.get("outcome").asText());
      assertTrue(tooLong.get("reason").asText().startsWith("redirect of " + apex.url("example.test", "/long") + ": "),
          tooLong.toString());
    }
  }

  @Test
  void aCanonicalOnAnotherOriginIsLoggedOutOfScopeAndLinksOutOfScopeAreCounted() throws Exception {
    try (TestSite site = TestSite.start(); TestSite other = TestSite.start()) {
      String canonical = other.url("other.test", "/original");
      site.html("/", "<a href=\"/copy\">copy</a><a href=\"" + other.url("other.test", "/x") + "\">x</a>"
              + "<a href=\"" + other.url("other.test", "/y") + "\">y</a>")
          .html("/copy", "<link rel=canonical href=\"" + canonical + "\"><p>copy</p>");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(site.url("site.test", "/")), TestCrawl.pinnedToLoopback("site.test", "other.test")));

      assertEquals(List.of(), other.paths());
      List<JsonNode> log = TestCrawl.log(data);
      JsonNode home = log.stream().filter(a -> a.get("url").asText().equals(site.url("site.test", "/"))).findFirst().orElseThrow();
      assertEquals(2, home.get("out_of_scope_links").asInt(), home.toString());
      assertTrue(log.stream().anyMatch(a -> a.get("outcome").asText().equals("OUT_OF_SCOPE")
          && a.get("url").asText().equals(canonical)), "the canonical target is logged out of scope");
    }
  }

  /** The user's ordinary site: apex redirects to www., a blog subdomain, a link to another site. */
  @Test
  void inDomainsModeTheRedirectToWwwAndTheSubdomainsAreCrawledAndOtherSitesAreNot() throws Exception {
    try (TestSite apex = TestSite.start(); TestSite www = TestSite.start(); TestSite blog = TestSite.start();
        TestSite other = TestSite.start()) {
      String wwwHome = www.url("www.example.test", "/");
      apex.route("/", ex -> {
        ex.getResponseHeaders().set("Location", wwwHome);
        TestSite.respond(ex, 301, null, "");
      });
      www.linking("/", "/about", blog.url("blog.example.test", "/"), other.url("other.test", "/x"))
          .linking("/about");
      blog.linking("/", "/post");
      blog.linking("/post");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(apex.url("example.test", "/")),
          "scope: { mode: domains }\n" + TestCrawl.pinnedToLoopback("example.test", "www.example.test", "blog.example.test", "other.test")));

      assertEquals(List.of("/robots.txt", "/"), apex.paths());
      assertEquals(List.of("/robots.txt", "/", "/about"), www.paths(), "robots.txt first on every origin");
      assertEquals(List.of("/robots.txt", "/", "/post"), blog.paths());
      assertEquals(List.of(), other.paths(), "another registrable domain");
      JsonNode home = TestCrawl.log(data).stream().filter(a -> a.get("url").asText().equals(wwwHome)).findFirst().orElseThrow();
      assertEquals(1, home.get("out_of_scope_links").asInt(), home.toString());
    }
  }

  /** A general web crawl from one seed page: a generated graph of 1,000 hosts, with deny honoured. */
  @Test
  void inOpenModeAThousandHostsAreDiscoveredFromOneSeedAndDeniedOnesAreNotContacted() throws Exception {
    int hosts = 1000;
    try (TestSite web = TestSite.start()) {
      String port = web.origin().substring(web.origin().lastIndexOf(':') + 1);
      // Host hN links to h(2N+1) and h(2N+2): a tree over every host; h7 and below it are under .de.
      web.route("/", ex -> {
        String host = ex.getRequestHeaders().getFirst("Host").split(":")[0];
        int n = Integer.parseInt(host.substring(1, host.indexOf('.')));
        StringBuilder html = new StringBuilder("<p>").append(host).append("</p>");
        for (int child = 2 * n + 1; child <= 2 * n + 2 && child < hosts; child++) {
          html.append("<a href=\"http://").append(name(child)).append(':').append(port).append("/\">h</a>");
        }
        TestSite.respond(ex, 200, "text/html", html.toString());
      });
      String[] names = new String[hosts];
      for (int i = 0; i < hosts; i++) names[i] = name(i);
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of("http://" + name(0) + ":" + port + "/"),
          "scope: { mode: open, deny: [ \".de\" ] }\nconcurrency: 64\n" + TestCrawl.pinnedToLoopback(names)));

      java.util.Set<String> contacted = new java.util.HashSet<>();
      for (TestSite.Request r : web.requests()) contacted.add(r.header("Host").split(":")[0]);
      assertTrue(contacted.stream().noneMatch(h -> h.endsWith(".de")), "scope.deny .de");
      assertTrue(contacted.size() >= 500, contacted.size() + " hosts crawled");
      for (String h : contacted) {
        assertEquals("/robots.txt", web.requests().stream().filter(r -> r.header("Host").startsWith(h + ":"))
            .findFirst().orElseThrow().path(), "robots.txt first on " + h);
      }
    }
  }

  @Test
  void inOpenModeScopeMaxOriginsCapsTheOriginsTakenOn() throws Exception {
    try (TestSite web = TestSite.start()) {
      String port = web.origin().substring(web.origin().lastIndexOf(':') + 1);
      web.route("/", ex -> {
        StringBuilder html = new StringBuilder();
        for (int i = 1; i < 50; i++) html.append("<a href=\"http://").append(name(i)).append(':').append(port).append("/\">h</a>");
        TestSite.respond(ex, 200, "text/html", html.toString());
      });
      String[] names = new String[50];
      for (int i = 0; i < 50; i++) names[i] = name(i);
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of("http://" + name(0) + ":" + port + "/"),
          "scope: { mode: open, max_origins: 10 }\n" + TestCrawl.pinnedToLoopback(names)));
      java.util.Set<String> contacted = new java.util.HashSet<>();
      for (TestSite.Request r : web.requests()) contacted.add(r.header("Host"));
      assertEquals(10, contacted.size(), contacted.toString());
    }
  }

  /**
   * A domain that mints host names (a wildcard DNS record behind pages of links to new subdomains)
   * gets scope.max_origins_per_domain origins, counted across runs from the store, while other
   * domains are still taken on.
   */
  @Test
  void inOpenModeADomainMintingHostsGetsScopeMaxOriginsPerDomain() throws Exception {
    try (TestSite web = TestSite.start()) {
      String port = web.origin().substring(web.origin().lastIndexOf(':') + 1);
      int[] firstMinted = {1};
      web.route("/", ex -> {
        String host = ex.getRequestHeaders().getFirst("Host").split(":")[0];
        StringBuilder html = new StringBuilder();
        if (host.endsWith(".trap.test")) {
          for (int i = firstMinted[0]; i < firstMinted[0] + 20; i++) {
            html.append("<a href=\"http://s").append(i).append(".trap.test:").append(port).append("/\">s</a>");
          }
          html.append("<a href=\"http://www.other.test:").append(port).append("/\">other</a>");
        }
        TestSite.respond(ex, 200, "text/html", html.toString());
      });
      List<String> names = new java.util.ArrayList<>(List.of("www.trap.test", "www.other.test"));
      for (int i = 1; i <= 40; i++) names.add("s" + i + ".trap.test");
      Path data = tmp.resolve("data");
      String network = "recrawl: { interval: 0s }\n" + TestCrawl.pinnedToLoopback(names.toArray(String[]::new));
      List<String> seeds = List.of("http://www.trap.test:" + port + "/");
      TestCrawl.run(TestCrawl.config(data, seeds, "scope: { mode: open, max_origins_per_domain: 5 }\n" + network));

      java.util.Set<String> contacted = new java.util.TreeSet<>();
      for (TestSite.Request r : web.requests()) contacted.add(r.header("Host").split(":")[0]);
      assertTrue(contacted.remove("www.other.test"), "another domain is still taken on: " + contacted);
      assertEquals(5, contacted.size(), "the seed's and four minted hosts: " + contacted);

      // The next run's pages mint other names: the domain has its five origins already, in the store
      // (and the scope with its cap is the one the store kept).
      firstMinted[0] = 21;
      int before = web.requests().size();
      TestCrawl.run(TestCrawl.config(data, List.of(), network));
      assertTrue(web.requests().size() > before, "the second run crawled");
      java.util.Set<String> again = new java.util.TreeSet<>();
      for (TestSite.Request r : web.requests()) again.add(r.header("Host").split(":")[0]);
      again.remove("www.other.test");
      assertEquals(contacted, again, "no further host of trap.test");
    }
  }

  /** Seeds are the operator's choice: a domain's seeds are all crawled, whatever the cap says. */
  @Test
  void seedsAreNotHeldToScopeMaxOriginsPerDomain() throws Exception {
    try (TestSite web = TestSite.start()) {
      String port = web.origin().substring(web.origin().lastIndexOf(':') + 1);
      web.route("/", ex -> TestSite.respond(ex, 200, "text/html",
          "<a href=\"http://new.example.test:" + port + "/\">n</a>"));
      List<String> names = new java.util.ArrayList<>(List.of("new.example.test"));
      List<String> seeds = new java.util.ArrayList<>();
      for (int i = 1; i <= 4; i++) {
        names.add("h" + i + ".example.test");
        seeds.add("http://h" + i + ".example.test:" + port + "/");
      }
      TestCrawl.run(TestCrawl.config(tmp.resolve("data"), seeds,
          "scope: { mode: domains, max_origins_per_domain: 2 }\n" + TestCrawl.pinnedToLoopback(names.toArray(String[]::new))));
      java.util.Set<String> contacted = new java.util.TreeSet<>();
      for (TestSite.Request r : web.requests()) contacted.add(r.header("Host").split(":")[0]);
      assertEquals(java.util.Set.of("h1.example.test", "h2.example.test", "h3.example.test", "h4.example.test"),
          contacted, "every seed, and no new host past the cap");
    }
  }

  /** A crawl resumed without a scope section keeps the scope it was started with (kept in the store). */
  @Test
  void aResumedCrawlKeepsItsScopeAndAGivenOneReplacesIt() throws Exception {
    try (TestSite www = TestSite.start(); TestSite blog = TestSite.start()) {
      String blogHome = blog.url("blog.example.test", "/");
      www.linking("/", "/a").linking("/a", blogHome);
      blog.linking("/", "/post").linking("/post");
      Path data = tmp.resolve("data");
      String network = TestCrawl.pinnedToLoopback("www.example.test", "blog.example.test");
      List<String> seeds = List.of(www.url("www.example.test", "/"));
      TestCrawl.run(TestCrawl.config(data, seeds, "scope: { mode: domains }\nmax_actions: 2\n" + network));
      assertEquals(List.of(), blog.paths(), "not reached yet");

      TestCrawl.run(TestCrawl.config(data, List.of(), network)); // no scope section: the saved one
      assertEquals(List.of("/robots.txt", "/", "/post"), blog.paths(), "still domains mode");
      assertEquals(List.of("/robots.txt", "/", "/a"), www.paths());

      // Given again, a scope replaces the saved one: origins mode leaves the blog out of scope.
      blog.linking("/post", "/new");
      TestCrawl.run(TestCrawl.config(data, List.of(), "scope: { mode: open, deny: [ blog.example.test ] }\n"
          + "recrawl: { interval: 0s }\n" + network));
      assertEquals(0, blog.count("/new"), "the given scope's deny holds");
    }
  }

  /** h7 and every host below it in the tree are under .de; the rest under .test. */
  private static String name(int n) {
    int m = n;
    while (m > 7) m = (m - 1) / 2;
    return "h" + n + (m == 7 ? ".example.de" : ".example.test");
  }
}
