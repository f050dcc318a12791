/**
 * URLs as the crawl knows them: {@link org.forager.url.UrlNormalizer} parses links the way browsers do
 * (WHATWG URL Standard, http and https only) and turns each into one normalized string, the key under
 * which the store deduplicates it, and {@link org.forager.url.Origin} names the scheme, host and port
 * that politeness is counted per. Everything here is a stateless function or an immutable value.
 */
package org.forager.url;
