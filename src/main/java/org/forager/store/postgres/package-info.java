/**
 * The crawl database on PostgreSQL, shared by several crawler processes:
 * {@link org.forager.store.postgres.PostgresCrawlStore} implements the
 * {@link org.forager.store.CrawlStore} seam on tables keyed by origin (so they can be sharded by
 * origin), creates and upgrades its schema from versioned SQL files, and leases origins to one
 * process at a time so politeness holds across a fleet. {@code docs/fleet.md} describes the
 * schema, the leases and what the server needs.
 */
package org.forager.store.postgres;
