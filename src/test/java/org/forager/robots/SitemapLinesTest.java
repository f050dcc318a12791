package org.forager.robots;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import org.forager.store.OriginState.RobotsTxt;
import org.junit.jupiter.api.Test;

class SitemapLinesTest {

  @Test
  void everySitemapLineInOrderWhateverTheGroupsAndCase() {
    String robots = "\uFEFFSitemap: https://www.example.com/a.xml\r\n"
        + "User-agent: *\nDisallow: /private\n"
        + "  SITEMAP :\t/b.xml   # the news\n"
        + "sitemap:\n"
        + "Sitemaps: /not-the-key.xml\n"
        + "# Sitemap: /commented.xml\n"
        + "User-agent: other\rsitemap:/c|d.xml";

    assertEquals(List.of("https://www.example.com/a.xml", "/b.xml", "/c|d.xml"), SitemapLines.of(robots.getBytes(UTF_8)));
  }

  @Test
  void aHugeListIsCut() {
    String robots = "Sitemap: /s.xml\n".repeat(SitemapLines.MAX_KEPT + 10);

    assertEquals(SitemapLines.MAX_KEPT, SitemapLines.of(robots.getBytes(UTF_8)).size());
  }

  @Test
  void theRulesGiveTheLinesCrawlerCommonsWouldDrop() {
    byte[] body = "User-agent: *\nAllow: /\nSitemap: /maps/a|b.xml\nSitemap: https://x_y.example/s.xml\n".getBytes(UTF_8);

    RobotsRules rules = RobotsRules.of(new RobotsTxt(200, body, Instant.EPOCH, Instant.EPOCH), "http://my_site.example/robots.txt", "ForagerBot");

    assertEquals(List.of("/maps/a|b.xml", "https://x_y.example/s.xml"), rules.sitemaps());
  }
}
