package org.forager.store;

import java.util.Optional;

/**
 * Which HTTP validators (RFC 9110 section 8.8) a URL's next conditional GET sends. Stateless.
 */
final class Validators {

  private Validators() {}

  /**
   * The due entry after {@code record}: a 2xx response replaces the validators with its own (a
   * representation without validators has none); a 304 refreshes those it sends (RFC 9110 section
   * 15.4.5); any other action (error, block, redirect) says nothing about the representation and
   * keeps them.
   */
  static Values.DueEntry after(Values.DueEntry previous, CrawlRecord record, int fetchCount) {
    int status = record.httpStatus();
    Optional<String> etag = previous.etag();
    Optional<String> lastModified = previous.lastModified();
    if (status >= 200 && status < 300) {
      etag = record.etag();
      lastModified = record.lastModified();
    } else if (status == 304) {
      etag = record.etag().or(() -> previous.etag());
      lastModified = record.lastModified().or(() -> previous.lastModified());
    }
    return previous.crawled(fetchCount, etag, lastModified);
  }
}
