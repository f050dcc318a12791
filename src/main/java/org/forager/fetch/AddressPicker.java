package org.forager.fetch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * The address a fetch of a host connects to, chosen before the fetch so that the crawl can take that
 * address's politeness slot and then pin the fetch to it ({@link FetchRequest#address()}): the first
 * address the fetcher's resolver answers that its network policy allows, or the host itself when it
 * is an IP literal. It asks the very resolver (and cache) the fetcher uses, so choosing costs no
 * lookup the fetch would not have made. An address that could not be connected to lately ({@link
 * #unreachable}) is passed over for the host's next one, as browsers fall back, so that a host with one
 * dead address of several is crawled through the others (each request still goes to one address only,
 * whose slot it holds). Thread-safe if the resolver is.
 */
public final class AddressPicker {

  /** How long an address that could not be connected to is passed over while its host has another. */
  static final long PASS_OVER_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(10);
  /** Addresses remembered as unreachable at most; forgotten all at once beyond (a bound, never wrong). */
  static final int REMEMBERED = 65_536;

  private final PolicyDnsResolver resolver;
  /** Until when ({@link System#nanoTime()}) each address that could not be connected to is passed over. */
  private final java.util.concurrent.ConcurrentHashMap<java.net.InetSocketAddress, Long> unreachable =
      new java.util.concurrent.ConcurrentHashMap<>();

  private AddressPicker(PolicyDnsResolver resolver) {
    this.resolver = resolver;
  }

  /** The picker of the fetcher these options build: same resolver, same network policy. */
  public static AddressPicker of(HttpFetcher.Options options) {
    return new AddressPicker(new PolicyDnsResolver(options.resolver(), !options.allowPrivateAddresses()));
  }

  /**
   * The address to connect to for {@code host} (as in a normalized URL; IPv6 literals in brackets) on
   * {@code port},
   * or empty when it has none the policy allows or cannot be resolved now: the fetch then finds the
   * same failure itself and reports it (DNS_ERROR, BLOCKED_BY_NETWORK_POLICY).
   */
  public Optional<InetAddress> pick(String host, int port) {
    try {
      InetAddress[] addresses = resolver.resolve(host);
      if (addresses.length == 0) return Optional.empty();
      if (addresses.length == 1 || unreachable.isEmpty()) return Optional.of(addresses[0]);
      long now = System.nanoTime();
      for (InetAddress address : addresses) {
        Long until = unreachable.get(new java.net.InetSocketAddress(address, port));
        if (until == null || until - now <= 0) return Optional.of(address);
      }
      return Optional.of(addresses[0]); // none answered lately: the first, as the answer orders them
    } catch (UnknownHostException e) {
      return Optional.empty(); // BlockedAddressException included
    }
  }

  /**
   * No connection could be made to {@code address} on {@code port} ({@link FetchResult.Failure#unconnected}):
   * its hosts' next requests to that port go to another of their addresses for {@value #PASS_OVER_NANOS}
   * ns, where they have one. By port: a port closed says nothing of the address's others.
   */
  public void unreachable(InetAddress address, int port) {
    if (unreachable.size() >= REMEMBERED) unreachable.clear();
    unreachable.put(new java.net.InetSocketAddress(address, port), System.nanoTime() + PASS_OVER_NANOS);
  }
}
