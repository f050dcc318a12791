package org.forager.crawl;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.forager.store.OriginLeases;

/**
 * Per-IP politeness across a fleet (docs/crawl-loop.md, "Politeness per IP address"): this process
 * sends a request to an address only while it holds the address's lease in the shared store ({@link
 * OriginLeases#holdAddress}), so every origin of one address is crawled by one process at a time, and
 * the per-IP limits each process keeps ({@code frontier.Slots}) hold for the whole fleet. A lease is
 * asked for once and renewed when a third of it has passed, while the address is in use: a store call
 * per address every {@code fleet.lease / 3} at most, not one per request. An address another process
 * holds is asked again a third of a lease later. Thread-safe; what it remembers is bounded by the
 * addresses used within one lease.
 *
 * <p>A request is allowed only while more than two thirds of the address's lease are left (counted
 * from when the call that took or renewed it was sent, on the monotonic clock): more than the
 * request's own timeout, which a fleet's configuration keeps under half the lease. Address leases
 * guard no writes, so they carry no epoch (docs/fleet.md, "Fencing").
 *
 * <p>A domain crawled as one unit (a sites rule's {@code unit: domain}) has a lease of the same kind
 * ({@link #domainWait}): one process at a time sends requests to its hosts, whatever their addresses.
 */
final class FleetAddresses {

  /** How a domain's lease is keyed among the addresses': no address starts so. */
  static final String DOMAIN_KEY = "domain:";
  /** Addresses remembered before the expired ones are swept. */
  private static final int SWEEP_AT = 10_000;

  private final OriginLeases leases;
  private final String owner;
  private final Duration lease;
  private final long leaseNanos;
  /** Address → when this process's lease on it ends ({@link System#nanoTime()}); absent when not held. */
  private final Map<String, Long> heldUntil = new ConcurrentHashMap<>();
  /** Address → when to ask again for one another process holds. */
  private final Map<String, Long> askAgainAt = new ConcurrentHashMap<>();
  /** Domain lease → when its first request may go, for one newly taken ({@link #domainWait}). */
  private final Map<String, Long> firstRequestAt = new ConcurrentHashMap<>();

  FleetAddresses(OriginLeases leases, String owner, Duration lease) {
    this.leases = leases;
    this.owner = owner;
    this.lease = lease;
    this.leaseNanos = lease.toNanos();
  }

  /** Whether this process may send a request to {@code address} now (it holds, or just took, its lease). */
  boolean mayRequest(InetAddress address) {
    return hold(address.getHostAddress());
  }

  /**
   * For a domain crawled as one unit (a sites rule's {@code unit: domain}), whose hosts may be on many
   * addresses: empty when this process may send a request to one of its hosts now, else when to ask
   * again ({@link System#nanoTime()}). Its lease is an address lease keyed {@code domain:NAME}, which no
   * address spells. A lease this process did not hold a moment ago waits {@code minDelayNanos} before
   * its first request: the process that held it may have sent its last request just before it let go.
   */
  OptionalLong domainWait(String domain, long minDelayNanos) {
    String key = DOMAIN_KEY + domain;
    long now = System.nanoTime();
    Long until = heldUntil.get(key);
    boolean held = until != null && until - now > 0;
    if (!hold(key)) return OptionalLong.of(askAgainAt.getOrDefault(key, now + recheckNanos()));
    if (!held) firstRequestAt.put(key, now + minDelayNanos);
    Long first = firstRequestAt.get(key);
    if (first == null || first - now <= 0) {
      if (first != null) firstRequestAt.remove(key);
      return OptionalLong.empty();
    }
    return OptionalLong.of(first);
  }

  /** Takes or renews the lease of {@code key} (an address, or a domain's): whether a request may go now. */
  private boolean hold(String a) {
    long now = System.nanoTime();
    Long until = heldUntil.get(a);
    if (until != null && until - now > leaseNanos * 2 / 3) return true;
    Long again = askAgainAt.get(a);
    if (until == null && again != null && again - now > 0) return false;
    if (heldUntil.size() + askAgainAt.size() > SWEEP_AT) sweep(now);
    boolean held;
    try {
      held = leases.holdAddress(owner, a, lease);
    } catch (RuntimeException e) {
      // The database briefly unreachable: no request without the lease; asked again soon.
      Notice.println("forager: fleet: cannot take the lease of address " + a + ": " + e.getMessage());
      held = false;
    }
    if (held) {
      heldUntil.put(a, now + leaseNanos);
      askAgainAt.remove(a);
      // A reply that came late leaves less of the lease than a request may need: not now.
      return now + leaseNanos - System.nanoTime() > leaseNanos * 2 / 3;
    }
    heldUntil.remove(a);
    askAgainAt.put(a, now + recheckNanos());
    return false;
  }

  /** How long an origin whose address another process holds waits before it asks again. */
  long recheckNanos() {
    return Math.max(1_000_000L, leaseNanos / 3);
  }

  /** How many addresses another process holds that this one asked for lately (its origins there wait). */
  int heldByOthers() {
    long now = System.nanoTime();
    int n = 0;
    for (Map.Entry<String, Long> e : askAgainAt.entrySet()) {
      if (e.getValue() - now > 0 && !e.getKey().startsWith(DOMAIN_KEY)) n++;
    }
    return n;
  }

  /** Gives back every address lease held (the process stops): the others need not wait them out. */
  void releaseAll() {
    for (String a : heldUntil.keySet()) {
      try {
        leases.releaseAddress(owner, a);
      } catch (RuntimeException e) {
        // Its lease expires on its own.
      }
    }
    heldUntil.clear();
  }

  private void sweep(long now) {
    heldUntil.values().removeIf(until -> until - now <= 0);
    askAgainAt.values().removeIf(at -> at - now <= 0);
    firstRequestAt.values().removeIf(at -> at - now <= 0);
  }
}
