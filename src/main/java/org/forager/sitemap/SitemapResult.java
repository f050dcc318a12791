package org.forager.sitemap;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What {@link SitemapReader#read} made of one sitemap file. The entries themselves went to the
 * caller in batches as they were read; this says how many, and whether reading stopped early.
 * Immutable.
 */
public sealed interface SitemapResult {

  /**
   * A {@code <urlset>} or a text sitemap.
   *
   * @param urls how many page entries went to the caller
   * @param cut why reading stopped before the end of the file, if it did: a cap (more than {@link
   *     SitemapReader#MAX_URLS} URLs, more than {@link SitemapReader#MAX_BYTES} bytes), or content
   *     that broke or was refused after the entries read. Nothing past that point was built.
   */
  record UrlSet(int urls, Optional<String> cut) implements SitemapResult {
    public UrlSet {
      Objects.requireNonNull(cut, "cut");
    }
  }

  /**
   * A {@code <sitemapindex>}.
   *
   * @param sitemaps how many child sitemap URLs went to the caller
   * @param cut why reading stopped before the end of the file, if it did (as for {@link UrlSet})
   */
  record Index(int sitemaps, Optional<String> cut) implements SitemapResult {
    public Index {
      Objects.requireNonNull(cut, "cut");
    }
  }

  /** The file could not be read as a sitemap; {@code reason} is one line for the crawl log. */
  record Failure(String reason) implements SitemapResult {
    public Failure {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * One page of a sitemap, absolute and as written (not normalized, not checked against any scope:
   * both are the caller's), and its {@code <lastmod>} when given, valid (W3C Datetime) and sane (from
   * 1991 to a day past the reader's clock), and its {@code <priority>} when given and valid (a
   * decimal from 0.0 to 1.0).
   */
  record Entry(String url, Optional<Instant> lastmod, OptionalDouble priority) {
    public Entry {
      Objects.requireNonNull(url, "url");
      Objects.requireNonNull(lastmod, "lastmod");
      Objects.requireNonNull(priority, "priority");
    }

    /** An entry without {@code <priority>}. */
    public Entry(String url, Optional<Instant> lastmod) {
      this(url, lastmod, OptionalDouble.empty());
    }
  }
}
