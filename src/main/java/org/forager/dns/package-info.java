/**
 * Turns host names into the addresses the fetcher connects to: the {@link org.forager.dns.Resolver}
 * seam, the system resolver behind it, the cache with a deadline per lookup in front of that
 * ({@link org.forager.dns.CachingResolver}), and the names pinned by {@code network.resolve} in front
 * of all. What may be connected to is not decided here but by the fetcher's network policy, on every
 * answer this package gives.
 */
package org.forager.dns;
