package org.forager.extract;

import java.nio.charset.Charset;
import java.util.Optional;
import org.forager.url.UrlNormalizer;

/**
 * The base links of a document resolve against (HTML "frozen base URL"), and the resolution of link
 * targets against it. The {@code <base href>} is resolved against the fallback base (the page URL, or
 * for an {@code iframe srcdoc} document its parent's base); one that does not parse, or is a
 * {@code data:} or {@code javascript:} URL, is ignored. A base of another scheme ({@code ftp:},
 * {@code mailto:}, …) is kept, as browsers keep it: relative targets then resolve to that scheme and
 * are dropped, and only absolute http(s) targets remain. A base longer than the longest URL kept (a
 * hostile page's: 1 MB of path) serves only the targets that need no more of it than its origin
 * (absolute, scheme-relative and root-relative ones): the others would resolve under it, longer than
 * any URL kept, and resolving each would copy it. Immutable.
 */
final class DocumentBase {

  /** The http(s) base, or null when the base has another scheme. */
  private final String base;
  private final Charset query;
  /** Whether the base is too long to resolve against: only targets that need its origin alone are resolved. */
  private final boolean originOnly;

  private DocumentBase(String base, Charset query) {
    this(base, query, false);
  }

  private DocumentBase(String base, Charset query, boolean originOnly) {
    this.base = base;
    this.query = query;
    this.originOnly = originOnly;
  }

  /**
   * @param fallback the normalized http(s) URL to use when there is no usable {@code <base>}
   * @param baseHref the first {@code <base href>} of the document, as written
   * @param query the encoding of the document, for the query of its URLs
   * @param maxUrlLength the longest URL kept: a longer base resolves only what needs its origin alone
   */
  static DocumentBase of(String fallback, Optional<String> baseHref, Charset query, int maxUrlLength) {
    if (baseHref.isEmpty()) return new DocumentBase(fallback, query);
    String href = baseHref.get();
    String scheme = scheme(href);
    if (scheme.isEmpty() || scheme.equals("http") || scheme.equals("https")) {
      String base = UrlNormalizer.resolve(fallback, href, query).orElse(fallback);
      if (base.length() <= maxUrlLength) return new DocumentBase(base, query);
      // The origin, with the root path: what an absolute, scheme- or root-relative target needs of it.
      return new DocumentBase(base.substring(0, base.indexOf('/', base.indexOf("//") + 2) + 1), query, true);
    }
    if (scheme.equals("data") || scheme.equals("javascript")) return new DocumentBase(fallback, query);
    return new DocumentBase(null, query);
  }

  /** The base as an http(s) URL, when it is one. */
  Optional<String> url() {
    return Optional.ofNullable(base);
  }

  /** The normalized http(s) URL {@code href} leads to, if any. */
  Optional<String> resolve(String href) {
    if (originOnly) return needsOriginOnly(href) ? UrlNormalizer.resolve(base, href, query) : Optional.empty();
    if (base != null) return UrlNormalizer.resolve(base, href, query);
    // Against a base of another scheme only an absolute http(s) URL stays http(s). Resolving it against
    // an http(s) base of the other scheme parses it as absolute ("http:x" is relative to an http base only).
    return switch (scheme(href)) {
      case "http" -> UrlNormalizer.resolve("https://base.invalid/", href, query);
      case "https" -> UrlNormalizer.resolve("http://base.invalid/", href, query);
      default -> Optional.empty();
    };
  }

  /**
   * Whether {@code href} resolves against an http(s) base's origin alone (URL Standard): it has another
   * scheme than the base, or after its scheme if any (the base's: "http:/x" is relative to an http
   * base) it starts with a slash or backslash (scheme-relative or root-relative). A path-relative, query
   * or fragment target, or an empty one, needs the base's path.
   */
  private boolean needsOriginOnly(String href) {
    String scheme = scheme(href);
    if (!scheme.isEmpty() && !base.startsWith(scheme + ":")) return true;
    int i = 0;
    while (i < href.length() && href.charAt(i) <= ' ') i++; // leading C0 controls and spaces are stripped
    if (!scheme.isEmpty()) i = href.indexOf(':', i) + 1;
    for (; i < href.length(); i++) {
      char c = href.charAt(i);
      if (c != '\t' && c != '\n' && c != '\r') return c == '/' || c == '\\'; // tabs and newlines are removed
    }
    return false;
  }

  /**
   * The lower-case scheme of a URL as the URL Standard reads it (leading and trailing C0 controls and
   * spaces stripped, tabs and newlines removed), or "" when it has none.
   */
  static String scheme(String url) {
    StringBuilder scheme = new StringBuilder();
    int i = 0;
    while (i < url.length() && url.charAt(i) <= ' ') i++;
    for (; i < url.length(); i++) {
      char c = url.charAt(i);
      if (c == '\t' || c == '\n' || c == '\r') continue;
      if (c == ':') return scheme.isEmpty() ? "" : scheme.toString();
      boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      boolean other = (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
      if (!letter && !(other && !scheme.isEmpty())) return "";
      scheme.append(Character.toLowerCase(c));
    }
    return "";
  }
}
