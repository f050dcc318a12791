/**
 * Watching a running crawl: an embedded HTTP server ({@link org.forager.status.StatusServer}, off
 * unless configured) with a self-contained live status page at {@code /}, the JSON it polls at
 * {@code /api/status} (totals, outcomes, pages per second over time, the busiest and slowest origins,
 * recent failures) and Prometheus metrics via Micrometer at {@code /metrics}. It learns what happens
 * from the crawl loop through {@link org.forager.crawl.CrawlListener} and times the crawl database's
 * calls by decorating the {@link org.forager.store.CrawlStore}; it changes nothing in the crawl but
 * through the control API ({@code /api/control/...}: {@link org.forager.status.ControlServer}, always
 * on loopback, and on the status server for the page's buttons), which takes an operator's orders to
 * {@link org.forager.crawl.CrawlControl} with the crawl's token only. The server
 * is small and bounded (connections, time, bytes) and answers only the host names it is known by, so
 * neither a flood of clients nor a hostile web page can take the crawl's resources or read its data.
 */
package org.forager.status;
