package org.forager.url;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns URLs into the one form the crawl database knows them by. Stateless and thread-safe.
 *
 * <p>Parsing follows the WHATWG URL Standard (https://url.spec.whatwg.org/) for the special schemes
 * http and https, as browsers resolve links; anything that would not parse to an http(s) URL gives an
 * empty answer, never an exception. On top of the standard's serialization, for deduplication:
 * <ul>
 *   <li>the fragment is dropped (it never reaches the server);
 *   <li>userinfo ({@code user:pass@}) is dropped: a crawler must never send or log credentials;
 *   <li>an empty query ({@code ?} alone) is dropped;
 *   <li>escapes get upper-case hex digits, and escapes of unreserved characters (ALPHA DIGIT
 *       {@code - . _ ~}) are decoded in path and query (RFC 3986 section 6.2.2).
 * </ul>
 * The query is otherwise kept as given: parameters are not sorted or removed. Hosts go to ASCII by the
 * standard's domain parser (UTS #46 non-transitional through ICU4J; an all-ASCII host is only
 * lower-cased). The result is idempotent:
 * {@code normalize(normalize(x)) == normalize(x)}. See docs/url-normalization.md for every rule.
 */
public final class UrlNormalizer {

  private UrlNormalizer() {}

  /** The normalized form of an absolute http(s) URL; empty when it is not one or is malformed. */
  public static Optional<String> normalize(String url) {
    Objects.requireNonNull(url, "url");
    return UrlParser.parse(url);
  }

  /**
   * Resolves a link {@code href} as found in HTML (relative, absolute, scheme-relative, {@code ?q},
   * {@code #frag}, with stray whitespace) against {@code base} and normalizes the result; empty when the
   * result is not an http(s) URL or is malformed.
   *
   * @param base an absolute URL as {@link #normalize} returns it; it is not parsed again, only split, so
   *     a base in any other form gives an unspecified (but never thrown) result. A base that is not
   *     http(s) counts as no base: only absolute hrefs resolve.
   */
  public static Optional<String> resolve(String base, String href) {
    return resolve(base, href, StandardCharsets.UTF_8);
  }

  /**
   * {@link #resolve(String, String)} for a link in a document of another encoding: the query is encoded
   * with {@code queryEncoding} (URL Standard, special schemes), so on a windows-1252 page {@code ?q=café}
   * is {@code ?q=caf%E9}, and a character the encoding cannot represent becomes {@code &#N;}, percent-encoded
   * as {@code %26%23N%3B}. The path and host do not depend on it. UTF-16 and UTF-32 mean UTF-8, as in
   * HTML's "get an output encoding"; callers pass the document's output encoding (for the Encoding
   * Standard's GBK, Java's {@code x-mswin-936}).
   */
  public static Optional<String> resolve(String base, String href, Charset queryEncoding) {
    Objects.requireNonNull(base, "base");
    Objects.requireNonNull(href, "href");
    Objects.requireNonNull(queryEncoding, "queryEncoding");
    // Most links join the base as they are written (an ASCII query reads the same in every encoding).
    String plain = PlainReference.resolve(base, href);
    if (plain != null) return Optional.of(plain);
    return UrlParser.parse(base, href, PercentEncoding.outputEncoding(queryEncoding));
  }

  /**
   * A host name in the form normalized URLs carry it (lower case, IDN to ASCII, IPv4 number forms to
   * dotted decimal, IPv6 bracketed and compressed, no trailing dot: {@code example.org.} is {@code
   * example.org}), for rules that name hosts; empty when it is not a host (a port, a path, userinfo or a
   * forbidden character).
   */
  public static Optional<String> host(String host) {
    Objects.requireNonNull(host, "host");
    String h = host.strip();
    if (h.isEmpty() || h.chars().anyMatch(c -> c == '/' || c == '?' || c == '#' || c == '@' || c == '\\')) {
      return Optional.empty();
    }
    if (h.lastIndexOf(':') > h.lastIndexOf(']')) return Optional.empty(); // a port
    return UrlParser.parse("http://" + h + "/").map(url -> Origin.ofUrl(url).host());
  }

  /**
   * A URL prefix in the form normalized URLs take, for rules matched with {@code startsWith}: the
   * prefix is normalized as a URL ({@code %7E} becomes {@code ~}, the host goes to lower case and
   * ASCII, an authority without a path gets {@code /}), and a trailing {@code ?} is kept. Empty when
   * it is not an http(s) URL or has a fragment, which no normalized URL has, so it could never match.
   */
  public static Optional<String> prefix(String prefix) {
    Objects.requireNonNull(prefix, "prefix");
    String p = prefix.strip();
    if (p.indexOf('#') >= 0) return Optional.empty();
    return UrlParser.parse(p).map(url -> p.endsWith("?") && url.indexOf('?') < 0 ? url + "?" : url);
  }
}
