package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import org.forager.store.postgres.PostgresCrawlStore;
import org.forager.store.postgres.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Address leases of two processes on a real PostgreSQL server: the one that finds an address held by
 * the other counts it as waited for (its progress line says so), and no longer once it holds it.
 */
@Timeout(120)
class FleetAddressesTest {

  @TempDir Path serverDir;

  @Test
  void anAddressAnotherProcessHoldsIsCountedAsWaitedFor() throws Exception {
    try (TestPostgres postgres = TestPostgres.start(serverDir.resolve("pg"))) {
      String url = postgres.freshSchema();
      try (PostgresCrawlStore one = PostgresCrawlStore.open(url); PostgresCrawlStore two = PostgresCrawlStore.open(url)) {
        InetAddress address = InetAddress.getByName("192.0.2.1");
        FleetAddresses first = new FleetAddresses(one, "one", Duration.ofMinutes(1));
        FleetAddresses second = new FleetAddresses(two, "two", Duration.ofMinutes(1));
        assertTrue(first.mayRequest(address));
        assertEquals(0, first.heldByOthers());
        assertFalse(second.mayRequest(address), "held by the first process");
        assertEquals(1, second.heldByOthers());
        first.releaseAll();
        assertEquals(1, second.heldByOthers(), "asked again only a third of a lease later");
      }
    }
  }

  /**
   * A domain's lease: the process that takes it over waits the unit's delay before its first request
   * (the other may have sent its last just before letting go), then requests at once while it holds it;
   * a domain waited for is not an address on the progress line.
   */
  @Test
  void aDomainsLeaseTakenOverWaitsTheUnitsDelayFirst() throws Exception {
    try (TestPostgres postgres = TestPostgres.start(serverDir.resolve("pg"))) {
      String url = postgres.freshSchema();
      try (PostgresCrawlStore one = PostgresCrawlStore.open(url); PostgresCrawlStore two = PostgresCrawlStore.open(url)) {
        FleetAddresses first = new FleetAddresses(one, "one", Duration.ofMinutes(1));
        FleetAddresses second = new FleetAddresses(two, "two", Duration.ofMinutes(1));
        long delay = Duration.ofMinutes(5).toNanos();
        long before = System.nanoTime();
        var firstWait = first.domainWait("example.org", delay);
        assertTrue(firstWait.isPresent() && firstWait.getAsLong() - before >= delay, "taken: the delay first");
        assertEquals(firstWait, first.domainWait("example.org", delay), "still the same wait");
        assertTrue(second.domainWait("example.org", 0).isPresent(), "held by the first process");
        assertEquals(0, second.heldByOthers(), "a domain is no address waited for");
        assertTrue(first.mayRequest(InetAddress.getByName("192.0.2.1")), "an address is another lease");
        first.releaseAll();
        FleetAddresses third = new FleetAddresses(two, "three", Duration.ofMinutes(1));
        assertEquals(java.util.OptionalLong.empty(), third.domainWait("example.org", 0), "free again: no delay asked");
      }
    }
  }
}
