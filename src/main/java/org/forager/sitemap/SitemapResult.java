package org.forager.sitemap;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** What one sitemap file held, as {@link SitemapReader#read} reads it. Immutable. */
public sealed interface SitemapResult {

  /**
   * A {@code <urlset>} or a text sitemap: page URLs, absolute and as written (not normalized, not
   * checked against any scope: both are the caller's).
   *
   * @param truncated whether the cap {@link SitemapReader#MAX_URLS} was reached: entries beyond it,
   *     if any, were dropped
   */
  record UrlSet(List<Entry> urls, boolean truncated) implements SitemapResult {
    public UrlSet {
      urls = List.copyOf(urls);
    }
  }

  /**
   * A {@code <sitemapindex>}: the URLs of its child sitemaps, as written.
   *
   * @param truncated whether the cap {@link SitemapReader#MAX_URLS} was reached
   */
  record Index(List<String> sitemaps, boolean truncated) implements SitemapResult {
    public Index {
      sitemaps = List.copyOf(sitemaps);
    }
  }

  /** The file could not be read as a sitemap; {@code reason} is one line for the crawl log. */
  record Failure(String reason) implements SitemapResult {
    public Failure {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** One page of a sitemap and its {@code <lastmod>}, when given and valid (W3C Datetime). */
  record Entry(String url, Optional<Instant> lastmod) {
    public Entry {
      Objects.requireNonNull(url, "url");
      Objects.requireNonNull(lastmod, "lastmod");
    }
  }
}
