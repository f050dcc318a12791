package org.forager.crawl;

import java.time.Duration;
import java.util.Optional;
import org.forager.fetch.Outcome;

/**
 * What a fetch result means for the URL (its outcome) and for the origin (the feedback).
 *
 * @param retryAfter the server's Retry-After, when it sent one with a rate limit
 * @param location the redirect target as sent, for 3xx
 */
record Classification(Outcome outcome, Feedback feedback, Optional<Duration> retryAfter, Optional<String> location) {

  /** What an outcome says about the origin's health, which drives retries and patience. */
  enum Feedback {
    /** The server answered normally (a 404 is a normal answer). */
    OK,
    /** 401, 403 or 451: access denied. One is an answer; many in a row cost patience. */
    DENIED,
    /** 429 or 503 with Retry-After: slow down, retry later. */
    RATE_LIMITED,
    /** Might succeed on a retry: timeout, reset, 503. */
    TRANSIENT,
    /** Unlikely to get better soon: 5xx, unresolvable host, not HTTP. Costs a patience point. */
    PERSISTENT,
    /**
     * Nothing of the origin can be fetched in this run: its address is refused by the network policy,
     * or its host name does not exist (DNS answered NXDOMAIN or no address). Gives the origin up.
     */
    REFUSED
  }

  static Classification of(Outcome outcome, Feedback feedback) {
    return new Classification(outcome, feedback, Optional.empty(), Optional.empty());
  }
}
