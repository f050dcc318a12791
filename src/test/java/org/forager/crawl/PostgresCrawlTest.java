package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.forager.store.Block;
import org.forager.url.Origin;
import org.forager.store.CrawlStore;
import org.forager.store.postgres.PostgresCrawlStore;
import org.forager.store.postgres.TestPostgres;
import org.forager.testweb.CapturedConsole;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The same crawl loop on the PostgreSQL store, against a real server. */
@Timeout(120)
class PostgresCrawlTest {

  @TempDir static Path serverDir;
  private static TestPostgres postgres;

  @TempDir Path tmp;
  @RegisterExtension final CapturedConsole console = new CapturedConsole();

  @BeforeAll
  static void startServer() {
    postgres = TestPostgres.start(serverDir.resolve("pg"));
  }

  @AfterAll
  static void stopServer() throws Exception {
    postgres.close();
  }

  @Test
  void crawlsAndResumesOnPostgres() throws Exception {
    String url = postgres.freshSchema();
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      a.robots("User-agent: *\nDisallow: /private\n").linking("/", "/one", "/private/x", b.url("/")).linking("/one", "/");
      b.linking("/", "/b1").html("/b1", "<p>b1</p>");
      Path data = tmp.resolve("data");
      String storeYaml = "store: { kind: postgres, url: \"" + url + "\" }";
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("/"), b.url("/")), storeYaml + "\nmax_actions: 4"));
      TestCrawl.run(TestCrawl.config(data, List.of(), storeYaml));

      assertEquals(Set.of("/robots.txt", "/", "/one"), new HashSet<>(a.paths()));
      assertEquals(Set.of("/robots.txt", "/", "/b1"), new HashSet<>(b.paths()));
      // Each run (a fleet process) fetches robots.txt itself before its first page of an origin, so
      // that its own crawl log proves robots.txt first; no page is fetched twice.
      assertEquals(4, a.paths().size() + b.paths().size() - a.count("/robots.txt") - b.count("/robots.txt"),
          "the second run resumed, fetching no page twice");
      assertTrue(a.count("/robots.txt") <= 2 && b.count("/robots.txt") <= 2, "robots.txt at most once per run");
      assertEquals("BLOCKED_BY_ROBOTS_TXT", TestCrawl.lastOutcome(data, a.url("/private/x")));
      try (CrawlStore store = PostgresCrawlStore.open(url)) {
        assertEquals(5, store.urlCount());
        store.forEachUrl(u -> assertTrue(u.lastCrawl().isPresent(), u.url()));
      }
    }
  }

  /**
   * status and export read a fleet's database with read-only transactions and leave its schema as it is:
   * a newer Forager's look must not upgrade it under the fleet's older processes (which an upgrade locks out).
   */
  @Test
  void statusAndExportReadTheDatabaseAndUpgradeNoOlderSchema() throws Exception {
    String url = postgres.freshSchema();
    String schema = url.substring(url.indexOf("currentSchema=") + "currentSchema=".length());
    try (TestSite site = TestSite.start()) {
      site.linking("/", "/a").html("/a", "<p>a</p>");
      Path data = tmp.resolve("data");
      Path config = tmp.resolve("forager.yaml");
      java.nio.file.Files.writeString(config, "data_dir: \"" + data + "\"\nseeds: [ \"" + site.url("/") + "\" ]\n"
          + "network: { allow_private_addresses: true }\nsitemaps: { default_location: false }\n"
          + "politeness: { min_delay: 10ms, response_time_factor: 0 }\nstore: { kind: postgres, url: \"" + url + "\" }\n");
      assertEquals(0, org.forager.cli.Main.run("crawl", "--config", config.toString(), "--quiet"), console.err());

      assertEquals(0, org.forager.cli.Main.run("status", "--config", config.toString()), console.err());
      assertTrue(console.out().contains("known URLs                   2"), console.out());
      Path jsonl = tmp.resolve("urls.jsonl");
      assertEquals(0, org.forager.cli.Main.run("export", "--config", config.toString(), "--output", jsonl.toString()),
          console.err());
      assertEquals(2, java.nio.file.Files.readAllLines(jsonl).size());

      postgres.execute("DELETE FROM " + schema + ".schema_version WHERE version = 13"); // as an older Forager left it
      console.reset();
      assertEquals(1, org.forager.cli.Main.run("status", "--config", config.toString()));
      assertEquals("forager: the crawl database " + url + " has schema version 12, from an older Forager (this one"
          + " reads version 13): read it with the Forager that crawls it; the next crawl by this Forager upgrades it"
          + " (and then only Foragers as new read it)", String.join("\n", console.err().lines()
          .filter(line -> !line.startsWith("[main] INFO com.zaxxer.hikari")).toList())); // the test class path's logger
      assertEquals(List.of("12"), postgres.query("SELECT max(version)::text FROM " + schema + ".schema_version"));
    }
  }

  /** Origins taken on during the run (domains mode) are leased like the seeds' in a fleet. */
  @Test
  void originsDiscoveredInDomainsModeAreLeasedAndCrawled() throws Exception {
    String url = postgres.freshSchema();
    try (TestSite apex = TestSite.start(); TestSite www = TestSite.start(); TestSite blog = TestSite.start()) {
      String wwwHome = "http://www.example.test:" + www.port() + "/";
      apex.route("/", ex -> {
        ex.getResponseHeaders().set("Location", wwwHome);
        TestSite.respond(ex, 301, null, "");
      });
      www.linking("/", "http://blog.example.test:" + blog.port() + "/");
      blog.linking("/");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of("http://example.test:" + apex.port() + "/"),
          "store: { kind: postgres, url: \"" + url + "\" }\nscope: { mode: domains }\n"
              + "network: { allow_private_addresses: true, resolve: { \"example.test\": \"127.0.0.1\", "
              + "\"www.example.test\": \"127.0.0.1\", \"blog.example.test\": \"127.0.0.1\" } }"));

      assertEquals(List.of("/robots.txt", "/"), apex.paths());
      assertEquals(List.of("/robots.txt", "/"), www.paths());
      assertEquals(List.of("/robots.txt", "/"), blog.paths());
      try (CrawlStore store = PostgresCrawlStore.open(url)) {
        assertEquals(3, store.scope().size(), store.scope().toString());
      }
    }
  }

  /**
   * One process: an origin finished, released, then reopened by another origin's link is claimed again
   * in the same run. Broke when a finished task was forgotten (memory bounded by the origins held): the
   * new crawler fetched robots.txt a second time in the run.
   */
  @Test
  void anOriginReclaimedInTheSameRunFetchesRobotsTxtOnlyOnce() throws Exception {
    String url = postgres.freshSchema();
    try (TestSite a = TestSite.start(); TestSite z = TestSite.start()) {
      // Whichever origin goes first, the other's page reopens it after it finished.
      a.linking("/", z.url("z.test", "/late")).linking("/late");
      z.linking("/", a.url("a.test", "/late")).linking("/late");
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, List.of(a.url("a.test", "/"), z.url("z.test", "/")),
          "store: { kind: postgres, url: \"" + url + "\" }\nscope: { mode: domains }\nconcurrency: 1\n"
              + TestCrawl.pinnedToLoopback("a.test", "z.test")));

      assertEquals(List.of("/", "/late"), a.paths().stream().filter(p -> !p.equals("/robots.txt")).toList());
      assertEquals(List.of("/", "/late"), z.paths().stream().filter(p -> !p.equals("/robots.txt")).toList());
      assertEquals(1, a.count("/robots.txt"), "robots.txt once a run: " + a.paths());
      assertEquals(1, z.count("/robots.txt"), "robots.txt once a run: " + z.paths());
    }
  }

  /**
   * Per-IP politeness across the fleet (issue 14): two processes share a crawl of four sites on one
   * address. Each process kept its own per-IP slots, so two processes holding different origins of
   * the address sent two requests at once; now a process requests an address only while it holds the
   * address's lease in the store. Seen from the server: never two in flight, every page fetched.
   */
  @Test
  void twoProcessesOfAFleetNeverHaveTwoRequestsInFlightToOneAddress() throws Exception {
    String url = postgres.freshSchema();
    IpPolitenessCrawlTest.SharedServer server = new IpPolitenessCrawlTest.SharedServer(1, 300);
    List<TestSite> sites = new java.util.ArrayList<>();
    try {
      for (int i = 0; i < IpPolitenessCrawlTest.HOSTS.length; i++) sites.add(server.site());
      List<String> seeds = IpPolitenessCrawlTest.seeds(sites);
      // Two origins a process at most: the two processes hold different origins of the one address.
      String yaml = "store: { kind: postgres, url: \"" + url + "\" }\nconcurrency: 2\n"
          + "fleet: { lease: 3s }\nlimits: { fetch_timeout: 1s }\n"
          + "politeness: { min_delay: 20ms, max_delay: 2s, response_time_factor: 0 }\n"
          + TestCrawl.pinnedToLoopback(IpPolitenessCrawlTest.HOSTS);
      crawlAsTwoProcesses(seeds, yaml);
      for (TestSite site : sites) {
        assertTrue(site.paths().containsAll(List.of("/", "/1", "/2")), "every page of every site: " + site.paths());
      }
      assertEquals(1, server.maxInFlight, "one request in flight to the address across the fleet");
    } finally {
      sites.forEach(TestSite::close);
    }
  }

  /** Two processes of a fleet (in threads, each its own data directory) crawl the seeds to the end. */
  private void crawlAsTwoProcesses(List<String> seeds, String yaml) throws InterruptedException {
    List<Thread> processes = new java.util.ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    for (int p = 0; p < 2; p++) {
      var config = TestCrawl.config(tmp.resolve("process" + p), seeds, yaml);
      processes.add(Thread.ofPlatform().start(() -> {
        try (Crawler crawler = Crawler.open(config)) {
          crawler.quiet(true).run();
        } catch (Throwable e) {
          failures.add(e);
        }
      }));
    }
    for (Thread t : processes) t.join(90_000);
    assertEquals(List.of(), failures);
  }

  /**
   * A domain crawled as one unit (sites rule {@code unit: domain}) is one unit across the fleet: its
   * hosts on four addresses (so no address lease joins them), two processes. Each process kept the unit
   * for the origins it leased, so two processes holding different hosts of the domain sent two requests
   * at once; now a process requests the domain's hosts only while it holds the domain's lease, and waits
   * the unit's delay when it takes the lease over. Seen from the server: one in flight, the delay kept.
   */
  @Test
  void aDomainUnitIsOneUnitAcrossTheFleet() throws Exception {
    String url = postgres.freshSchema();
    IpPolitenessCrawlTest.SharedServer server = new IpPolitenessCrawlTest.SharedServer(1, 200);
    String[] hosts = {"a.site.test", "b.site.test", "c.site.test", "d.site.test"};
    List<TestSite> sites = new java.util.ArrayList<>();
    try {
      StringBuilder resolve = new StringBuilder();
      List<String> seeds = new java.util.ArrayList<>();
      for (int i = 0; i < hosts.length; i++) {
        sites.add(server.site("127.0.0." + (i + 1)));
        resolve.append(i == 0 ? "" : ", ").append('"').append(hosts[i]).append("\": \"127.0.0.").append(i + 1).append('"');
        seeds.add(sites.get(i).url(hosts[i], "/"));
      }
      String yaml = "store: { kind: postgres, url: \"" + url + "\" }\nconcurrency: 2\n"
          + "fleet: { lease: 3s }\nlimits: { fetch_timeout: 1s }\n"
          + "politeness: { min_delay: 20ms, max_delay: 2s, response_time_factor: 0 }\n"
          + "network: { allow_private_addresses: true, resolve: { " + resolve + " } }\n"
          + "sites: [ { domain: \"site.test\", unit: domain, min_delay: 150ms } ]\n";
      crawlAsTwoProcesses(seeds, yaml);
      for (TestSite site : sites) {
        assertTrue(site.paths().containsAll(List.of("/", "/1", "/2")), "every page of every site: " + site.paths());
      }
      assertEquals(1, server.maxInFlight, "one request in flight to the domain across the fleet");
      assertTrue(server.minGapMillis() >= 150, "the domain's delay between any two: " + server.minGapMillis() + " ms");
    } finally {
      sites.forEach(TestSite::close);
    }
  }

  /**
   * In a fleet, a host unblocked during the run is crawled in that run: an origin a process found
   * blocked rests a minute, and was released "done until" then, which no claim of the run takes (its
   * cutoff is earlier): the run ended with the origin's URLs due, exit status 0. The unblock ends the rest.
   */
  @Test
  void aHostUnblockedDuringTheRunIsCrawledInIt() throws Exception {
    String url = postgres.freshSchema();
    String schema = url.substring(url.indexOf("currentSchema=") + "currentSchema=".length());
    CountDownLatch unblocked = new CountDownLatch(1);
    try (TestSite a = TestSite.start(); TestSite b = TestSite.start()) {
      // a's second page is held until b is unblocked: the run is still under way then.
      a.linking("/", "/held").route("/held", ex -> {
        try {
          unblocked.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        TestSite.respond(ex, 200, "text/html", "<p>held</p>");
      });
      b.linking("/", "/1").linking("/1");
      try (CrawlStore store = PostgresCrawlStore.open(url)) {
        store.block(new Block("b.test", Instant.now(), "cli"));
      }
      var config = TestCrawl.config(tmp.resolve("data"), List.of(a.url("a.test", "/"), b.url("b.test", "/")),
          "store: { kind: postgres, url: \"" + url + "\" }\nfleet: { lease: 4s }\n"
              + TestCrawl.pinnedToLoopback("a.test", "b.test"));
      try (Crawler crawler = Crawler.open(config)) {
        Thread run = Thread.ofPlatform().start(() -> {
          try {
            crawler.quiet(true).run();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
        String resting = "SELECT count(*)::text FROM " + schema + ".origin_lease WHERE origin = '"
            + Origin.ofUrl(b.url("b.test", "/")) + "' AND owner IS NULL AND expires_at > now()";
        while (!postgres.query(resting).equals(List.of("1"))) {
          assertTrue(run.isAlive(), "the run is under way until b is unblocked");
          Thread.onSpinWait();
        }
        assertEquals(List.of(), b.paths(), "blocked: nothing requested");
        assertTrue(crawler.control().unblock("b.test", "cli"));
        unblocked.countDown();
        run.join(60_000);
        assertFalse(run.isAlive());
      }
      assertEquals(List.of("/robots.txt", "/", "/1"), b.paths(), "unblocked: crawled in the same run");
    }
  }
}
