package org.forager.fetch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.forager.dns.IpLiterals;
import org.forager.dns.Resolver;

/**
 * The fetcher's name resolution: an IP-literal host is its own address (never looked up, never
 * pinned); a host name is asked of the {@link Resolver} seam. Unless private addresses are allowed,
 * every address the {@link NetworkPolicy} refuses is dropped from the answer, so the client only ever
 * tries to connect to what is left ({@link PolicySockets} checks each again at connect). The client
 * asks once per connection it opens and connects to exactly this answer: no earlier lookup is ever
 * trusted, which is what defeats DNS rebinding. Thread-safe if the seam is.
 */
final class PolicyDnsResolver {

  private final Resolver resolver;
  private final boolean enforcePolicy;

  PolicyDnsResolver(Resolver resolver, boolean enforcePolicy) {
    this.resolver = resolver;
    this.enforcePolicy = enforcePolicy;
  }

  /** The addresses to connect to, in order; never empty. */
  InetAddress[] resolve(String host) throws UnknownHostException {
    List<InetAddress> all = lookup(host);
    if (!enforcePolicy) return all.toArray(InetAddress[]::new);
    InetAddress[] allowed = all.stream().filter(a -> !NetworkPolicy.isBlocked(a)).toArray(InetAddress[]::new);
    if (allowed.length == 0) {
      throw new BlockedAddressException(host + " resolves only to addresses refused by the network policy ("
          + all.stream().map(InetAddress::getHostAddress).collect(Collectors.joining(", ")) + ")");
    }
    return allowed;
  }

  private List<InetAddress> lookup(String name) throws UnknownHostException {
    Optional<InetAddress> literal = IpLiterals.parse(name);
    if (literal.isPresent()) return List.of(literal.get());
    String host = ascii(name);
    List<InetAddress> answer;
    try {
      answer = resolver.resolve(host);
    } catch (RuntimeException e) {
      // A seam that fails in an unplanned way still fails only this fetch, as a DNS failure.
      throw (UnknownHostException) new UnknownHostException(host + ": " + e).initCause(e);
    }
    if (answer == null || answer.isEmpty()) throw new UnknownHostException(host + ": no address");
    return answer;
  }

  /**
   * The ASCII (xn--) form DNS and the pins know a name by. URLs reach the fetcher with their hosts in
   * ASCII already; a caller that asks with a Unicode name (HttpClient, which the fetcher once ran on,
   * turned {@code xn--} back into Unicode before asking) gets the same answer. UTS #46 as the URL
   * Standard has it, as the URL parser does: IDNA2003 (java.net.IDN) turned {@code faß.test}, the
   * Unicode form of {@code xn--fa-hia.test}, into {@code fass.test}, another site.
   */
  static String ascii(String host) {
    if (host.chars().allMatch(c -> c < 0x80)) return host;
    // Not a name UTS #46 can write: asked as it is, and fails as a DNS failure.
    return org.forager.url.Idna.toAscii(host).orElse(host);
  }
}
