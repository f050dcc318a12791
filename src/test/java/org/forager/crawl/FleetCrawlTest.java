package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.forager.audit.PolitenessAudit;
import org.forager.store.CrawlStore;
import org.forager.store.postgres.PostgresCrawlStore;
import org.forager.store.postgres.TestPostgres;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three crawler processes (child JVMs running {@code forager crawl}) share one PostgreSQL crawl
 * database and crawl six local origins. The servers' own logs prove that no origin ever had two
 * requests in flight or a shorter interval than min_delay, whichever processes crawled it, and that
 * every page was fetched; each child's crawl log passes the politeness audit. One child killed with
 * SIGKILL midway loses nothing: the others take its origins over once its leases expire.
 */
@Timeout(300)
class FleetCrawlTest {

  private static final int CHILDREN = 3;
  private static final int ORIGINS = 6;
  /** Per origin: "/", a chain /p1 ... /p38, and /late, linked only from the previous origin's /p38. */
  private static final int CHAIN = 38;
  private static final int PAGES = CHAIN + 2;
  private static final long MIN_DELAY_MILLIS = 50;
  private static final long WAIT_SECONDS = 150;

  @TempDir static Path serverDir;
  private static TestPostgres postgres;

  @TempDir Path tmp;
  private final List<TestSite> sites = new ArrayList<>();
  private final List<Process> children = new ArrayList<>();
  private final AtomicInteger pageRequests = new AtomicInteger();
  /** Runs on every page request, with the requester's User-Agent. */
  private volatile java.util.function.IntConsumer onPageRequest = n -> {};
  private final Map<Integer, String> userAgentOfRequest = new ConcurrentHashMap<>();
  /** The path and site of the page request being answered, for onPageRequest (requests of one site are one at a time). */
  private final ThreadLocal<String> currentPath = new ThreadLocal<>();
  private final ThreadLocal<Integer> currentSite = new ThreadLocal<>();

  @BeforeAll
  static void startServer() {
    postgres = TestPostgres.startRestartable(serverDir.resolve("pg")); // one test stops it for a while
  }

  @AfterAll
  static void stopServer() throws Exception {
    postgres.close();
  }

  @BeforeEach
  void startWeb() throws IOException {
    for (int s = 0; s < ORIGINS; s++) sites.add(TestSite.start());
    for (int s = 0; s < ORIGINS; s++) {
      TestSite site = sites.get(s);
      TestSite next = sites.get((s + 1) % ORIGINS);
      site.robots("User-agent: *\nAllow: /\n");
      page(site, "/", "/p1");
      for (int i = 1; i <= CHAIN; i++) {
        page(site, "/p" + i, i < CHAIN ? "/p" + (i + 1) : next.url("/late"), "/");
      }
      page(site, "/late", "/");
    }
  }

  @AfterEach
  void stopAll() {
    for (Process child : children) child.destroyForcibly(); // SIGKILL ends a stopped process too
    sites.forEach(TestSite::close);
  }

  @Test
  void threeProcessesShareTheCrawlPolitelyAndFetchEveryPageOnce() throws Exception {
    String store = postgres.freshSchema();
    for (int c = 0; c < CHILDREN; c++) children.add(startChild(c, store));
    for (int c = 0; c < CHILDREN; c++) assertEquals(0, awaitExit(c), "child " + c + " exit status");

    for (TestSite site : sites) {
      for (String path : pagePaths()) assertEquals(1, site.count(path), site.url(path) + " fetched once");
    }
    assertPoliteOnTheServers();
    int crawling = 0;
    for (int c = 0; c < CHILDREN; c++) {
      assertAuditPasses(c);
      if (pagesFetchedBy(c) > 0) crawling++;
    }
    assertTrue(crawling >= 2, "the work was shared: " + crawling + " children fetched pages");
    assertStoreComplete(store);
  }

  /**
   * The status page once wrapped the store in a timing decorator that hid its leases: every process
   * then crawled every origin (pages fetched twice and more, two requests in flight on one host).
   */
  @Test
  void aStatusPageDoesNotTurnTheFleetOff() throws Exception {
    String store = postgres.freshSchema();
    for (int c = 0; c < CHILDREN; c++) children.add(startChild(c, store, "--status-port", "0"));
    for (int c = 0; c < CHILDREN; c++) assertEquals(0, awaitExit(c), "child " + c + " exit status");

    for (TestSite site : sites) {
      for (String path : pagePaths()) assertEquals(1, site.count(path), site.url(path) + " fetched once");
    }
    assertPoliteOnTheServers();
    for (int c = 0; c < CHILDREN; c++) {
      assertAuditPasses(c);
      assertTrue(output(c).contains("status page at http://127.0.0.1:"), "child " + c + " served its status page");
    }
    assertStoreComplete(store);
  }

  @Test
  void aProcessKilledMidwayLosesNothingAndItsOriginsAreTakenOver() throws Exception {
    String store = postgres.freshSchema();
    int killAt = ORIGINS * PAGES / 3;
    CountDownLatch reached = new CountDownLatch(1);
    AtomicReference<String> victim = new AtomicReference<>();
    onPageRequest = n -> {
      if (n == killAt) {
        victim.set(userAgentOfRequest.get(n));
        reached.countDown();
      }
    };
    for (int c = 0; c < CHILDREN; c++) children.add(startChild(c, store));
    assertTrue(reached.await(WAIT_SECONDS, TimeUnit.SECONDS), "the crawl reached " + killAt + " page requests");
    // The child that sent that request holds the lease of its origin right now.
    int killed = Integer.parseInt(victim.get().substring("FleetBot-".length(), victim.get().indexOf('/')));
    children.get(killed).destroyForcibly(); // SIGKILL: no release, its leases have to expire
    assertTrue(children.get(killed).waitFor(WAIT_SECONDS, TimeUnit.SECONDS));
    for (int c = 0; c < CHILDREN; c++) {
      if (c != killed) assertEquals(0, awaitExit(c), "child " + c + " exit status");
    }

    int repeated = 0;
    for (TestSite site : sites) {
      for (String path : pagePaths()) {
        assertTrue(site.count(path) >= 1, site.url(path) + " fetched");
        repeated += (int) site.count(path) - 1;
      }
    }
    // Only what the killed child had in flight or fetched without recording: one URL per origin it held.
    assertTrue(repeated <= 2, "at most one repeated fetch per origin the killed child held, got " + repeated);
    assertTrue(pagesFetchedBy(killed) < ORIGINS * PAGES, "it was killed before the end");
    assertPoliteOnTheServers();
    for (int c = 0; c < CHILDREN; c++) if (c != killed) assertAuditPasses(c);
    assertStoreComplete(store);
  }

  /**
   * Issue 16: a process frozen past its lease (SIGSTOP: a GC pause, a stalled VM) used to finish what
   * it was doing on resuming, unfenced. Process A holds five origins, B one; A is frozen while the
   * server answers a request of A's first origin (the first a claim takes once A's leases expired),
   * and resumed once B, done with its own, took that one over: the server sees no overlap and no
   * interval under min_delay, A's late record of that page is refused (B fetches it again), and A
   * carries on with its other origins, which nobody took.
   */
  @Test
  void aProcessFrozenPastItsLeaseSendsNothingLateAndItsLateWritesAreRefused() throws Exception {
    String store = postgres.freshSchema();
    int victim = 0; // a claim takes free origins in order: A's first five, B the last
    for (int s = 1; s < ORIGINS; s++) {
      if (sites.get(s).origin().compareTo(sites.get(victim).origin()) < 0) victim = s;
    }
    int victimSite = victim;
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch frozen = new CountDownLatch(1);
    CountDownLatch takenOver = new CountDownLatch(1);
    AtomicReference<String> frozenPath = new AtomicReference<>();
    AtomicInteger victimRequests = new AtomicInteger();
    AtomicLong stoppedAt = new AtomicLong();
    onPageRequest = n -> {
      started.countDown();
      if (currentSite.get() != victimSite) return;
      int c = Integer.parseInt(userAgentOfRequest.get(n).substring("FleetBot-".length(), 10));
      if (c == 0 && victimRequests.incrementAndGet() == 5) {
        // Stopped before the answer leaves: A gets it, with everything else, on resuming.
        signal("STOP", children.get(0));
        stoppedAt.set(System.nanoTime());
        frozenPath.set(currentPath.get());
        frozen.countDown();
      } else if (c == 1) {
        takenOver.countDown(); // B's first page of that origin
      }
    };
    children.add(startChild(0, store, 5));
    assertTrue(started.await(WAIT_SECONDS, TimeUnit.SECONDS), "A claimed its origins and started");
    children.add(startChild(1, store, 1));
    assertTrue(frozen.await(WAIT_SECONDS, TimeUnit.SECONDS), "A requested a fifth page of its first origin");
    TestSite site = sites.get(victimSite);
    assertTrue(takenOver.await(WAIT_SECONDS, TimeUnit.SECONDS), "B took " + site.origin() + " over");
    assertTrue(System.nanoTime() - stoppedAt.get() >= TimeUnit.SECONDS.toNanos(2), "taken over after the 2 s lease");
    long pagesBefore = pagesFetchedBy(0);
    signal("CONT", children.get(0));
    for (int c = 0; c < 2; c++) assertEquals(0, awaitExit(c), "child " + c + " exit status");

    assertPoliteOnTheServers();
    String a = output(0);
    assertTrue(a.contains("write was refused"), "A's late record was refused:\n" + a);
    assertFalse(a.contains("\tat "), "one-line notices, no stack trace:\n" + a);
    assertTrue(pagesFetchedBy(0) > pagesBefore, "A carried on with its other origins:\n" + a);
    assertEquals(2, site.count(frozenPath.get()), "the page whose record was refused is fetched again");
    for (TestSite s : sites) {
      for (String path : pagePaths()) assertTrue(s.count(path) >= 1, s.url(path) + " fetched");
    }
    for (int c = 0; c < 2; c++) assertAuditPasses(c);
    assertStoreComplete(store);
  }

  /**
   * Issue 16, item 3: the crawl database stopped mid-crawl for three times the lease, then started
   * again. Each process says in one line that it lost the database and pauses (no page requested
   * while it is down but the one each origin had under way when it went), says in one line that it
   * is back, renews or gives up its leases, and the fleet finishes the crawl: every page fetched and
   * recorded, one request in flight per origin across processes, no interval under min_delay.
   */
  @Test
  void aDatabaseOutageLongerThanTheLeasePausesTheFleetWhichThenFinishesTheCrawl() throws Exception {
    String store = postgres.freshSchema();
    int stopAt = ORIGINS * PAGES / 3;
    CountDownLatch reached = new CountDownLatch(1);
    onPageRequest = n -> {
      if (n == stopAt) reached.countDown();
    };
    for (int c = 0; c < 2; c++) children.add(startChild(c, store, 3));
    assertTrue(reached.await(WAIT_SECONDS, TimeUnit.SECONDS), "the crawl reached " + stopAt + " page requests");
    postgres.stop();
    long stoppedAt = System.nanoTime();
    int requestsAtStop = pageRequests.get();
    try {
      for (int c = 0; c < 2; c++) awaitOutput(c, "crawling paused until it is back");
      // The outage itself: three times the 2 s lease, so that every lease ran out meanwhile.
      long left = TimeUnit.SECONDS.toNanos(6) - (System.nanoTime() - stoppedAt);
      if (left > 0) TimeUnit.NANOSECONDS.sleep(left);
    } finally {
      postgres.restart();
    }
    int requestsDuringOutage = pageRequests.get() - requestsAtStop;
    for (int c = 0; c < 2; c++) assertEquals(0, awaitExit(c), "child " + c + " exit status");

    // At most the request each origin had under way as the database went: its record then failed.
    assertTrue(requestsDuringOutage <= ORIGINS, requestsDuringOutage + " page requests while the database was down");
    int repeated = 0;
    for (TestSite site : sites) {
      for (String path : pagePaths()) {
        assertTrue(site.count(path) >= 1, site.url(path) + " fetched");
        repeated += (int) site.count(path) - 1;
      }
    }
    assertTrue(repeated <= ORIGINS, "at most one repeated fetch per origin, got " + repeated);
    assertPoliteOnTheServers();
    for (int c = 0; c < 2; c++) {
      String out = output(c);
      assertEquals(1, count(out, "crawling paused until it is back"), "one line for the outage:\n" + out);
      assertTrue(out.contains("the crawl database is back after"), "one line for the return:\n" + out);
      assertFalse(out.contains("\tat "), "no stack trace:\n" + out);
      assertAuditPasses(c);
      String log = Files.readString(tmp.resolve("child" + c).resolve("logs/crawl.jsonl"));
      assertEquals(1, count(log, "\"event\":\"store-unavailable\""), "the crawl log says the database was lost");
      assertEquals(1, count(log, "\"event\":\"store-back\""), "the crawl log says it came back");
    }
    assertStoreComplete(store);
  }

  private void awaitOutput(int c, String text) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (!output(c).contains(text)) {
      assertTrue(System.nanoTime() < deadline, "child " + c + " printed \"" + text + "\":\n" + output(c));
      assertTrue(children.get(c).isAlive(), "child " + c + " is alive:\n" + output(c));
      TimeUnit.MILLISECONDS.sleep(50); // polling a file another process writes
    }
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) n++;
    return n;
  }

  private static void signal(String name, Process process) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
      assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + name);
    } catch (IOException | InterruptedException e) {
      throw new AssertionError("kill -" + name, e);
    }
  }

  private void page(TestSite site, String path, String... hrefs) {
    StringBuilder html = new StringBuilder("<!doctype html><title>" + path + "</title>");
    for (String href : hrefs) html.append("<a href=\"").append(href).append("\">link</a>\n");
    String body = html.toString();
    int siteIndex = sites.indexOf(site);
    site.route(path, ex -> {
      int n = pageRequests.incrementAndGet();
      userAgentOfRequest.put(n, ex.getRequestHeaders().getFirst("User-Agent"));
      currentPath.set(path);
      currentSite.set(siteIndex);
      onPageRequest.accept(n);
      TestSite.respond(ex, 200, "text/html", body);
    });
  }

  private static List<String> pagePaths() {
    List<String> paths = new ArrayList<>(List.of("/", "/late"));
    for (int i = 1; i <= CHAIN; i++) paths.add("/p" + i);
    return paths;
  }

  private Process startChild(int c, String storeUrl, String... extraArgs) throws IOException {
    return startChild(c, storeUrl, 2, extraArgs); // each process holds two origins at a time: six need three
  }

  private Process startChild(int c, String storeUrl, int concurrency, String... extraArgs) throws IOException {
    Path data = tmp.resolve("child" + c);
    StringBuilder yaml = new StringBuilder();
    yaml.append("user_agent: \"FleetBot-").append(c).append("/1.0\"\n");
    yaml.append("data_dir: \"").append(data).append("\"\n");
    yaml.append("seeds:\n");
    for (TestSite site : sites) yaml.append("  - \"").append(site.url("/")).append("\"\n");
    yaml.append("concurrency: ").append(concurrency).append("\n");
    yaml.append("politeness: { min_delay: ").append(MIN_DELAY_MILLIS).append("ms, response_time_factor: 0 }\n");
    yaml.append("network: { allow_private_addresses: true }\n");
    yaml.append("store: { kind: postgres, url: \"").append(storeUrl).append("\" }\n");
    yaml.append("fleet: { lease: 2s }\n");
    yaml.append("limits: { fetch_timeout: 1s }\n"); // a request must end within its lease
    Path config = Files.writeString(tmp.resolve("child" + c + ".yaml"), yaml);
    String[] args = new String[extraArgs.length + 1];
    args[0] = "--quiet";
    System.arraycopy(extraArgs, 0, args, 1, extraArgs.length);
    return org.forager.testweb.ChildCrawl.start(config, tmp.resolve("child" + c + ".out"), args);
  }

  private int awaitExit(int c) throws Exception {
    Process child = children.get(c);
    boolean exited = child.waitFor(WAIT_SECONDS, TimeUnit.SECONDS);
    assertTrue(exited, "child " + c + " ended within " + WAIT_SECONDS + " s:\n" + output(c));
    if (child.exitValue() != 0) System.err.println(output(c));
    return child.exitValue();
  }

  private String output(int c) throws IOException {
    return Files.readString(tmp.resolve("child" + c + ".out"));
  }

  private long pagesFetchedBy(int c) {
    return userAgentOfRequest.values().stream().filter(ua -> ua.startsWith("FleetBot-" + c + "/")).count();
  }

  private void assertPoliteOnTheServers() {
    for (TestSite site : sites) {
      assertEquals(1, site.maxInFlight(), site.origin() + ": never two requests in flight, across processes");
      assertTrue(site.minIntervalMillis() >= MIN_DELAY_MILLIS,
          site.origin() + ": every interval at least min_delay, got " + site.minIntervalMillis() + " ms");
    }
  }

  private void assertAuditPasses(int c) {
    PolitenessAudit.Report report = PolitenessAudit.audit(tmp.resolve("child" + c).resolve("logs/crawl.jsonl"));
    assertTrue(report.polite(), "child " + c + ": " + report.violations());
  }

  private static void assertStoreComplete(String url) {
    try (CrawlStore store = PostgresCrawlStore.open(url)) {
      assertEquals(ORIGINS * PAGES, store.urlCount());
      store.forEachUrl(u -> assertTrue(u.lastCrawl().isPresent(), u.url() + " was crawled"));
    }
  }
}
