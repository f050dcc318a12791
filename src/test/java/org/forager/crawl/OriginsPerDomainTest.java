package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The fixed-memory count of origins per domain: never under the truth, and near it at scale. */
class OriginsPerDomainTest {

  @Test
  void countsEachDomainApartWhenFew() {
    OriginsPerDomain counts = new OriginsPerDomain();
    for (int i = 0; i < 7; i++) counts.add("trap.example");
    counts.add("example.org");
    assertEquals(7, counts.estimate("trap.example"));
    assertEquals(1, counts.estimate("example.org"));
    assertEquals(0, counts.estimate("example.net"));
  }

  /**
   * Three million origins of a million domains (one to five each) and one domain of 10,000: every
   * estimate is at least the true count, and the worst one over it by far less than a cap of
   * thousands needs.
   */
  @Test
  void aMillionDomainsAreNeverUndercountedAndLittleOvercounted() {
    OriginsPerDomain counts = new OriginsPerDomain();
    int domains = 1_000_000;
    for (int d = 0; d < domains; d++) {
      for (int k = 0; k <= d % 5; k++) counts.add("site" + d + ".example");
    }
    for (int i = 0; i < 10_000; i++) counts.add("trap.example");
    int worst = 0;
    for (int d = 0; d < domains; d++) {
      int over = counts.estimate("site" + d + ".example") - (d % 5 + 1);
      assertTrue(over >= 0, "site" + d + " undercounted by " + -over);
      worst = Math.max(worst, over);
    }
    assertTrue(worst <= 20, "the worst overcount is " + worst);
    int trap = counts.estimate("trap.example");
    assertTrue(trap >= 10_000 && trap <= 10_020, "trap.example: " + trap);
  }

  /** IP addresses count by network: links to the many addresses of one /64 are one domain's. */
  @Test
  void ipAddressesCountByTheirNetwork() {
    assertEquals(KnownOrigins.domainOf("[2001:db8::1]"), KnownOrigins.domainOf("[2001:db8::ffff:2]"));
    assertEquals("20010db8000000000000000000000001".substring(0, 16) + "/64", KnownOrigins.domainOf("[2001:db8::1]"));
    assertEquals(KnownOrigins.domainOf("192.0.2.7"), KnownOrigins.domainOf("192.0.2.200"));
    assertEquals("c00002/24", KnownOrigins.domainOf("192.0.2.7"));
    assertTrue(!KnownOrigins.domainOf("192.0.3.7").equals(KnownOrigins.domainOf("192.0.2.7")));
    assertEquals("example.co.uk", KnownOrigins.domainOf("a.b.example.co.uk"));
  }
}
