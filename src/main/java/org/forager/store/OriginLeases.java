package org.forager.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import org.forager.url.Origin;

/**
 * Origins leased to one crawler process at a time, so that several processes sharing one crawl
 * database never crawl one origin at once (docs/fleet.md, "How leases work"). A store shared by a
 * fleet offers it through {@link CrawlStore#leases()}; the crawl loop uses leases exactly when its
 * store does. Implementations must be safe for concurrent use, within a process and across processes.
 *
 * <p>Lease times are the store's clock; a caller must consider a lease ended {@code lease} after it
 * sent the call that granted or renewed it, whatever it hears later.
 *
 * <p>Leases are fenced: each claim of an origin is a new epoch of it, and the store remembers the
 * epoch it granted this process (a store instance is one process's). Writes that depend on holding
 * an origin ({@link CrawlStore#record} of its URLs, {@link CrawlStore#saveOriginState} of it, {@link
 * #release}) are refused once another claim moved its epoch: {@code record} and {@code
 * saveOriginState} throw {@link LeaseLostException} and write nothing, {@code release} returns
 * false. An origin this process never claimed is not fenced.
 */
public interface OriginLeases {

  /** How an origin is given back, which says when it is worth claiming again. */
  sealed interface Release {
    /** Work is left (the process stops): free for any claim at once. */
    record Unfinished() implements Release {}

    /**
     * Nothing was due at {@code cutoff}: the store records the origin's next due time (infinity when
     * it has no URL), unless a URL due at {@code cutoff} was added meanwhile (then it is free at once).
     */
    record NothingDue(Instant cutoff) implements Release {}

    /** Done with until {@code doneUntil} whatever is due (out of patience, put off by the site). */
    record DoneUntil(Instant doneUntil) implements Release {}

    /**
     * Left alone until {@code until} whatever is due, its work still the run's (unlike {@link
     * DoneUntil}, which a run whose cutoff is earlier never claims again): free for any claim then, or
     * at once when {@link #endRests} ends the rest. An origin the operator blocked.
     */
    record Resting(Instant until) implements Release {}
  }

  /**
   * Leases up to {@code max} free origins of the scope to {@code owner} for {@code lease}. Free: no
   * unexpired lease of any owner on it, and not done until after {@code dueBy} (see {@link Release}).
   * Two owners never hold one origin.
   *
   * @param owner names the crawler process, unique in the fleet (host, process id, random part)
   * @param dueBy the claimer's cutoff: it crawls only URLs due by then
   * @return the origins now leased to {@code owner}, which it did not hold before
   */
  List<Origin> claim(String owner, int max, Duration lease, Instant dueBy);

  /**
   * Extends every lease of {@code owner} to {@code lease} from now, expired ones included when no
   * other owner took them.
   *
   * @return the origins {@code owner} holds now; it must start no turn on any other
   */
  List<Origin> renew(String owner, Duration lease);

  /**
   * Gives up {@code owner}'s lease on {@code origin}.
   *
   * @return whether {@code owner} held it
   */
  boolean release(String owner, Origin origin, Release release);

  /**
   * Ends the rest ({@link Release.Resting}) of every origin resting now that {@code which} accepts:
   * free for any claim at once (the operator lifted their block).
   *
   * @return how many
   */
  int endRests(Predicate<Origin> which);

  /** Whether an owner other than {@code owner} holds an unexpired lease (so may still find work, or die). */
  boolean othersHoldLeases(String owner);

  /**
   * Takes or extends {@code owner}'s lease on an IP address for {@code lease} from now, when no other
   * owner holds an unexpired one: per-IP politeness across the fleet (docs/crawl-loop.md, "Politeness
   * per IP address"). A process requests an address only while it holds its lease, so every origin of
   * one address is crawled by one process at a time, whatever origins each leased.
   *
   * @param address the address's textual form ({@code 192.0.2.1}, {@code 2001:db8::1})
   * @return whether {@code owner} holds it now (until {@code lease} after this call was sent)
   */
  boolean holdAddress(String owner, String address, Duration lease);

  /** Gives up {@code owner}'s lease on an address, if it holds it. */
  void releaseAddress(String owner, String address);
}
