package org.forager.policy;

import java.util.Optional;
import java.util.Set;

/**
 * Hosts excluded by name: exact hosts, and domains that cover themselves and every subdomain
 * ({@code example.com} covers {@code www.example.com} and {@code a.b.example.com}, not
 * {@code myexample.com}). Names are in normalized form (see {@code UrlNormalizer.host}). Immutable and
 * thread-safe; a match costs one set lookup per label of the host.
 */
record HostRules(Set<String> hosts, Set<String> domains) {

  static final HostRules NONE = new HostRules(Set.of(), Set.of());

  HostRules {
    hosts = Set.copyOf(hosts);
    domains = Set.copyOf(domains);
  }

  boolean isEmpty() {
    return hosts.isEmpty() && domains.isEmpty();
  }

  /** The rule that covers {@code host} ("host h" or "domain d"), if one does. */
  Optional<String> match(String host) {
    // "example.com." names the same host as "example.com" (a fully qualified name).
    if (host.endsWith(".")) host = host.substring(0, host.length() - 1);
    if (hosts.contains(host)) return Optional.of("host " + host);
    if (domains.isEmpty()) return Optional.empty();
    if (domains.contains(host)) return Optional.of("domain " + host);
    // An IP address has no subdomains: "0.0.1" is not a domain of "10.0.0.1".
    if (host.startsWith("[") || isIpv4(host)) return Optional.empty();
    for (int dot = host.indexOf('.'); dot >= 0; dot = host.indexOf('.', dot + 1)) {
      String domain = host.substring(dot + 1);
      if (domains.contains(domain)) return Optional.of("domain " + domain);
    }
    return Optional.empty();
  }

  private static boolean isIpv4(String host) {
    return !host.isEmpty() && Character.isDigit(host.charAt(host.length() - 1))
        && host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
  }
}
