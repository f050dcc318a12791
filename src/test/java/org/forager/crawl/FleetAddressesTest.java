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
}
