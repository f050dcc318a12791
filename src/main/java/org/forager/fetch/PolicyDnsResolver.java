package org.forager.fetch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;

/**
 * Resolves host names with the system resolver and drops every address the {@link NetworkPolicy}
 * refuses, so the connection is only ever attempted to a public address. Checking here, on the
 * addresses actually used to connect, closes the DNS-rebinding gap a check before the request
 * would leave. IP-literal hosts pass through here too (the system resolver returns the literal).
 * Thread-safe.
 */
final class PolicyDnsResolver implements DnsResolver {

  private final DnsResolver system = SystemDefaultDnsResolver.INSTANCE;

  @Override
  public InetAddress[] resolve(String host) throws UnknownHostException {
    InetAddress[] all = system.resolve(host);
    InetAddress[] allowed = Arrays.stream(all).filter(a -> !NetworkPolicy.isBlocked(a))
        .toArray(InetAddress[]::new);
    if (allowed.length == 0) throw new BlockedAddressException(host);
    return allowed;
  }

  @Override
  public String resolveCanonicalHostname(String host) throws UnknownHostException {
    return system.resolveCanonicalHostname(host);
  }
}
