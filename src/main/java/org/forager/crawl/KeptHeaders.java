package org.forager.crawl;

import java.util.Optional;
import org.forager.fetch.FetchResult;

/**
 * A response's header values as a URL's record and its log line keep them: a server may send each up
 * to the client's 8 KiB line, and what it sends is copied into every line of the log and every URL's
 * record in the store. Stateless.
 */
final class KeptHeaders {

  /** A Content-Type longer than this is cut: the media type and its usual parameters fit many times. */
  static final int MAX_CONTENT_TYPE = 256;
  /**
   * A validator longer than this is not kept (a cut one could never match): real ETags are a few
   * dozen characters, an HTTP-date 29.
   */
  static final int MAX_VALIDATOR = 512;

  private KeptHeaders() {}

  static Optional<String> contentType(FetchResult.Response response) {
    return response.header("Content-Type")
        .map(v -> v.length() <= MAX_CONTENT_TYPE ? v : v.substring(0, MAX_CONTENT_TYPE));
  }

  static Optional<String> etag(FetchResult.Response response) {
    return validator(response, "ETag");
  }

  static Optional<String> lastModified(FetchResult.Response response) {
    return validator(response, "Last-Modified");
  }

  private static Optional<String> validator(FetchResult.Response response, String name) {
    return response.header(name).filter(v -> v.length() <= MAX_VALIDATOR);
  }
}
