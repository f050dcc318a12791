/**
 * Makes the GET requests of the crawl: one {@link org.forager.fetch.Fetcher} seam and its HTTP/1.1
 * implementation {@link org.forager.fetch.HttpFetcher}, which never follows redirects, reuses
 * keep-alive connections, holds every fetch to a total deadline, caps the body before and after
 * decoding (content codings, and transfer codings besides chunked), refuses every non-public network
 * address (on the resolver's answer and again on each socket, before a byte is sent) and verifies TLS
 * certificates. What a response means is decided later,
 * by the crawl loop; this package only reports what happened on the wire as a
 * {@link org.forager.fetch.FetchResult}.
 */
package org.forager.fetch;
