/**
 * The gatekeeper: local policy deciding which URLs are crawl candidates and which candidates may be
 * fetched (scope, do_not_crawl, url_query_parameters, skip_extensions, trap limits).
 */
package org.forager.policy;
