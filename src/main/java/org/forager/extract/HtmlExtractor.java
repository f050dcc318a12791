package org.forager.extract;

import java.nio.charset.Charset;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedSet;
import org.forager.url.UrlNormalizer;
import org.jsoup.nodes.Document;
import org.jsoup.parser.Parser;
import org.jsoup.select.NodeTraversor;

/**
 * Extracts links, canonical URL, robots directives and charset from an HTML page and its response
 * headers. The rules are in {@code docs/extraction.md}; in short:
 *
 * <ul>
 *   <li>Charset: byte order mark, else the Content-Type {@code charset}, else a {@code <meta>}
 *       declaration in the first bytes (WHATWG HTML 13.2.3.2), else UTF-8 when the bytes are valid
 *       UTF-8 and windows-1252 when not. Labels are the Encoding Standard's; unknown ones are skipped.
 *   <li>Links: {@code a[href]}, {@code area[href]}, {@code frame[src]}, {@code iframe[src]} in
 *       document order, resolved against the first {@code <base href>} (itself resolved against the
 *       page URL) and normalized by {@link UrlNormalizer#resolve}, the query encoded in the page's
 *       encoding as browsers do (UTF-8 for UTF-16 pages); non-http(s) targets, duplicates
 *       and {@code rel=nofollow} links are left out; none at all when nofollow applies to the page.
 *   <li>Canonical: the HTTP {@code Link: <…>; rel="canonical"} header (RFC 8288), resolved against
 *       the page URL; else the first {@code <link rel=canonical>} in the head, resolved against the
 *       document base. The header wins: it is set by whoever runs the server, not by page content.
 *   <li>Robots: {@code noindex}, {@code nofollow}, {@code none} from {@code <meta name=robots>},
 *       {@code <meta name=PRODUCT_TOKEN>} and X-Robots-Tag values, generic or prefixed with our
 *       product token; the most restrictive wins.
 * </ul>
 *
 * <p>Lenient: any bytes give a result and never an exception (the worst case has no links, no
 * canonical and only the header-derived directives). Immutable and thread-safe.
 *
 * <p>A page URL that is not an absolute http(s) URL gives no links and no canonical, only the
 * robots directives and the charset.
 */
public final class HtmlExtractor {

  private final String productToken;

  /**
   * @param productToken the robots product token of our crawler (e.g. {@code ForagerBot}), matched
   *     case-insensitively against robots meta names and X-Robots-Tag prefixes
   * @throws IllegalArgumentException when it is empty or holds whitespace, {@code :} or {@code ,}
   */
  public HtmlExtractor(String productToken) {
    Objects.requireNonNull(productToken, "productToken");
    if (productToken.isEmpty() || productToken.chars().anyMatch(c -> c <= ' ' || c == ':' || c == ',')) {
      throw new IllegalArgumentException("product token must be a single token: '" + productToken + "'");
    }
    this.productToken = productToken;
  }

  /**
   * @param pageUrl the URL the body was fetched from (normalized, absolute http(s))
   * @param body the response body after content decoding
   * @param contentTypeHeader the Content-Type header value, if any
   * @param xRobotsTagHeaders every X-Robots-Tag header value, in order
   * @param linkHeaders every Link header value, in order
   */
  public ExtractedPage extract(
      String pageUrl,
      byte[] body,
      Optional<String> contentTypeHeader,
      List<String> xRobotsTagHeaders,
      List<String> linkHeaders) {
    Objects.requireNonNull(pageUrl, "pageUrl");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(contentTypeHeader, "contentTypeHeader");
    Objects.requireNonNull(xRobotsTagHeaders, "xRobotsTagHeaders");
    Objects.requireNonNull(linkHeaders, "linkHeaders");

    Charsets.Decision decision = Charsets.detect(body, contentTypeHeader);
    int robots = 0;
    for (String value : xRobotsTagHeaders) robots |= RobotsDirectives.ofHeader(value, productToken);
    PageScan scan = scan(body, decision);
    robots |= scan.robots();
    boolean noindex = (robots & RobotsDirectives.NOINDEX) != 0;
    boolean nofollow = (robots & RobotsDirectives.NOFOLLOW) != 0;

    Optional<String> page = UrlNormalizer.normalize(pageUrl);
    if (page.isEmpty()) {
      // Nothing can be resolved against it; the caller always passes the URL it fetched, so
      // this is a bug upstream, but not a reason to fail the page.
      return new ExtractedPage(List.of(), Optional.empty(), noindex, nofollow, decision.charset());
    }
    String pageBase = page.get();
    // URLs in the document have their query in the document's encoding (URL Standard); the Link header's is UTF-8.
    Charset query = decision.encoding().queryCharset();
    String base = scan.baseHref().flatMap(href -> UrlNormalizer.resolve(pageBase, href, query)).orElse(pageBase);
    Optional<String> canonical = LinkHeader.firstTarget(linkHeaders, "canonical")
        .flatMap(target -> UrlNormalizer.resolve(pageBase, target))
        .or(() -> scan.canonicalHref().flatMap(href -> UrlNormalizer.resolve(base, href, query)));
    List<String> links = nofollow ? List.of() : resolveAll(base, scan.hrefs(), query);
    return new ExtractedPage(links, canonical, noindex, nofollow, decision.charset());
  }

  private PageScan scan(byte[] body, Charsets.Decision decision) {
    PageScan scan = new PageScan(productToken);
    try {
      // Malformed bytes become U+FFFD; jsoup builds a tree from any text.
      String html = new String(body, decision.bomLength(), body.length - decision.bomLength(), decision.charset());
      Document doc = Parser.htmlParser().parseInput(html, "");
      NodeTraversor.traverse(scan, doc);
      return scan;
    } catch (RuntimeException parserBug) {
      // Not expected from jsoup; the crawl loop must not fail a page on it either way.
      return new PageScan(productToken);
    }
  }

  private static List<String> resolveAll(String base, SequencedSet<String> hrefs, Charset query) {
    SequencedSet<String> links = new LinkedHashSet<>();
    for (String href : hrefs) UrlNormalizer.resolve(base, href, query).ifPresent(links::add);
    return List.copyOf(links);
  }
}
