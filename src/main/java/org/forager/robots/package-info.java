/**
 * robots.txt (RFC 9309): fetching with the RFC's redirect and status rules, and the rules that
 * decide which URLs of an origin may be fetched, parsed by crawler-commons.
 */
package org.forager.robots;
