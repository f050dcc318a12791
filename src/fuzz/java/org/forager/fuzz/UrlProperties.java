package org.forager.fuzz;

import java.util.Optional;
import java.util.function.Supplier;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;

/** The checks every URL that comes out of the normalizer must pass; a failure throws AssertionError. */
final class UrlProperties {

  private UrlProperties() {}

  /**
   * An absolute http(s) URL in normalized form: no fragment, no userinfo, a lower-case host, printable
   * ASCII only, a fixed point of {@link UrlNormalizer#normalize}, and of the {@link Origin} it names.
   */
  static void requireNormalized(String url, Supplier<String> context) {
    check(url.startsWith("http://") || url.startsWith("https://"), "not http(s)", url, context);
    for (int i = 0; i < url.length(); i++) {
      char c = url.charAt(i);
      check(c > 0x20 && c < 0x7F, "not printable ASCII at " + i, url, context);
    }
    check(url.indexOf('#') < 0, "has a fragment", url, context);
    int authorityStart = url.indexOf("://") + 3;
    int pathStart = url.indexOf('/', authorityStart);
    check(pathStart > authorityStart, "no path", url, context);
    String authority = url.substring(authorityStart, pathStart);
    check(authority.indexOf('@') < 0 && authority.indexOf('?') < 0, "has userinfo", url, context);
    for (int i = 0; i < authority.length(); i++) {
      char c = authority.charAt(i);
      check(c < 'A' || c > 'Z', "host not lower-case", url, context);
    }
    check(UrlNormalizer.normalize(url).equals(Optional.of(url)), "normalizing again changes it to "
        + UrlNormalizer.normalize(url), url, context);
    Origin origin;
    try {
      origin = Origin.ofUrl(url);
    } catch (RuntimeException e) {
      throw new AssertionError("Origin.ofUrl rejects " + Show.text(url) + " (" + context.get() + ")", e);
    }
    check(origin.contains(url), "not contained in its origin " + origin, url, context);
    check(url.startsWith(origin + "/"), "does not start with its origin " + origin, url, context);
  }

  static void check(boolean condition, String what, String url, Supplier<String> context) {
    if (!condition) throw new AssertionError(what + ": " + Show.text(url) + " (" + context.get() + ")");
  }
}
