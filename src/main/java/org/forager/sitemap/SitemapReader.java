package org.forager.sitemap;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import org.forager.sitemap.SitemapResult.Entry;
import org.forager.sitemap.SitemapResult.Failure;
import org.forager.url.UrlNormalizer;

/**
 * Reads one sitemap file (sitemaps.org protocol 0.9): an XML {@code <urlset>} or {@code
 * <sitemapindex>}, or a text sitemap (one URL per line), any of them gzipped. Never throws on bad
 * content: anything it cannot read is a {@link Failure}. Thread-safe.
 *
 * <p><b>Streaming, in bounded memory.</b> The file is decoded, checked and parsed as a stream (the
 * JDK's StAX parser for XML), and what it lists goes to the caller in batches of at most 1,000 as it
 * is read: no more than one batch, a few buffers and at most 64 KiB of markup are held at a time,
 * whatever the file holds. Caps apply during the read, and nothing past them is decoded or built: at
 * most {@link #MAX_BYTES} bytes after decompression and {@link #MAX_URLS} entries (sitemaps.org,
 * "Sitemap file location" and "Using Sitemap index files"), URLs of at most {@link #MAX_URL_LENGTH}
 * characters (longer ones skipped). A file cut at a cap keeps what was read before it and says so
 * ({@code cut}). A total per origin is the caller's to keep.
 *
 * <p><b>A budget for the process.</b> At most {@link #MAX_CONCURRENT_READS} files are read at once in
 * the whole process (a fair semaphore; further readers wait, the wait bounded by the time one read
 * takes), so that all sitemap work together holds a few MiB, however many origins read at once.
 *
 * <p><b>Safety.</b> A document with a DOCTYPE (or an ENTITY declaration) anywhere is refused before
 * the parser sees it ({@link XmlGuard}), so no external entity (XXE) is resolved and no entity is
 * expanded (billion laughs); the sitemap schema needs neither, and the parser has DTDs and external
 * entities off as well. Documents that are not in an ASCII-compatible encoding (UTF-16, UTF-32) are
 * refused too, since the guard reads bytes, and sitemaps.org requires UTF-8 anyway. A {@code
 * <lastmod>} is kept only within a sane range ({@link Entry}).
 */
public final class SitemapReader {

  /** sitemaps.org: "no larger than 50MB (52,428,800 bytes)", uncompressed. */
  public static final int MAX_BYTES = 50 * 1024 * 1024;
  /** sitemaps.org: "no more than 50,000 URLs" per sitemap, and 50,000 sitemaps per index. */
  public static final int MAX_URLS = 50_000;
  /** sitemaps.org: a URL "must be less than 2,048 characters"; the crawl's default limit too. */
  public static final int MAX_URL_LENGTH = 2048;
  /** Files read at once in the whole process; more readers wait their turn. */
  public static final int MAX_CONCURRENT_READS = 4;

  private static final Semaphore READS = new Semaphore(MAX_CONCURRENT_READS, true);

  private SitemapReader() {}

  /**
   * Reads the sitemap at {@code sitemapUrl}, handing what it lists to {@code pages} or {@code
   * sitemaps} in batches, in document order, on the calling thread, as it is read. An exception the
   * consumers throw ends the read and goes up as it is.
   *
   * @param sitemapUrl the absolute URL the content was fetched from (it names the sitemap; relative
   *     entries are not resolved against it: sitemaps.org requires absolute URLs)
   * @param content the response body after HTTP content decoding; gzip file content ({@code .xml.gz})
   *     is recognized by its magic bytes whatever the URL or content type say
   * @param contentType the response's Content-Type, if any; an HTML type is refused as "not a sitemap"
   *     (a soft 404); otherwise the content decides between XML and text
   * @param now the crawler's clock: a {@code <lastmod>} more than a day after it is dropped
   * @param pages receives the page entries of a {@code <urlset>} or text sitemap
   * @param sitemaps receives the child sitemap URLs of a {@code <sitemapindex>}, as written
   * @return how many entries went to the caller and whether reading stopped early, or why the file is
   *     not a sitemap (entries may have gone to the caller before a failure was found only if the
   *     result says {@code cut})
   */
  public static SitemapResult read(String sitemapUrl, byte[] content, Optional<String> contentType, Instant now,
      Consumer<List<Entry>> pages, Consumer<List<String>> sitemaps) {
    if (UrlNormalizer.normalize(sitemapUrl).isEmpty()) {
      return new Failure("not an absolute http(s) URL: " + sitemapUrl);
    }
    if (contentType.map(type -> type.toLowerCase(Locale.ROOT).contains("html")).orElse(false)) {
      return new Failure("not a sitemap: Content-Type " + contentType.get());
    }
    try {
      READS.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Failure("not read: interrupted");
    }
    try (InputStream decoded = Gzip.isGzip(content) ? Gzip.open(content) : new ByteArrayInputStream(content)) {
      return parse(decoded, now, pages, sitemaps);
    } catch (IOException e) {
      return new Failure(Stop.reason(e)); // a broken gzip header
    } finally {
      READS.release();
    }
  }

  /**
   * Reads content already decoded from its gzip file form, if it had one, with the caps of {@link
   * #read}; the caller holds a read permit. Package-private so that tests can count what it reads.
   */
  static SitemapResult parse(InputStream decoded, Instant now, Consumer<List<Entry>> pages,
      Consumer<List<String>> sitemaps) {
    BufferedInputStream in = new BufferedInputStream(new CappedInputStream(decoded, MAX_BYTES));
    Prolog prolog;
    try {
      prolog = Prolog.read(in);
    } catch (IOException e) {
      return new Failure(Stop.reason(e)); // broken gzip, or only white space up to the cap
    }
    Optional<String> refused = prolog.refusal();
    if (refused.isPresent()) return new Failure(refused.get());
    Batcher<Entry> pageBatches = new Batcher<>(MAX_URLS, pages);
    if (!prolog.looksLikeXml()) return TextSitemap.read(in, pageBatches);
    return new XmlSitemap(now, pageBatches, new Batcher<>(MAX_URLS, sitemaps)).read(new XmlGuard(in));
  }

  /** The stripped text when it is an absolute http(s) URL of at most {@link #MAX_URL_LENGTH} chars. */
  static Optional<String> absoluteUrl(CharSequence text) {
    String url = text.toString().strip();
    if (url.length() > MAX_URL_LENGTH) return Optional.empty();
    String start = url.substring(0, Math.min(8, url.length())).toLowerCase(Locale.ROOT);
    boolean http = start.startsWith("http://") && url.length() > 7
        || start.startsWith("https://") && url.length() > 8;
    return http ? Optional.of(url) : Optional.empty();
  }
}
