package org.forager.export;

import java.util.List;
import java.util.Optional;
import org.forager.store.CrawlRecord;

/**
 * What a URL's crawls say of its representation now, from its history: the crawl that read the body
 * in force, and the validators its next conditional GET sends. A 304 confirms the body of the crawl
 * before it, so a URL recrawled unchanged keeps its content type, digest, canonical and robots meta
 * (once they read as null and {@code noindex} false after every 304); the validators are those of the
 * last 2xx, refreshed by 304s and kept through failures, redirects and refusals, as the store keeps
 * them for the next request (store.Validators).
 *
 * @param body the latest crawl with a 2xx response before any later 304s: the representation in
 *     force; empty when the URL never had one, or its latest action was no 2xx or 304
 * @param etag the ETag the next conditional GET sends
 * @param lastModified the Last-Modified date it sends
 */
record CurrentRepresentation(Optional<CrawlRecord> body, Optional<String> etag, Optional<String> lastModified) {

  /** From {@code crawls}, oldest first, the URL's latest crawl last. */
  static CurrentRepresentation of(List<CrawlRecord> crawls) {
    Optional<CrawlRecord> body = Optional.empty();
    Optional<String> etag = Optional.empty();
    Optional<String> lastModified = Optional.empty();
    for (CrawlRecord crawl : crawls) {
      int status = crawl.httpStatus();
      if (status >= 200 && status < 300) {
        body = Optional.of(crawl);
        etag = crawl.etag();
        lastModified = crawl.lastModified();
      } else if (status == 304) {
        if (crawl.etag().isPresent()) etag = crawl.etag();
        if (crawl.lastModified().isPresent()) lastModified = crawl.lastModified();
      }
    }
    CrawlRecord last = crawls.isEmpty() ? null : crawls.getLast();
    boolean inForce = last != null && (last.httpStatus() == 304 || (last.httpStatus() >= 200 && last.httpStatus() < 300));
    return new CurrentRepresentation(inForce ? body : Optional.empty(), etag, lastModified);
  }
}
