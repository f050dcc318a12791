package org.forager.url;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns URLs into the one form the crawl database knows them by. Stateless and thread-safe.
 *
 * <p>PLACEHOLDER implementation over java.net.URI; the real rules are being written.
 */
public final class UrlNormalizer {

  private UrlNormalizer() {}

  /** The normalized form of an absolute http(s) URL; empty when it is not one or is malformed. */
  public static Optional<String> normalize(String url) {
    try {
      URI uri = new URI(url.strip()).normalize();
      String scheme = uri.getScheme();
      if (scheme == null || uri.getHost() == null) return Optional.empty();
      scheme = scheme.toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https")) return Optional.empty();
      Origin origin = new Origin(scheme, uri.getHost(), uri.getPort());
      String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
      String query = uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
      return Optional.of(origin + path + query);
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  /** Resolves {@code href} against a normalized base URL and normalizes the result. */
  public static Optional<String> resolve(String base, String href) {
    try {
      return normalize(URI.create(base).resolve(href.strip()).toString());
    } catch (Exception e) {
      return Optional.empty();
    }
  }
}
