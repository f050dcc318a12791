package org.forager.url;

import java.util.Locale;
import java.util.Objects;

/**
 * The unit of politeness: scheme, host and port of a URL (RFC 6454). Immutable.
 *
 * <p>{@link #toString()} is the serialized origin {@code scheme://host[:port]}, the port only when it is
 * not the scheme's default. Every normalized URL of this origin starts with {@code toString() + "/"}.
 */
public record Origin(String scheme, String host, int port) implements Comparable<Origin> {

  public Origin {
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(host, "host");
    scheme = scheme.toLowerCase(Locale.ROOT);
    host = host.toLowerCase(Locale.ROOT);
    if (port < 0) port = defaultPort(scheme);
  }

  /** The origin of an absolute, normalized http(s) URL. */
  public static Origin ofUrl(String normalizedUrl) {
    int schemeEnd = normalizedUrl.indexOf("://");
    if (schemeEnd < 0) throw new IllegalArgumentException("not an absolute URL: " + normalizedUrl);
    // The two schemes as constants: a million origins need not hold a million copies of "http".
    String scheme = normalizedUrl.startsWith("https://") ? "https"
        : normalizedUrl.startsWith("http://") ? "http" : normalizedUrl.substring(0, schemeEnd);
    int authorityStart = schemeEnd + 3;
    int authorityEnd = authorityStart;
    while (authorityEnd < normalizedUrl.length()) {
      char c = normalizedUrl.charAt(authorityEnd);
      if (c == '/' || c == '?' || c == '#') break;
      authorityEnd++;
    }
    String authority = normalizedUrl.substring(authorityStart, authorityEnd);
    int at = authority.lastIndexOf('@');
    if (at >= 0) authority = authority.substring(at + 1);
    int colon = authority.lastIndexOf(':');
    // An IPv6 literal is bracketed; its colons are not a port separator.
    if (colon >= 0 && authority.indexOf(']') < colon) {
      String portText = authority.substring(colon + 1);
      int port = portText.isEmpty() ? -1 : Integer.parseInt(portText);
      return new Origin(scheme, authority.substring(0, colon), port);
    }
    return new Origin(scheme, authority, -1);
  }

  public static int defaultPort(String scheme) {
    return switch (scheme) {
      case "http" -> 80;
      case "https" -> 443;
      default -> -1;
    };
  }

  /** Whether a normalized URL belongs to this origin. */
  public boolean contains(String normalizedUrl) {
    String prefix = toString();
    return normalizedUrl.startsWith(prefix)
        && (normalizedUrl.length() == prefix.length() || normalizedUrl.charAt(prefix.length()) == '/');
  }

  /** The URL of this origin's robots.txt (RFC 9309 section 2.3). */
  public String robotsTxtUrl() {
    return this + "/robots.txt";
  }

  @Override
  public String toString() {
    return port == defaultPort(scheme) ? scheme + "://" + host : scheme + "://" + host + ":" + port;
  }

  @Override
  public int compareTo(Origin other) {
    return toString().compareTo(other.toString());
  }
}
