package org.forager.extract;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedSet;
import org.forager.config.CrawlConfig;
import org.forager.fetch.BodyMemory;
import org.forager.url.FieldUrl;
import org.forager.url.UrlNormalizer;
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
 *   <li>Links: what a browser shows with scripting off: HTML {@code a[href]}, {@code area[href]},
 *       {@code frame[src]}, {@code iframe[src]}, SVG {@code a} ({@code href}, {@code xlink:href}), the
 *       first {@code <meta http-equiv=refresh>}'s URL ({@link MetaRefresh}), the links of
 *       {@code iframe srcdoc} documents, none from {@code <template>} content, in document order, resolved against the first {@code <base href>} (itself resolved against the
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
 * <p>Pages are read in one pass by a streaming reader of the HTML tokenizer ({@link StreamScan}); the
 * few it cannot read without a tree (framesets, declarative shadow roots, MathML, …) are parsed by jsoup
 * and walked ({@link PageScan}), with the same rules. The streaming reader reads a UTF-8 or single-byte
 * page from its bytes and decodes only the values it keeps ({@link ByteMarkup}); pages in other
 * encodings, and srcdoc documents, it reads as decoded text.
 *
 * <p>Lenient: any bytes give a result and never an exception (the worst case has no links, no
 * canonical and only the header-derived directives). Immutable and thread-safe.
 *
 * <p>A page URL that is not an absolute http(s) URL gives no links and no canonical, only the
 * robots directives and the charset.
 */
public final class HtmlExtractor {

  /** Nested {@code iframe srcdoc} documents read: each level is a substring of the one above, so work stays bounded. */
  private static final int MAX_SRCDOC_DEPTH = 4;

  /**
   * The chars of markup a page may hand to jsoup's tree, its srcdoc documents' included: jsoup's tree
   * builder is quadratic on some markup (foster-parented elements by the thousand: 0.4 s for 128 KiB of
   * {@code <table>} then {@code <br>}s, 1.5 s for 256 KiB, 204 s for 2 MiB; docs/robustness.md). A
   * document that needs the tree past this is read by the streaming reader to its end instead, as well
   * as that reader can without a tree.
   */
  static final int MAX_TREE_CHARS = 128 * 1024;

  /**
   * The chars of links kept from one page, each link counted at its length and those dropped for being
   * longer than the URL limit too: what bounds the heap a page's links take and the work of resolving
   * them (100,000 relative links under a 2,000-char base are 200 M chars). A link-heavy page of 2 MiB
   * has about 40,000 links of 100 chars: 4 M. Links past it are dropped. A page has less when it is
   * small ({@link #LINK_CHARS_PER_BODY_BYTE}).
   */
  static final int MAX_LINK_CHARS_PER_PAGE = 8 << 20;

  /**
   * A page keeps at most this many chars of links per byte of its body, or {@link
   * #MIN_LINK_CHARS_PER_PAGE}: a page's links resolved are rarely longer than the page itself (a link's
   * markup is at least {@code <a href=x>}), while a hostile page of 60 KB, 4,000 short links under a
   * 2,000-char {@code <base href>}, resolves to 8 M chars, stored as new URLs on every page of the site.
   */
  static final int LINK_CHARS_PER_BODY_BYTE = 4;

  /** The chars of links any page may keep, however small: 2,500 links of 100 chars. */
  static final int MIN_LINK_CHARS_PER_PAGE = 256 * 1024;

  /** The links any page keeps at most: a sitemap file's own limit (sitemaps.org: 50,000 URLs). */
  static final int MAX_LINKS_PER_PAGE = 50_000;

  /**
   * Heap a kept link takes until the turn has written it, besides its chars: its string, candidate,
   * store records, set and map entries (measured: about 400 bytes a link of 31 chars on a page of
   * 160,000 such links; an attacker's review, session 67).
   */
  static final int BYTES_PER_LINK = 320;

  /**
   * Heap a char of a kept link takes until the turn has written it: its URL (one byte a char), its
   * store key (one more), the records around them (measured: 3.5 bytes a char live on a page of 4,150
   * links of 2,000 chars, docs/robustness.md).
   */
  static final int BYTES_PER_LINK_CHAR = 4;

  /**
   * Heap of links a page keeps without asking the turn's memory ({@link BodyMemory}): the usual page's
   * 100-400 links.
   */
  static final int FREE_LINK_BYTES = 256 * 1024;

  /** Heap of links asked of the turn's memory at once, at least. */
  private static final int LINK_BYTES_STEP = 1 << 20;

  private static final System.Logger LOG = System.getLogger(HtmlExtractor.class.getName());

  private final String productToken;
  private final int maxUrlLength;
  private final boolean treeOnly;

  /**
   * An extractor keeping links of up to {@code limits.max_url_length}'s default length.
   *
   * @param productToken the robots product token of our crawler (e.g. {@code ForagerBot}), matched
   *     case-insensitively against robots meta names and X-Robots-Tag prefixes
   * @throws IllegalArgumentException when it is empty or holds whitespace, {@code :} or {@code ,}
   */
  public HtmlExtractor(String productToken) {
    this(productToken, CrawlConfig.Limits.defaults().maxUrlLength());
  }

  /**
   * @param productToken as above
   * @param maxUrlLength the longest link kept ({@code limits.max_url_length}: a longer one is never a
   *     candidate); a {@code <base href>} longer than this only serves links that need no more of it
   *     than its origin
   */
  public HtmlExtractor(String productToken, int maxUrlLength) {
    this(productToken, maxUrlLength, false);
  }

  private HtmlExtractor(String productToken, int maxUrlLength, boolean treeOnly) {
    Objects.requireNonNull(productToken, "productToken");
    if (productToken.isEmpty() || productToken.chars().anyMatch(c -> c <= ' ' || c == ':' || c == ',')) {
      throw new IllegalArgumentException("product token must be a single token: '" + productToken + "'");
    }
    if (maxUrlLength < 1) throw new IllegalArgumentException("maxUrlLength must be at least 1: " + maxUrlLength);
    this.productToken = productToken;
    this.maxUrlLength = maxUrlLength;
    this.treeOnly = treeOnly;
  }

  /** An extractor that reads every page through jsoup's DOM: the reference the streaming reader is checked against. */
  static HtmlExtractor treeOnly(String productToken) {
    return new HtmlExtractor(productToken, CrawlConfig.Limits.defaults().maxUrlLength(), true);
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
    Budget budget = new Budget(body.length);
    DocumentScan scan = scan(body, decision, budget);
    robots |= scan.robots();
    boolean noindex = (robots & RobotsDirectives.NOINDEX) != 0;
    boolean nofollow = (robots & RobotsDirectives.NOFOLLOW) != 0;

    Optional<String> page = UrlNormalizer.normalize(pageUrl);
    if (page.isEmpty()) {
      // Nothing can be resolved against it; the caller always passes the URL it fetched, so
      // this is a bug upstream, but not a reason to fail the page.
      return new ExtractedPage(List.of(), Optional.empty(), noindex, nofollow, decision.charset(), Optional.empty());
    }
    String pageBase = page.get();
    // URLs in the document have their query in the document's encoding (URL Standard); the Link header's is UTF-8.
    DocumentBase base = DocumentBase.of(pageBase, scan.baseHref(), decision.encoding().queryCharset(), maxUrlLength);
    Optional<String> canonical = LinkHeader.firstTarget(linkHeaders, "canonical")
        .flatMap(target -> UrlNormalizer.resolve(pageBase, FieldUrl.text(target)))
        .or(() -> scan.canonicalHref().flatMap(base::resolve));
    List<String> links = nofollow ? List.of() : links(scan, base, 0, budget);
    return new ExtractedPage(links, canonical, noindex, nofollow, decision.charset(), budget.cut);
  }

  /** The chars of links a page of {@code bodyBytes} may keep. */
  static long linkChars(int bodyBytes) {
    return Math.min(MAX_LINK_CHARS_PER_PAGE,
        Math.max(MIN_LINK_CHARS_PER_PAGE, (long) LINK_CHARS_PER_BODY_BYTE * bodyBytes));
  }

  /**
   * What one page may still spend: chars of markup read by the tree, chars and number of links, and the
   * memory its kept links take, held on the turn's {@link BodyMemory}; and why it kept no more links,
   * once it did not. Used by one thread.
   */
  private static final class Budget {
    int treeChars = MAX_TREE_CHARS;
    long linkChars;
    private int linksKept;
    /** Heap the kept links take, and how much of it the turn's memory covers. */
    private long keptBytes;
    private long coveredBytes = FREE_LINK_BYTES;
    private Optional<ExtractedPage.LinksCut> cut = Optional.empty();

    Budget(int bodyBytes) {
      linkChars = linkChars(bodyBytes);
    }

    /** Spends a link of {@code chars} found (kept or not): false once the page's budget is used up. */
    boolean spend(int chars) {
      linkChars -= chars;
      if (linkChars >= 0) return true;
      stop(ExtractedPage.LinksCut.PAGE_BUDGET);
      return false;
    }

    /**
     * Whether a link of {@code chars} may be kept: false past {@link #MAX_LINKS_PER_PAGE}, or when the
     * turn's memory has no room for it in time; then for every link after it too.
     */
    boolean keep(int chars) {
      if (linksKept == MAX_LINKS_PER_PAGE) {
        stop(ExtractedPage.LinksCut.PAGE_BUDGET);
        return false;
      }
      long bytes = BYTES_PER_LINK + (long) BYTES_PER_LINK_CHAR * chars;
      if (keptBytes + bytes > coveredBytes) {
        long more = Math.max(LINK_BYTES_STEP, keptBytes + bytes - coveredBytes);
        if (!BodyMemory.holdOnThisTurn(more)) {
          stop(ExtractedPage.LinksCut.MEMORY);
          return false;
        }
        coveredBytes += more;
      }
      keptBytes += bytes;
      linksKept++;
      return true;
    }

    private void stop(ExtractedPage.LinksCut why) {
      linkChars = -1;
      if (cut.isEmpty()) cut = Optional.of(why);
    }
  }

  private DocumentScan scan(byte[] body, Charsets.Decision decision, Budget budget) {
    // UTF-8 and single-byte pages are read as bytes, decoding only the values kept; the few other
    // encodings (UTF-16, the CJK multi-byte ones) are decoded first. Malformed bytes become U+FFFD either way.
    return scan(decision.encoding().asciiCompatible()
        ? new ByteMarkup(body, decision.bomLength(), decision.charset())
        : new StringMarkup(
            new String(body, decision.bomLength(), body.length - decision.bomLength(), decision.charset())),
        budget);
  }

  private DocumentScan scan(Markup markup, Budget budget) {
    if (!treeOnly) {
      try {
        Optional<DocumentScan> streamed = StreamScan.of(markup, productToken);
        if (streamed.isPresent()) return streamed.get();
      } catch (RuntimeException bug) {
        // Not expected: a bug to see in the library log; the tree reads the page as well, only slower.
        LOG.log(System.Logger.Level.WARNING, "streaming HTML reader failed; the page is read by jsoup", bug);
      }
    }
    // Rare (a frameset, MathML, …): the tree reads decoded text, within the page's budget.
    String html = markup.text(markup.start, markup.end);
    if (treeOnly || html.length() <= budget.treeChars) {
      budget.treeChars -= Math.min(html.length(), budget.treeChars);
      return treeScan(html);
    }
    try {
      return StreamScan.whole(markup, productToken);
    } catch (RuntimeException bug) {
      // Not expected: a bug to see in the library log, and a page without links rather than a failed one.
      LOG.log(System.Logger.Level.WARNING, "streaming HTML reader failed on a page too large for jsoup", bug);
      return new PageScan(productToken, AttributeValues.decoded());
    }
  }

  /** The page read from jsoup's DOM: for the pages {@link StreamScan} cannot read without a tree. */
  private PageScan treeScan(String html) {
    try {
      PageScan scan = new PageScan(productToken, AttributeValues.decoded());
      NodeTraversor.filter(scan, Parser.htmlParser().parseInput(html, ""));
      if (!scan.needsExactValues()) return scan;
      // Rare (a value holding "&amp_", "&not-", …): parse again with source positions to decode those
      // values from their raw text, as browsers do.
      PageScan exact = new PageScan(productToken, AttributeValues.exact(html));
      NodeTraversor.filter(exact, Parser.htmlParser().setTrackPosition(true).parseInput(html, ""));
      return exact;
    } catch (RuntimeException parserBug) {
      // Not expected from jsoup; the crawl loop must not fail a page on it either way.
      return new PageScan(productToken, AttributeValues.decoded());
    }
  }

  /**
   * The document's links, then those of its {@code iframe srcdoc} documents: each is a document of its
   * own (UTF-8, its own {@code <base>}) whose fallback base is its parent's base (HTML: about:srcdoc).
   */
  private List<String> links(DocumentScan scan, DocumentBase base, int depth, Budget budget) {
    SequencedSet<String> links = new LinkedHashSet<>();
    // Where the page leads by itself comes first: the refresh a browser follows.
    RefreshUrls.followed(scan.refreshUrls(), base, maxUrlLength)
        .ifPresent(link -> {
          if (budget.spend(link.length()) && budget.keep(link.length())) links.add(link);
        });
    for (String href : scan.hrefs()) {
      if (budget.linkChars <= 0) break;
      Optional<String> link = base.resolve(href);
      if (link.isEmpty()) continue;
      int chars = link.get().length();
      if (budget.spend(chars) && chars <= maxUrlLength && budget.keep(chars)) links.add(link.get());
    }
    if (depth < MAX_SRCDOC_DEPTH) {
      for (String srcdoc : scan.srcdocs()) {
        if (budget.linkChars <= 0) break;
        DocumentScan frame = scan(new StringMarkup(srcdoc), budget);
        // A parent base of another scheme leaves no http(s) fallback: the frame's relative links go nowhere.
        Optional<DocumentBase> frameBase =
            base.url().map(url -> DocumentBase.of(url, frame.baseHref(), UTF_8, maxUrlLength));
        if (frameBase.isPresent()) links.addAll(links(frame, frameBase.get(), depth + 1, budget));
      }
    }
    return List.copyOf(links);
  }

}
