package org.forager.sitemap;

import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapIndex;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import crawlercommons.sitemaps.UnknownFormatException;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.forager.sitemap.SitemapResult.Entry;
import org.forager.sitemap.SitemapResult.Failure;

/**
 * Reads one sitemap file (sitemaps.org protocol 0.9): an XML {@code <urlset>} or {@code
 * <sitemapindex>}, or a text sitemap (one URL per line), any of them gzipped. Stateless and
 * thread-safe; never throws on bad content: anything it cannot read is a {@link Failure}.
 *
 * <p>Limits (sitemaps.org, "Sitemap file location" and "Using Sitemap index files"): at most
 * {@link #MAX_BYTES} after decompression, else a failure; at most {@link #MAX_URLS} entries, the rest
 * dropped. A result that reached the cap is marked truncated (crawler-commons stops reading a text
 * sitemap there, so "reached" is all that can be known). A total per origin is the caller's to keep.
 *
 * <p>Safety: a document with a DOCTYPE (or an ENTITY declaration) is refused before any parser
 * sees it, so no external entity (XXE) is resolved and no entity is expanded (billion laughs); the
 * sitemap schema needs neither. crawler-commons also refuses DTDs by default; the check here does not
 * depend on that. Documents that are not in an ASCII-compatible encoding (UTF-16, UTF-32) are refused
 * too, since the check reads bytes, and sitemaps.org requires UTF-8 anyway.
 */
public final class SitemapReader {

  /** sitemaps.org: "no larger than 50MB (52,428,800 bytes)", uncompressed. */
  public static final int MAX_BYTES = 50 * 1024 * 1024;
  /** sitemaps.org: "no more than 50,000 URLs" per sitemap, and 50,000 sitemaps per index. */
  public static final int MAX_URLS = 50_000;

  private SitemapReader() {}

  /**
   * What the sitemap at {@code sitemapUrl} lists.
   *
   * @param sitemapUrl the absolute URL the content was fetched from (relative entries of text
   *     sitemaps are not resolved; it names the sitemap in failures and tells crawler-commons the base)
   * @param content the response body after HTTP content decoding; gzip file content ({@code .xml.gz})
   *     is recognized by its magic bytes whatever the URL or content type say
   * @param contentType the response's Content-Type, if any; an HTML type is refused as "not a sitemap"
   *     (a soft 404); otherwise the content decides between XML and text
   */
  public static SitemapResult read(String sitemapUrl, byte[] content, Optional<String> contentType) {
    URL base;
    try {
      base = URI.create(sitemapUrl).toURL();
    } catch (IllegalArgumentException | MalformedURLException e) {
      return new Failure("not an absolute URL: " + sitemapUrl);
    }
    if (contentType.map(type -> type.toLowerCase(Locale.ROOT).contains("html")).orElse(false)) {
      return new Failure("not a sitemap: Content-Type " + contentType.get());
    }
    byte[] body = content;
    if (Gzip.isGzip(body)) {
      Optional<byte[]> inflated = Gzip.inflate(body, MAX_BYTES);
      if (inflated.isEmpty()) return new Failure("gzip content broken or larger than " + MAX_BYTES + " bytes decoded");
      body = inflated.get();
      if (Gzip.isGzip(body)) return new Failure("gzip inside gzip");
    }
    if (body.length > MAX_BYTES) return new Failure("larger than " + MAX_BYTES + " bytes");
    Optional<String> refused = Prolog.refusal(body);
    if (refused.isPresent()) return new Failure(refused.get());
    try {
      // Not strict: a sitemap listed in robots.txt may list any URL of the host (sitemaps.org,
      // cross-submits); scope is the caller's check. Partial: keep what was read before an error.
      SiteMapParser parser = new SiteMapParser(false, true);
      boolean xml = Prolog.looksLikeXml(body);
      AbstractSiteMap parsed = parser.parseSiteMap(xml ? "text/xml" : "text/plain", body, base);
      SitemapResult result = parsed.isIndex() ? index((SiteMapIndex) parsed) : urlSet((SiteMap) parsed);
      // An XML urlset may be empty; text with no URL line in it is not a sitemap at all.
      if (!xml && result instanceof SitemapResult.UrlSet set && set.urls().isEmpty()) {
        return new Failure("not a sitemap: no URL in it");
      }
      return result;
    } catch (UnknownFormatException | IOException | RuntimeException e) {
      // Lenient on the web: whatever the parser throws on garbage is a failed sitemap, not a crash.
      return new Failure("unreadable sitemap: " + firstLine(e));
    }
  }

  private static SitemapResult urlSet(SiteMap sitemap) {
    List<Entry> entries = new ArrayList<>();
    for (SiteMapURL url : sitemap.getSiteMapUrls()) {
      if (!url.isValid() || url.getUrl() == null) continue;
      entries.add(new Entry(url.getUrl().toString(),
          Optional.ofNullable(url.getLastModified()).map(Date::toInstant)));
      if (entries.size() == MAX_URLS) break;
    }
    return new SitemapResult.UrlSet(entries, entries.size() == MAX_URLS);
  }

  private static SitemapResult index(SiteMapIndex index) {
    List<String> children = new ArrayList<>();
    for (AbstractSiteMap child : index.getSitemaps()) {
      if (child.getUrl() == null) continue;
      children.add(child.getUrl().toString());
      if (children.size() == MAX_URLS) break;
    }
    return new SitemapResult.Index(children, children.size() == MAX_URLS);
  }

  private static String firstLine(Exception e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
