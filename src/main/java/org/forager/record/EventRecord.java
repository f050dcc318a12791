package org.forager.record;

import java.time.Instant;

/**
 * One line of the crawl log about the crawl itself rather than a URL, written as {@code "kind":
 * "event"}: today the crawl database lost and back in a fleet ({@code store-unavailable}, {@code
 * store-back}). No request is made by it; the audit passes over it.
 *
 * @param ts when it happened
 * @param event what happened, a short fixed name
 * @param detail the one-line explanation shown to the operator too
 */
public record EventRecord(Instant ts, String event, String detail) {}
