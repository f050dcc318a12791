package org.forager.extract;

import java.nio.charset.Charset;
import java.util.List;
import java.util.Optional;

/**
 * What the crawl loop needs from an HTML page.
 *
 * @param links normalized absolute http(s) links in document order, each once; empty when
 *     {@code nofollow}; links marked rel=nofollow are left out
 * @param canonical the normalized rel=canonical URL (link tag or Link header), when there is one
 * @param noindex meta robots / X-Robots-Tag noindex (or none), generic or for our product token
 * @param nofollow meta robots / X-Robots-Tag nofollow (or none), generic or for our product token
 * @param charset the charset the body was decoded with
 * @param linksCut why the page has no more links than these, when it had more (docs/extraction.md, "The
 *     links' budget")
 */
public record ExtractedPage(
    List<String> links,
    Optional<String> canonical,
    boolean noindex,
    boolean nofollow,
    Charset charset,
    Optional<LinksCut> linksCut) {

  /** Why a page's links were cut short. */
  public enum LinksCut {
    /** Its budget: chars of links for its size, or {@value HtmlExtractor#MAX_LINKS_PER_PAGE} links. */
    PAGE_BUDGET,
    /** No room for more in the memory the crawl's turns share, within a few seconds. */
    MEMORY
  }
}
