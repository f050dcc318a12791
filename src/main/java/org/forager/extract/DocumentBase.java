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
 * are dropped, and only absolute http(s) targets remain. Immutable.
 */
final class DocumentBase {

  /** The http(s) base, or null when the base has another scheme. */
  private final String base;
  private final Charset query;

  private DocumentBase(String base, Charset query) {
    this.base = base;
    this.query = query;
  }

  /**
   * @param fallback the normalized http(s) URL to use when there is no usable {@code <base>}
   * @param baseHref the first {@code <base href>} of the document, as written
   * @param query the encoding of the document, for the query of its URLs
   */
  static DocumentBase of(String fallback, Optional<String> baseHref, Charset query) {
    if (baseHref.isEmpty()) return new DocumentBase(fallback, query);
    String href = baseHref.get();
    String scheme = scheme(href);
    if (scheme.isEmpty() || scheme.equals("http") || scheme.equals("https")) {
      return new DocumentBase(UrlNormalizer.resolve(fallback, href, query).orElse(fallback), query);
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
