package org.forager.crawl;

import java.net.InetAddress;
import java.util.Optional;
import org.forager.fetch.AddressPicker;
import org.forager.frontier.Slots;
import org.forager.url.Origin;

/**
 * Politeness per IP address for the crawl loop (docs/crawl-loop.md, "Politeness per IP address"):
 * which address a request to an origin goes to ({@link AddressPicker}, the fetcher's own resolver and
 * policy) and the slots of those addresses ({@link Slots}). Thread-safe.
 *
 * @param minDelayMillis {@code politeness.per_ip.min_delay}, also owed between robots.txt redirect hops
 * @param fleet the address leases of a fleet process, which hold the limits across processes
 */
record IpGate(AddressPicker addresses, Slots<InetAddress> slots, long minDelayMillis, Optional<FleetAddresses> fleet) {

  /** The address a request to {@code origin} connects to; empty when it has none (DNS failure, policy). */
  Optional<InetAddress> address(Origin origin) {
    return addresses.pick(origin.host(), origin.port());
  }
}
