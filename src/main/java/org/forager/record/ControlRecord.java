package org.forager.record;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One line of the crawl log that is not a crawl action: an operator's order to the running crawl
 * ({@code forager ctl}, the status page's buttons, the control API), written as {@code "kind":
 * "control"}. No request is made by it; the politeness audit reads {@code set-delay} lines to know
 * the delay the operator set.
 *
 * @param ts when the order was carried out
 * @param action {@code pause}, {@code resume}, {@code pause-origin}, {@code resume-origin},
 *     {@code set-delay}, {@code block}, {@code unblock}, {@code add-seed} or {@code stop}
 * @param by who gave it: {@code cli} ({@code forager ctl}), {@code page} (the status page) or
 *     {@code api} (any other client of the control API)
 * @param target what it is about: an origin, a host, a URL; empty for the whole crawl
 * @param delayMillis {@code set-delay}: the delay set (the origin's delay in force is at least this)
 * @param result what came of it, e.g. {@code added}, {@code refused: out of scope}
 */
public record ControlRecord(Instant ts, String action, String by, Optional<String> target, OptionalLong delayMillis,
    Optional<String> result) {

  /** An order about the whole crawl or one thing, with nothing more to say. */
  public static ControlRecord of(Instant ts, String action, String by, Optional<String> target) {
    return new ControlRecord(ts, action, by, target, OptionalLong.empty(), Optional.empty());
  }

  /** This record with {@code result}. */
  public ControlRecord withResult(String result) {
    return new ControlRecord(ts, action, by, target, delayMillis, Optional.of(result));
  }
}
