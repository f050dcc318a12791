package org.forager.fetch;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/** Turns a crawl URL into the URI the HTTP client is given. Stateless. */
final class RequestTarget {

  private RequestTarget() {}

  /**
   * The URI to request: an absolute http(s) URL without userinfo (deprecated by RFC 9110 section
   * 4.2.4, and no credentials ever leave the crawler) and without fragment (not part of the request
   * target, RFC 9110 section 7.1). Path and query keep their encoding exactly.
   */
  static Optional<URI> of(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      return Optional.empty();
    }
    StringBuilder clean = new StringBuilder(url.length())
        .append(scheme).append("://").append(uri.getHost());
    if (uri.getPort() >= 0) clean.append(':').append(uri.getPort());
    String path = uri.getRawPath();
    clean.append(path == null || path.isEmpty() ? "/" : path);
    if (uri.getRawQuery() != null) clean.append('?').append(uri.getRawQuery());
    String target = clean.toString();
    // Most crawl URLs are their own target (no userinfo, no fragment): not parsed a second time.
    if (target.equals(url)) return Optional.of(uri);
    try {
      return Optional.of(new URI(target));
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }
}
