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
    // toString() compared piece by piece, without building it: this runs for every link of a page.
    if (!normalizedUrl.startsWith(scheme) || !normalizedUrl.startsWith("://", scheme.length())) return false;
    int at = scheme.length() + 3;
    if (!normalizedUrl.startsWith(host, at)) return false;
    at += host.length();
    if (port != defaultPort(scheme)) {
      if (at == normalizedUrl.length() || normalizedUrl.charAt(at) != ':') return false;
      at = portEnd(normalizedUrl, at + 1, port);
      if (at < 0) return false;
    }
    return at == normalizedUrl.length() || normalizedUrl.charAt(at) == '/';
  }

  /** Where the decimal {@code port} written at {@code from} (as toString() writes it) ends; -1 if it is not there. */
  private static int portEnd(String url, int from, int port) {
    int digits = port < 10 ? 1 : port < 100 ? 2 : port < 1_000 ? 3 : port < 10_000 ? 4 : 5;
    int end = from + digits;
    if (end > url.length()) return -1;
    int rest = port;
    for (int i = end - 1; i >= from; i--, rest /= 10) {
      if (url.charAt(i) != '0' + rest % 10) return -1;
    }
    return end;
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
