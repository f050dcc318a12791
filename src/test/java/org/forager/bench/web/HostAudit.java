package org.forager.bench.web;

import java.util.OptionalLong;

/**
 * What one host saw, from the server's request log. Times are {@link System#nanoTime()} values.
 *
 * @param requests every request, whatever its outcome
 * @param pages requests answered with a page (200)
 * @param robots requests for /robots.txt
 * @param privateRequests requests under /private/, which robots.txt disallows
 * @param skippedExtension requests for .jpg and .pdf URLs
 * @param otherRequests requests for anything else (404, or 400/405/431 for bad requests)
 * @param aborted requests whose response was never completely written
 * @param connections distinct connections that carried its requests
 * @param maxInFlight the most requests in flight at once: a request is in flight from its arrival to
 *     the end of its response write (an end and an arrival at the same instant do not overlap)
 * @param minIntervalNanos over every request but the first, the smallest time from the latest end of
 *     a response write before its arrival to its arrival; negative when requests overlapped. Empty
 *     with fewer than two requests
 * @param minIntervalFromWriteStartNanos the same measured from when the response writes started: an
 *     upper bound of the gap the client left, where {@code minIntervalNanos} is a lower bound
 * @param firstArrivalNanos arrival of the first request (0 if none)
 * @param lastEndNanos end of the last response write (0 if none)
 */
public record HostAudit(int host, String address, long requests, long pages, long robots,
    long privateRequests, long skippedExtension, long otherRequests, long aborted, long connections,
    int maxInFlight, OptionalLong minIntervalNanos, OptionalLong minIntervalFromWriteStartNanos,
    long firstArrivalNanos, long lastEndNanos) {}
