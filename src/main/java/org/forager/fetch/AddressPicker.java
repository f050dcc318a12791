package org.forager.fetch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * The address a fetch of a host connects to, chosen before the fetch so that the crawl can take that
 * address's politeness slot and then pin the fetch to it ({@link FetchRequest#address()}): the first
 * address the fetcher's resolver answers that its network policy allows, or the host itself when it
 * is an IP literal. It asks the very resolver (and cache) the fetcher uses, so choosing costs no
 * lookup the fetch would not have made. Thread-safe if the resolver is.
 */
public final class AddressPicker {

  private final PolicyDnsResolver resolver;

  private AddressPicker(PolicyDnsResolver resolver) {
    this.resolver = resolver;
  }

  /** The picker of the fetcher these options build: same resolver, same network policy. */
  public static AddressPicker of(HttpFetcher.Options options) {
    return new AddressPicker(new PolicyDnsResolver(options.resolver(), !options.allowPrivateAddresses()));
  }

  /**
   * The address to connect to for {@code host} (as in a normalized URL; IPv6 literals in brackets),
   * or empty when it has none the policy allows or cannot be resolved now: the fetch then finds the
   * same failure itself and reports it (DNS_ERROR, BLOCKED_BY_NETWORK_POLICY).
   */
  public Optional<InetAddress> pick(String host) {
    try {
      InetAddress[] addresses = resolver.resolve(host);
      return addresses.length == 0 ? Optional.empty() : Optional.of(addresses[0]);
    } catch (UnknownHostException e) {
      return Optional.empty(); // BlockedAddressException included
    }
  }
}
