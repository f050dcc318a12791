/**
 * A synthetic web for benchmarks: one small NIO server that answers as thousands of hosts on
 * distinct loopback addresses (127.1.x.y), each with a fixed number of deterministic ~30 KB HTML
 * pages linked to one another, a robots.txt, optional per-response latency, and a server-side
 * request log from which {@link org.forager.bench.web.Audit} proves politeness (intervals, requests
 * in flight, connections) and coverage. It lives with the tests, not in the product; run it with
 * {@link org.forager.bench.web.SyntheticWeb} (docs/benchmarks.md). The server is built to be cheap
 * (one event-loop thread, pages assembled from precomputed byte fragments) so that it does not
 * dominate a crawl measurement.
 */
package org.forager.bench.web;
