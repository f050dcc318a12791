package org.forager.dns;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** {@link Resolver#pinned}: fixed answers for some names, another resolver for the rest. Immutable. */
final class PinnedResolver implements Resolver {

  private final Map<String, List<InetAddress>> pins;
  private final Resolver fallback;

  PinnedResolver(Map<String, List<InetAddress>> pins, Resolver fallback) {
    this.pins = pins.entrySet().stream().collect(Collectors.toUnmodifiableMap(
        e -> e.getKey().toLowerCase(Locale.ROOT), e -> List.copyOf(e.getValue())));
    if (this.pins.values().stream().anyMatch(List::isEmpty)) {
      throw new IllegalArgumentException("a pinned host name needs at least one address");
    }
    this.fallback = fallback;
  }

  @Override
  public List<InetAddress> resolve(String host) throws UnknownHostException {
    String name = host.toLowerCase(Locale.ROOT);
    // "a.test." is the fully qualified spelling of "a.test": pinned alike, or it would reach DNS.
    if (name.endsWith(".")) name = name.substring(0, name.length() - 1);
    List<InetAddress> pinned = pins.get(name);
    return pinned != null ? pinned : fallback.resolve(host);
  }

  @Override
  public String toString() {
    return pins.size() + " pinned names, then the " + fallback;
  }
}
