/**
 * Freshness: when a fetched URL is due again. {@link org.forager.recrawl.RecrawlPolicy} turns what one
 * fetch observed ({@link org.forager.recrawl.Observation}) and what is known about the URL ({@link
 * org.forager.recrawl.RecrawlState}, kept by the store per URL) into the next fetch time, adapting the
 * interval to the page's estimated change rate, backing off failures and retiring URLs that are gone.
 * Pure computation: no I/O, no clock (times are passed in). See docs/freshness.md.
 */
package org.forager.recrawl;
