package org.forager.fetch;

import java.util.Optional;

/**
 * One GET to make. {@code etag} and {@code lastModified} come from the last fetch and turn the
 * request into a conditional GET (If-None-Match / If-Modified-Since) when present.
 */
public record FetchRequest(String url, Optional<String> etag, Optional<String> lastModified) {

  public static FetchRequest of(String url) {
    return new FetchRequest(url, Optional.empty(), Optional.empty());
  }
}
