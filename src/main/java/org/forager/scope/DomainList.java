package org.forager.scope;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A {@code scope.allow} or {@code scope.deny} list: domains that cover themselves and their subdomains
 * ({@code example.org} covers {@code example.org} and {@code a.b.example.org}, not {@code
 * myexample.org}) and suffixes that cover every host under them ({@code .de}). An IP address covers
 * only itself. Entries and hosts are in normalized form. Immutable and thread-safe; a match costs one
 * or two set lookups per label of the host.
 */
final class DomainList {

  private final List<String> entries;
  private final Set<String> domains = new HashSet<>();
  private final Set<String> suffixes = new HashSet<>();

  /** @param entries as {@code ScopeConfig} holds them: a leading dot marks a suffix */
  DomainList(List<String> entries) {
    this.entries = List.copyOf(entries);
    for (String entry : entries) {
      if (entry.startsWith(".")) suffixes.add(entry.substring(1));
      else domains.add(entry);
    }
  }

  boolean isEmpty() {
    return entries.isEmpty();
  }

  /** The entry as configured that covers {@code host}, or null when none does. */
  String match(String host) {
    String name = Hosts.withoutTrailingDot(host);
    if (domains.contains(name)) return name;
    // An address has no subdomains: "0.0.1" does not cover "10.0.0.1"; an IPv6 spelling of an IPv4
    // host is that host.
    if (Hosts.isIp(name)) {
      String ipv4 = Hosts.embeddedIpv4(name);
      return ipv4 != null && domains.contains(ipv4) ? ipv4 : null;
    }
    for (int dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) {
      String tail = name.substring(dot + 1);
      if (domains.contains(tail)) return tail;
      if (suffixes.contains(tail)) return "." + tail;
    }
    return null;
  }

  @Override
  public String toString() {
    return entries.toString();
  }
}
