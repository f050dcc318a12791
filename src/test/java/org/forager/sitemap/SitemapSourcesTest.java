package org.forager.sitemap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.forager.url.Origin;
import org.junit.jupiter.api.Test;

class SitemapSourcesTest {

  private static final Origin ORIGIN = new Origin("https", "www.example.com", 443);

  @Test
  void robotsTxtSitemapsInTheirOrderWithoutDuplicates() {
    assertEquals(List.of("https://www.example.com/sitemap-news.xml", "https://cdn.example.net/sitemaps/all.xml.gz"),
        SitemapSources.of(ORIGIN, List.of("https://www.example.com/sitemap-news.xml",
            "https://cdn.example.net/sitemaps/all.xml.gz", "https://www.example.com/sitemap-news.xml")));
  }

  @Test
  void noneListedMeansSlashSitemapXml() {
    assertEquals(List.of("https://www.example.com/sitemap.xml"), SitemapSources.of(ORIGIN, List.of()));
    assertEquals(List.of("http://127.0.0.1:8080/sitemap.xml"),
        SitemapSources.of(new Origin("http", "127.0.0.1", 8080), List.of()));
  }

  @Test
  void relativeOnesAreResolvedAndUnusableOnesDropped() {
    assertEquals(List.of("https://www.example.com/sitemaps/a.xml"),
        SitemapSources.of(ORIGIN, List.of("/sitemaps/a.xml", "ftp://www.example.com/b.xml", "http://[bad", "")));
    assertEquals(List.of("https://www.example.com/sitemap.xml"),
        SitemapSources.of(ORIGIN, List.of("mailto:webmaster@example.com")));
  }

  @Test
  void urlsJavaNetUriRefusesAreKeptAsABrowserResolvesThem() {
    Origin underscore = new Origin("http", "my_site.example", 80);

    assertEquals(List.of("http://my_site.example/sitemap.xml?a|b", "http://my_site.example/maps/x|y.xml",
            "http://cdn_1.example.net/s%20t.xml"),
        SitemapSources.of(underscore, List.of("/sitemap.xml?a|b", "maps/x|y.xml", "HTTP://CDN_1.example.net/s t.xml")));
  }

  @Test
  void aHugeListIsCut() {
    List<String> many = new ArrayList<>();
    for (int i = 0; i < 1000; i++) many.add("https://www.example.com/s" + i + ".xml");

    assertEquals(SitemapSources.MAX_ROBOTS_SITEMAPS, SitemapSources.of(ORIGIN, many).size());
  }
}
