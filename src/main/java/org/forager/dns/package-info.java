/**
 * Turns host names into the addresses the fetcher connects to: the {@link org.forager.dns.Resolver}
 * seam; behind it the cache with record TTLs clamped to bounds, negative answers and a deadline per
 * lookup ({@link org.forager.dns.CachingResolver}), asking name servers itself through dnsjava after
 * the hosts file, or the system resolver; and the names pinned by {@code network.resolve} in front
 * of all. What may be connected to is not decided here but by the fetcher's network policy, on every
 * answer this package gives.
 */
package org.forager.dns;
