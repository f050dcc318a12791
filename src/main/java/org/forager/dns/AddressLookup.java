package org.forager.dns;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Asks where a host name points without holding the caller: the answer comes as a future, so a
 * virtual thread waiting for it unmounts. What a {@link CachingResolver} stands in front of.
 * Implementations are safe for concurrent use.
 */
interface AddressLookup {

  /**
   * Starts looking {@code name} up.
   *
   * @param name a host name, lower case, as in a normalized URL
   * @return a future completing with what was found, or exceptionally with an {@link
   *     UnknownHostException} saying why not (no such name, no address, the servers failed or did
   *     not answer); cancelling it gives the lookup up (a queued one never starts)
   */
  CompletableFuture<Found> lookup(String name);

  /**
   * A positive answer.
   *
   * @param addresses at least one, in the order to try them
   * @param ttl how long the records may be kept, when the source tells (DNS does; the system
   *     resolver and the hosts file do not)
   */
  record Found(List<InetAddress> addresses, Optional<Duration> ttl) {
    public Found {
      addresses = List.copyOf(addresses);
      if (addresses.isEmpty()) throw new IllegalArgumentException("an answer has at least one address");
      Objects.requireNonNull(ttl, "ttl");
    }
  }
}
