package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.forager.audit.PolitenessAudit;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Politeness per IP address, seen from the server: several host names, each its own site (its own
 * port, so its own origin), all resolved to 127.0.0.1 by {@code network.resolve}, the way thousands of
 * sites share one server at a hosting company.
 */
@Timeout(120)
class IpPolitenessCrawlTest {

  static final String[] HOSTS = {"a.shared.test", "b.shared.test", "c.shared.test", "d.shared.test"};

  @TempDir Path tmp;

  /**
   * One server behind every site: counts the requests in flight to it across the sites, and holds
   * each request until more than {@code allowed} are in flight or {@code holdMillis} passed, so that a
   * crawler sending more at once is caught in the act (the wait is bounded; it is not the test's
   * synchronisation: the counts are).
   */
  static final class SharedServer {
    final int allowed;
    final long holdNanos;
    final ReentrantLock lock = new ReentrantLock();
    final Condition arrived = lock.newCondition();
    int inFlight;
    int maxInFlight;
    /** Arrival and answer times ({@link System#nanoTime()}) of every request, across the sites. */
    final List<long[]> requests = new ArrayList<>();

    SharedServer(int allowed, long holdMillis) {
      this.allowed = allowed;
      this.holdNanos = TimeUnit.MILLISECONDS.toNanos(holdMillis);
    }

    TestSite.Route answer(String contentType, String body) {
      return ex -> {
        long at = System.nanoTime();
        long answered;
        lock.lock();
        try {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          arrived.signalAll();
          long left = holdNanos;
          while (inFlight <= allowed && left > 0) left = arrived.awaitNanos(left);
          inFlight--;
          answered = System.nanoTime();
          requests.add(new long[] {at, answered});
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        } finally {
          lock.unlock();
        }
        TestSite.respond(ex, 200, contentType, body);
      };
    }

    /** A site with robots.txt, a home page linking to two pages, and the pages, all answered here. */
    TestSite site() throws java.io.IOException {
      return site("127.0.0.1");
    }

    /** {@link #site()} on a loopback address of its own. */
    TestSite site(String address) throws java.io.IOException {
      TestSite site = TestSite.start(address, 0);
      site.route("/robots.txt", answer("text/plain", "User-agent: *\nAllow: /\n"));
      site.route("/", answer("text/html", "<a href=\"/1\">1</a><a href=\"/2\">2</a>"));
      site.route("/1", answer("text/html", "<p>one</p>"));
      site.route("/2", answer("text/html", "<p>two</p>"));
      return site;
    }

    int requestCount() {
      lock.lock();
      try {
        return requests.size();
      } finally {
        lock.unlock();
      }
    }

    /** The shortest time from answering one request to the arrival of the next one, in ms. */
    double minGapMillis() {
      lock.lock();
      try {
        List<long[]> sorted = new ArrayList<>(requests);
        sorted.sort(Comparator.comparingLong(r -> r[0]));
        double min = Double.POSITIVE_INFINITY;
        for (int i = 1; i < sorted.size(); i++) min = Math.min(min, (sorted.get(i)[0] - sorted.get(i - 1)[1]) / 1e6);
        return min;
      } finally {
        lock.unlock();
      }
    }
  }

  private List<TestSite> sites(SharedServer server, int count) throws java.io.IOException {
    List<TestSite> sites = new ArrayList<>();
    for (int i = 0; i < count; i++) sites.add(server.site());
    return sites;
  }

  static List<String> seeds(List<TestSite> sites) {
    List<String> seeds = new ArrayList<>();
    for (int i = 0; i < sites.size(); i++) seeds.add(sites.get(i).url(HOSTS[i], "/"));
    return seeds;
  }

  private static String config(String perIp) {
    return "concurrency: 8\n"
        + "politeness: { min_delay: 20ms, max_delay: 2s, response_time_factor: 0" + perIp + " }\n"
        + TestCrawl.pinnedToLoopback(HOSTS);
  }

  private static void closeAll(List<TestSite> sites) {
    sites.forEach(TestSite::close);
  }

  @Test
  void neverTwoRequestsInFlightToOneAddressAcrossItsHostsAndTheLogNamesTheAddress() throws Exception {
    SharedServer server = new SharedServer(1, 200);
    List<TestSite> sites = sites(server, 4);
    try {
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, seeds(sites), config("")));

      assertEquals(16, server.requestCount(), "robots.txt and three pages of each of the four sites");
      assertEquals(1, server.maxInFlight, "one request in flight to 127.0.0.1 at a time, whatever the host");
      List<JsonNode> requests = TestCrawl.log(data).stream().filter(a -> a.get("http_status").asInt() > 0).toList();
      assertEquals(16, requests.size());
      assertTrue(requests.stream().allMatch(a -> a.path("ip").asText().equals("127.0.0.1")), requests.toString());
      PolitenessAudit.Report audit = PolitenessAudit.audit(data.resolve("logs/crawl.jsonl"));
      assertEquals(1, audit.ips().size());
      assertEquals(4, audit.ips().get(0).origins());
      assertEquals(1, audit.ips().get(0).maxInFlight());
    } finally {
      closeAll(sites);
    }
  }

  @Test
  void maxInFlightTwoAllowsTwoAndNoMoreAndTheAuditHoldsTheCrawlToWhatItWasGiven() throws Exception {
    SharedServer server = new SharedServer(2, 200);
    List<TestSite> sites = sites(server, 4);
    try {
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, seeds(sites), config(", per_ip: { max_in_flight: 2 }")));

      assertEquals(16, server.requestCount());
      assertEquals(2, server.maxInFlight, "two in flight to one address, never three");
      Path log = data.resolve("logs/crawl.jsonl");
      assertTrue(PolitenessAudit.audit(log, new PolitenessAudit.PerIp(2, 0)).polite());
      PolitenessAudit.Report strict = PolitenessAudit.audit(log, PolitenessAudit.PerIp.DEFAULTS);
      assertFalse(strict.polite(), "audited for one in flight, the same log is not");
      assertTrue(strict.violations().stream().allMatch(v -> v.rule().equals("in flight per IP")), strict.violations().toString());
    } finally {
      closeAll(sites);
    }
  }

  @Test
  void thePerIpDelayIsKeptBetweenRequestsToDifferentHostsOfOneAddress() throws Exception {
    SharedServer server = new SharedServer(Integer.MAX_VALUE, 0);
    List<TestSite> sites = sites(server, 3);
    try {
      Path data = tmp.resolve("data");
      TestCrawl.run(TestCrawl.config(data, seeds(sites), config(", per_ip: { min_delay: 150ms }")));

      assertEquals(12, server.requestCount());
      // Each origin's own delay is 20 ms: only the address's delay can keep these gaps.
      assertTrue(server.minGapMillis() >= 150, "gap " + server.minGapMillis() + " ms");
      assertTrue(PolitenessAudit.audit(data.resolve("logs/crawl.jsonl"), new PolitenessAudit.PerIp(1, 150)).polite());
    } finally {
      closeAll(sites);
    }
  }
}
