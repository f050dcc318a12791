package org.forager.crawl;

import java.util.List;
import org.forager.fetch.Header;
import org.forager.fetch.Outcome;

/**
 * A page as a {@link PageListener} sees it, right after it was fetched, classified and recorded.
 *
 * @param body the decoded body (content coding undone), at most {@code limits.max_page_bytes}
 * @param links the links that became candidates (in scope, within the limits), in document order
 */
public record FetchedPage(
    String url, int depth, Outcome outcome, int status, List<Header> headers, byte[] body, List<String> links) {}
