package org.forager.dns;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;

/**
 * Answers which addresses a host name has. The one seam between the crawl and DNS: the fetcher asks
 * it once per connection it opens and connects to what it answers (after its network policy has
 * dropped refused addresses), so no earlier judgement is ever trusted for a later connection (the
 * answer may come from a {@link CachingResolver}; it is judged again all the same).
 *
 * <p>Implementations must be safe for concurrent use: every crawl thread resolves through one
 * instance. The fetcher reads IP literals itself ({@link IpLiterals}): a resolver is asked about host
 * names, and never gets to answer for {@code 10.0.0.5} or {@code [::1]}.
 */
@FunctionalInterface
public interface Resolver {

  /**
   * The addresses of {@code host}, in the order to try them.
   *
   * @param host an ASCII host name as it appears in a normalized URL (lower case, IDNA-encoded)
   * @return at least one address
   * @throws UnknownHostException when the name has no address (or cannot be resolved now)
   */
  List<InetAddress> resolve(String host) throws UnknownHostException;

  /** The operating system's resolver ({@link InetAddress#getAllByName}), with the JDK's cache. */
  static Resolver system() {
    return SystemResolver.INSTANCE;
  }

  /**
   * Answers the names in {@code pins} with their addresses, without asking DNS (curl's {@code
   * --resolve}); every other name is asked of {@code fallback}.
   *
   * @param pins host names (matched without case) to one or more addresses each
   */
  static Resolver pinned(Map<String, List<InetAddress>> pins, Resolver fallback) {
    return pins.isEmpty() ? fallback : new PinnedResolver(pins, fallback);
  }
}
