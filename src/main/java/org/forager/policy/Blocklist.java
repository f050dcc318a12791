package org.forager.policy;

import java.util.Collection;
import java.util.Optional;
import java.util.Set;

/**
 * The hosts an operator blocked in a running crawl ({@code forager ctl block}), as the {@link
 * Gatekeeper} reads them on every request: a name covers itself and every host under it
 * ({@code example.com} covers {@code www.example.com}; an IP address only itself). Names are in
 * normalized form. Replaced whole on each change, so a request sees the list before or after it,
 * never half of it. Thread-safe.
 */
public final class Blocklist {

  private volatile HostRules rules = HostRules.NONE;

  /** Blocks exactly {@code hosts} from now on (the previous list is replaced). */
  public void replace(Collection<String> hosts) {
    rules = new HostRules(Set.of(), Set.copyOf(hosts));
  }

  /** The names blocked now. */
  public Set<String> hosts() {
    return rules.domains();
  }

  /** Whether no host is blocked: nothing to check. */
  public boolean isEmpty() {
    return rules.isEmpty();
  }

  /** The block that covers {@code host}, as "host h" or "domain d" would read: the blocked name. */
  public Optional<String> covering(String host) {
    HostRules current = rules;
    if (current.isEmpty()) return Optional.empty();
    return current.match(host).map(rule -> rule.substring(rule.indexOf(' ') + 1));
  }
}
