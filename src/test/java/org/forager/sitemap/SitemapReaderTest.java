package org.forager.sitemap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.forager.sitemap.SitemapResult.Entry;
import org.forager.sitemap.SitemapResult.Failure;
import org.forager.sitemap.SitemapResult.Index;
import org.forager.sitemap.SitemapResult.UrlSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The sitemaps.org examples, gzip, text, the protocol's limits, and garbage. */
@Timeout(30)
class SitemapReaderTest {

  static final String SITEMAP = "http://www.example.com/sitemap.xml";

  static byte[] resource(String name) {
    try (InputStream in = SitemapReaderTest.class.getResourceAsStream("/sitemaps/" + name)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] gzip(byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static SitemapResult read(byte[] content) {
    return SitemapReader.read(SITEMAP, content, Optional.empty());
  }

  static final List<Entry> SAMPLE = List.of(
      new Entry("http://www.example.com/", Optional.of(Instant.parse("2005-01-01T00:00:00Z"))),
      new Entry("http://www.example.com/catalog?item=12&desc=vacation_hawaii", Optional.empty()),
      new Entry("http://www.example.com/catalog?item=73&desc=vacation_new_zealand",
          Optional.of(Instant.parse("2004-12-23T00:00:00Z"))),
      new Entry("http://www.example.com/catalog?item=74&desc=vacation_newfoundland",
          Optional.of(Instant.parse("2004-12-23T18:00:15Z"))),
      new Entry("http://www.example.com/catalog?item=83&desc=vacation_usa",
          Optional.of(Instant.parse("2004-11-23T00:00:00Z"))));

  @Test
  void readsTheSitemapsOrgSample() {
    assertEquals(new UrlSet(SAMPLE, false), read(resource("sitemaps-org-sample.xml")));
  }

  @Test
  void readsTheSitemapsOrgSampleGzippedWhateverTheUrlAndTypeSay() {
    byte[] gzipped = gzip(resource("sitemaps-org-sample.xml"));

    assertEquals(new UrlSet(SAMPLE, false),
        SitemapReader.read("http://www.example.com/sitemap1.xml.gz", gzipped, Optional.of("application/x-gzip")));
    assertEquals(new UrlSet(SAMPLE, false), SitemapReader.read(SITEMAP, gzipped, Optional.of("text/xml")));
  }

  @Test
  void readsTheSitemapsOrgIndex() {
    assertEquals(new Index(List.of("http://www.example.com/sitemap1.xml.gz",
        "http://www.example.com/sitemap2.xml.gz"), false), read(resource("sitemaps-org-index.xml")));
  }

  @Test
  void readsTheSitemapsOrgTextSitemap() {
    assertEquals(new UrlSet(List.of(
        new Entry("http://www.example.com/catalog?item=1", Optional.empty()),
        new Entry("http://www.example.com/catalog?item=11", Optional.empty())), false),
        SitemapReader.read("http://www.example.com/sitemap.txt", resource("sitemaps-org-text.txt"),
            Optional.of("text/plain")));
  }

  @Test
  void keepsFiftyThousandUrlsAndSaysItReachedTheCap() {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i <= SitemapReader.MAX_URLS; i++) text.append("http://www.example.com/p").append(i).append('\n');

    UrlSet result = assertInstanceOf(UrlSet.class, read(text.toString().getBytes(StandardCharsets.UTF_8)));

    assertEquals(SitemapReader.MAX_URLS, result.urls().size());
    assertTrue(result.truncated());
    assertFalse(assertInstanceOf(UrlSet.class, read(resource("sitemaps-org-sample.xml"))).truncated());
  }

  @Test
  void aGzipBombIsCutAtFiftyMebibytes() {
    byte[] bomb = gzip(new byte[SitemapReader.MAX_BYTES + 1]); // ~50 KiB on the wire

    Failure failure = assertInstanceOf(Failure.class, read(bomb));

    assertTrue(failure.reason().contains("larger than"), failure.reason());
  }

  @Test
  void moreThanFiftyMebibytesIsRefused() {
    byte[] big = new byte[SitemapReader.MAX_BYTES + 1];
    Arrays.fill(big, (byte) ' ');

    assertInstanceOf(Failure.class, read(big));
  }

  @Test
  void anHtmlPageIsNotASitemap() {
    byte[] page = "<!DOCTYPE html><html><body><a href=\"http://www.example.com/\">x</a></body></html>"
        .getBytes(StandardCharsets.UTF_8);

    assertEquals(new Failure("not a sitemap: an HTML page"), read(page));
    assertInstanceOf(Failure.class,
        SitemapReader.read(SITEMAP, resource("sitemaps-org-sample.xml"), Optional.of("text/html; charset=utf-8")));
  }

  @Test
  void garbageIsAFailureNeverAnException() {
    Random random = new Random(7);
    for (int i = 0; i < 200; i++) {
      byte[] junk = new byte[random.nextInt(2000)];
      random.nextBytes(junk);
      SitemapResult result = read(junk);
      assertFalse(result instanceof UrlSet set && !set.urls().isEmpty(), "junk read as URLs");
    }
    for (String text : List.of("", "   ", "<urlset", "<urlset><url><loc>", "<?xml version=\"1.0\"?><foo/>",
        "hello world", "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>not a url</loc>"
            + "<lastmod>yesterday</lastmod></url></urlset>")) {
      SitemapResult result = read(text.getBytes(StandardCharsets.UTF_8));
      assertFalse(result instanceof UrlSet set && !set.urls().isEmpty(), text + " read as URLs: " + result);
    }
    assertInstanceOf(Failure.class, read(gzip(new byte[0])));
    assertInstanceOf(Failure.class, read(new byte[] {0x1f, (byte) 0x8b, 8, 0, 1, 2}));
    assertInstanceOf(Failure.class, SitemapReader.read("not a url", resource("sitemaps-org-sample.xml"),
        Optional.empty()));
  }

  @Test
  void aBadLastmodLeavesTheUrlWithoutOne() {
    byte[] xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>http://www.example.com/a</loc><lastmod>last tuesday</lastmod></url>
        </urlset>
        """.getBytes(StandardCharsets.UTF_8);

    assertEquals(new UrlSet(List.of(new Entry("http://www.example.com/a", Optional.empty())), false), read(xml));
  }
}
