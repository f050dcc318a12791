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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
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

  static final Instant NOW = Instant.parse("2026-11-24T00:00:00Z");

  /** A file read whole: the result and every entry that went to the caller. */
  record Read(SitemapResult result, List<Entry> pages, List<String> sitemaps) {}

  static Read read(String url, byte[] content, Optional<String> contentType) {
    List<Entry> pages = new ArrayList<>();
    List<String> sitemaps = new ArrayList<>();
    SitemapResult result = SitemapReader.read(url, content, contentType, NOW, pages::addAll, sitemaps::addAll);
    return new Read(result, pages, sitemaps);
  }

  static Read read(byte[] content) {
    return read(SITEMAP, content, Optional.empty());
  }

  static Read urlSet(List<Entry> pages, Optional<String> cut) {
    return new Read(new UrlSet(pages.size(), cut), pages, List.of());
  }

  static final List<Entry> SAMPLE = List.of(
      new Entry("http://www.example.com/", Optional.of(Instant.parse("2005-01-01T00:00:00Z")), OptionalDouble.of(0.8)),
      new Entry("http://www.example.com/catalog?item=12&desc=vacation_hawaii", Optional.empty()),
      new Entry("http://www.example.com/catalog?item=73&desc=vacation_new_zealand",
          Optional.of(Instant.parse("2004-12-23T00:00:00Z"))),
      new Entry("http://www.example.com/catalog?item=74&desc=vacation_newfoundland",
          Optional.of(Instant.parse("2004-12-23T18:00:15Z")), OptionalDouble.of(0.3)),
      new Entry("http://www.example.com/catalog?item=83&desc=vacation_usa",
          Optional.of(Instant.parse("2004-11-23T00:00:00Z"))));

  @Test
  void readsTheSitemapsOrgSample() {
    assertEquals(urlSet(SAMPLE, Optional.empty()), read(resource("sitemaps-org-sample.xml")));
  }

  @Test
  void readsTheSitemapsOrgSampleGzippedWhateverTheUrlAndTypeSay() {
    byte[] gzipped = gzip(resource("sitemaps-org-sample.xml"));

    assertEquals(urlSet(SAMPLE, Optional.empty()),
        read("http://www.example.com/sitemap1.xml.gz", gzipped, Optional.of("application/x-gzip")));
    assertEquals(urlSet(SAMPLE, Optional.empty()), read(SITEMAP, gzipped, Optional.of("text/xml")));
  }

  @Test
  void readsTheSitemapsOrgIndex() {
    List<String> children = List.of("http://www.example.com/sitemap1.xml.gz", "http://www.example.com/sitemap2.xml.gz");
    assertEquals(new Read(new Index(2, Optional.empty()), List.of(), children), read(resource("sitemaps-org-index.xml")));
  }

  @Test
  void readsTheSitemapsOrgTextSitemap() {
    assertEquals(urlSet(List.of(
        new Entry("http://www.example.com/catalog?item=1", Optional.empty()),
        new Entry("http://www.example.com/catalog?item=11", Optional.empty())), Optional.empty()),
        read("http://www.example.com/sitemap.txt", resource("sitemaps-org-text.txt"), Optional.of("text/plain")));
  }

  @Test
  void keepsFiftyThousandUrlsAndSaysItReachedTheCap() {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i <= SitemapReader.MAX_URLS; i++) text.append("http://www.example.com/p").append(i).append('\n');

    Read read = read(text.toString().getBytes(StandardCharsets.UTF_8));

    assertEquals(new UrlSet(SitemapReader.MAX_URLS, Optional.of("more than 50000 URLs")), read.result());
    assertEquals(SitemapReader.MAX_URLS, read.pages().size());
    assertEquals(new UrlSet(5, Optional.empty()), read(resource("sitemaps-org-sample.xml")).result());
  }

  @Test
  void aGzipBombIsCutAtFiftyMebibytes() {
    byte[] spaces = new byte[SitemapReader.MAX_BYTES + 1];
    Arrays.fill(spaces, (byte) ' ');
    byte[] bomb = gzip(spaces); // ~50 KiB on the wire (zeros would be refused at once: not UTF-8)

    Failure failure = assertInstanceOf(Failure.class, read(bomb).result());

    assertTrue(failure.reason().contains("larger than"), failure.reason());
  }

  @Test
  void moreThanFiftyMebibytesIsRefused() {
    byte[] big = new byte[SitemapReader.MAX_BYTES + 1];
    Arrays.fill(big, (byte) ' ');

    assertInstanceOf(Failure.class, read(big).result());
  }

  @Test
  void anHtmlPageIsNotASitemap() {
    byte[] page = "<!DOCTYPE html><html><body><a href=\"http://www.example.com/\">x</a></body></html>"
        .getBytes(StandardCharsets.UTF_8);

    assertEquals(new Failure("not a sitemap: an HTML page"), read(page).result());
    assertInstanceOf(Failure.class,
        read(SITEMAP, resource("sitemaps-org-sample.xml"), Optional.of("text/html; charset=utf-8")).result());
  }

  @Test
  void aSitemapUrlJavaNetUriRefusesIsRead() {
    for (String url : List.of("http://my_site.example/sitemap.xml", "http://www.example.com/sitemap.xml?a|b")) {
      Read read = read(url, resource("sitemaps-org-sample.xml"), Optional.empty());

      assertInstanceOf(UrlSet.class, read.result(), url);
      assertEquals(5, read.pages().size(), url);
    }
  }

  @Test
  void garbageIsAFailureNeverAnException() {
    Random random = new Random(7);
    for (int i = 0; i < 200; i++) {
      byte[] junk = new byte[random.nextInt(2000)];
      random.nextBytes(junk);
      Read read = read(junk);
      assertTrue(read.pages().isEmpty() && read.sitemaps().isEmpty(), "junk read as URLs");
      assertFalse(read.result() instanceof UrlSet set && set.urls() > 0, "junk read as URLs");
    }
    for (String text : List.of("", "   ", "<urlset", "<urlset><url><loc>", "<?xml version=\"1.0\"?><foo/>",
        "hello world", "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>not a url</loc>"
            + "<lastmod>yesterday</lastmod></url></urlset>")) {
      Read read = read(text.getBytes(StandardCharsets.UTF_8));
      assertTrue(read.pages().isEmpty(), text + " read as URLs: " + read);
    }
    assertInstanceOf(Failure.class, read(gzip(new byte[0])).result());
    assertInstanceOf(Failure.class, read(new byte[] {0x1f, (byte) 0x8b, 8, 0, 1, 2}).result());
    assertInstanceOf(Failure.class, read("not a url", resource("sitemaps-org-sample.xml"), Optional.empty()).result());
    assertEquals(new Failure("not an absolute http(s) URL: ftp://www.example.com/sitemap.xml"),
        read("ftp://www.example.com/sitemap.xml", resource("sitemaps-org-sample.xml"), Optional.empty()).result());
  }

  @Test
  void aBadLastmodLeavesTheUrlWithoutOne() {
    byte[] xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>http://www.example.com/a</loc><lastmod>last tuesday</lastmod></url>
        </urlset>
        """.getBytes(StandardCharsets.UTF_8);

    assertEquals(urlSet(List.of(new Entry("http://www.example.com/a", Optional.empty())), Optional.empty()), read(xml));
  }

  @Test
  void aLastmodInYear99999Or1970IsDroppedNotThrown() {
    byte[] xml = ("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
        + "<url><loc>http://www.example.com/a</loc><lastmod>+99999-12-31T00:00:00Z</lastmod></url>"
        + "<url><loc>http://www.example.com/b</loc><lastmod>99999-12-31</lastmod></url>"
        + "<url><loc>http://www.example.com/c</loc><lastmod>1970-01-01T00:00:00Z</lastmod></url>"
        + "<url><loc>http://www.example.com/d</loc><lastmod>2026-11-23</lastmod></url>"
        + "</urlset>").getBytes(StandardCharsets.UTF_8);

    assertEquals(urlSet(List.of(new Entry("http://www.example.com/a", Optional.empty()),
        new Entry("http://www.example.com/b", Optional.empty()),
        new Entry("http://www.example.com/c", Optional.empty()),
        new Entry("http://www.example.com/d", Optional.of(Instant.parse("2026-11-23T00:00:00Z")))), Optional.empty()),
        read(xml));
  }

  @Test
  void aPriorityIsADecimalFromZeroToOneOrAsIfAbsent() {
    assertEquals(OptionalDouble.of(0.5), XmlSitemap.priority(" 0.5\n"));
    assertEquals(OptionalDouble.of(1.0), XmlSitemap.priority("1.0"));
    assertEquals(OptionalDouble.of(0.0), XmlSitemap.priority("0"));
    assertEquals(OptionalDouble.of(0.25), XmlSitemap.priority(".25"));
    for (String bad : new String[] {"", "1.5", "-0.1", "high", "NaN", "1e-1", "0x1", "0.5.5", "1".repeat(40)}) {
      assertEquals(OptionalDouble.empty(), XmlSitemap.priority(bad), bad);
    }
  }
}
