package org.forager.sitemap;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.forager.sitemap.SitemapResult.Entry;

/**
 * Reads a text sitemap (sitemaps.org, "Text file": one URL per line, UTF-8) as a stream. A line
 * that does not start with {@code http://} or {@code https://}, or is longer than {@link
 * SitemapReader#MAX_URL_LENGTH} bytes, is skipped without a word and without building anything of
 * it: 200,000 bad lines cost a look at each byte, no warning and no object. Stateless.
 */
final class TextSitemap {

  private static final byte[] HTTP = "http://".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] HTTPS = "https://".getBytes(StandardCharsets.US_ASCII);

  private TextSitemap() {}

  static SitemapResult read(InputStream in, Batcher<Entry> pages) {
    byte[] line = new byte[SitemapReader.MAX_URL_LENGTH + 1]; // one more says it was too long
    int length = 0;
    byte[] buffer = new byte[8192];
    boolean room = true;
    Optional<String> cut = Optional.empty();
    try {
      for (int n; room && (n = in.read(buffer)) != -1; ) {
        for (int i = 0; i < n && room; i++) {
          byte b = buffer[i];
          if (b == '\n' || b == '\r') {
            room = add(line, length, pages);
            length = 0;
          } else if (length < line.length) {
            line[length++] = b;
          }
        }
      }
      if (room) room = add(line, length, pages);
      if (!room) cut = Optional.of("more than " + SitemapReader.MAX_URLS + " URLs");
    } catch (IOException e) {
      cut = Optional.of(Stop.reason(e));
    }
    pages.flush();
    if (pages.count() == 0) return new SitemapResult.Failure(cut.orElse("not a sitemap: no URL in it"));
    return new SitemapResult.UrlSet(pages.count(), cut);
  }

  /** Adds the line when it is a URL; false when it is one past the cap. */
  private static boolean add(byte[] line, int length, Batcher<Entry> pages) {
    if (length > SitemapReader.MAX_URL_LENGTH) return true;
    int start = 0;
    int end = length;
    while (start < end && (line[start] == ' ' || line[start] == '\t')) start++;
    while (end > start && (line[end - 1] == ' ' || line[end - 1] == '\t')) end--;
    if (!startsWith(line, start, end, HTTP) && !startsWith(line, start, end, HTTPS)) return true;
    if (!pages.hasRoom()) return false;
    pages.add(new Entry(new String(line, start, end - start, StandardCharsets.UTF_8), Optional.empty()));
    return true;
  }

  /** Whether {@code line[start, end)} starts with the lower-case ASCII {@code prefix}, case ignored. */
  private static boolean startsWith(byte[] line, int start, int end, byte[] prefix) {
    if (end - start <= prefix.length) return false; // a scheme alone is no URL
    for (int i = 0; i < prefix.length; i++) {
      int b = line[start + i];
      if (b >= 'A' && b <= 'Z') b += 'a' - 'A';
      if (b != prefix[i]) return false;
    }
    return true;
  }
}
