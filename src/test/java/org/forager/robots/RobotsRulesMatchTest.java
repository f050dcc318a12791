package org.forager.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.forager.store.OriginState.RobotsTxt;
import org.forager.url.UrlNormalizer;
import org.forager.url.WptUrlHrefs;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: {@link RobotsRules#isAllowed} hands crawler-commons the URL's path and query on a
 * placeholder host rather than have it parse the URL; the answer must be the library's own, for every
 * URL (on the URL as the library can read it, for one {@code java.net.URI} refuses): hand-picked edge cases and every http(s) URL the web-platform-tests URL data
 * normalizes to (read from {@code ../shared/data} when it is there), against rules with wildcards, end
 * anchors, escapes and overlapping allow and disallow lines.
 */
class RobotsRulesMatchTest {

  private static final String ROBOTS_URL = "https://example.org/robots.txt";
  private static final List<String> FILES = List.of(
      "User-agent: *\nDisallow: /private/\n",
      "User-agent: *\nDisallow: /\nAllow: /public/\nAllow: /$\n",
      "User-agent: *\nDisallow: /*.php$\nDisallow: /*?\nAllow: /*?page=\n",
      "User-agent: *\nDisallow: /a%3cd.html\nDisallow: /%7Ejoe/\nDisallow: /caf%C3%A9\nDisallow: /x y\n",
      "User-agent: *\nDisallow: /*/private/*\nAllow: /docs/private/public\nDisallow: /UPPER\n",
      "User-agent: foragerbot\nDisallow: /only-us\n\nUser-agent: *\nDisallow: /\n",
      "User-agent: *\nDisallow: /p/1\nDisallow: /;params\nDisallow: /%2F\nDisallow: /~tilde\n");

  private static final List<String> EDGE_CASES = List.of(
      "https://example.org", "https://example.org/", "http://example.org:8080/private/x",
      "https://example.org/private", "https://example.org/private/", "https://example.org/public/a?b=c",
      "https://example.org/index.php", "https://example.org/index.php?x", "https://example.org/list?page=2",
      "https://example.org/a%3cd.html", "https://example.org/a%3Cd.html", "https://example.org/~joe/",
      "https://example.org/%7ejoe/", "https://example.org/caf%C3%A9", "https://example.org/caf%c3%a9",
      "https://example.org/x%20y", "https://example.org/docs/private/public", "https://example.org/d/private/x",
      "https://example.org/UPPER", "https://example.org/upper", "https://example.org/only-us",
      "https://example.org/p/1.html", "https://example.org/;params", "https://example.org/%2F",
      "https://example.org/%2f", "https://example.org/%", "https://example.org/%4", "https://example.org/%zz",
      "https://example.org/a#frag", "https://example.org/a|b", "https://example.org/a^b", "https://example.org/{x}",
      "https://[::1]:8080/private/x", "https://user:pw@example.org/private/x", "https://EXAMPLE.org/private/",
      "https://ex_ample.org/private/x", "https://xn--caf-dma.example/private/x", "https://127.0.0.1/private/",
      "https://example.org/a?b=%ZZ", "https://example.org/a?q=\"x\"", "https://example.org/a/../b",
      "https://example.org/robots.txt");

  private static List<String> urls() throws IOException {
    Set<String> urls = new LinkedHashSet<>(EDGE_CASES);
    for (String href : WptUrlHrefs.all()) {
      UrlNormalizer.normalize(href)
          .filter(u -> u.startsWith("http://") || u.startsWith("https://"))
          .ifPresent(urls::add);
    }
    return new ArrayList<>(urls);
  }

  /**
   * The URL the library's answer is right for: the URL itself when {@code java.net.URI} takes it, else
   * its path and query percent-encoded by the library's own {@code escapePath} (which it applies to the
   * rules and to the paths it can parse) on a plain host; the library matched such a URL as "/".
   */
  private static String asTheLibraryCanRead(String url) {
    try {
      new URI(url);
      return url;
    } catch (URISyntaxException e) {
      int path = url.indexOf("://") + 3;
      while (path < url.length() && "/?#".indexOf(url.charAt(path)) < 0) path++;
      return "https://example.org" + SimpleRobotRules.escapePath(url.substring(path), null);
    }
  }

  @Test
  void everyAnswerIsTheLibrarysOwnOnTheUrlAsItCanReadIt() throws IOException {
    List<String> urls = urls();
    int refusedByUri = 0;
    for (String file : FILES) {
      byte[] body = file.getBytes(StandardCharsets.UTF_8);
      RobotsRules ours = RobotsRules.of(new RobotsTxt(200, body, Instant.EPOCH, Instant.EPOCH), ROBOTS_URL, "ForagerBot");
      BaseRobotRules library = new SimpleRobotRulesParser(Long.MAX_VALUE, 5)
          .parseContent(ROBOTS_URL, body, "text/plain", List.of("foragerbot"));
      for (String url : urls) {
        String readable = asTheLibraryCanRead(url);
        assertEquals(library.isAllowed(readable), ours.isAllowed(url), () -> url + " under\n" + file);
        if (!readable.equals(url)) refusedByUri++;
      }
    }
    assertTrue(refusedByUri > 0, "some URLs java.net.URI refuses");
  }

  @Test
  void charsUriRefusesAreMatchedAsWritten() {
    RobotsRules rules = RobotsRules.of(new RobotsTxt(200,
        "User-agent: *\nDisallow: /a|b\nDisallow: /s?q={\nDisallow: /p%zz\nDisallow: /c^d\nDisallow: /private/\n"
            .getBytes(StandardCharsets.UTF_8), Instant.EPOCH, Instant.EPOCH), "http://my_site.example/robots.txt",
        "ForagerBot");

    for (String url : List.of("http://my_site.example/a|b", "http://my_site.example/a%7Cb", "http://my_site.example/s?q={x}|y`",
        "http://my_site.example/p%zz/x", "http://my_site.example/c%5Ed", "http://my_site.example/private/x")) {
      assertFalse(rules.isAllowed(url), url);
    }
    for (String url : List.of("http://my_site.example/a|c", "http://my_site.example/s?q=x", "http://my_site.example/p%25zy")) {
      assertTrue(rules.isAllowed(url), url);
    }
  }

  @Test
  void aDollarInsideARuleIsACharacterOfThePathAndOneAtItsEndAnAnchor() {
    RobotsRules rules = RobotsRules.of(new RobotsTxt(200,
        ("User-agent: *\r\nDisallow: /a$b\r\nDisallow: /*.php$  # end\r\nDisallow: /x$y$\r\n"
            + "Sitemap: https://example.org/s$1.xml\r\n").getBytes(StandardCharsets.UTF_8),
        Instant.EPOCH, Instant.EPOCH), ROBOTS_URL, "ForagerBot");
    for (String path : List.of("/a$b", "/a%24b", "/a$bc", "/q.php", "/x$y")) {
      assertFalse(rules.isAllowed("https://example.org" + path), path);
    }
    for (String path : List.of("/a", "/ab", "/q.php?x", "/x$yz", "/x$y$")) {
      assertTrue(rules.isAllowed("https://example.org" + path), path);
    }
    assertEquals(List.of("https://example.org/s$1.xml"), rules.sitemaps(), "sitemaps as written");
  }

  @Test
  void anAnchorBeforeWhatEndsALineForTheParserStillAnchors() {
    List<byte[]> bodies = List.of(
        "User-agent: *\nDisallow: /*.php$\f\n".getBytes(StandardCharsets.UTF_8),
        "User-agent: *\nDisallow: /*.php$\u2028Disallow: /x\n".getBytes(StandardCharsets.UTF_8),
        "User-agent: *\nDisallow: /*.php$\u0085Disallow: /x\n".getBytes(StandardCharsets.UTF_8),
        "<html><body>User-agent: *<br>Disallow: /*.php$<br></body></html>".getBytes(StandardCharsets.UTF_8),
        "\uFEFFUser-agent: *\nDisallow: /*.php$\n".getBytes(StandardCharsets.UTF_16LE));
    for (byte[] body : bodies) {
      RobotsRules rules = RobotsRules.of(new RobotsTxt(200, body, Instant.EPOCH, Instant.EPOCH), ROBOTS_URL, "ForagerBot");
      BaseRobotRules library = new SimpleRobotRulesParser(Long.MAX_VALUE, 5)
          .parseContent(ROBOTS_URL, body, "text/plain", List.of("foragerbot"));
      // As the parser reads the file itself: escaping never loosens a rule.
      assertEquals(library.isAllowed("https://example.org/a.php"), rules.isAllowed("https://example.org/a.php"),
          () -> new String(body, StandardCharsets.ISO_8859_1));
    }
    RobotsRules formFeed = RobotsRules.of(new RobotsTxt(200, bodies.getFirst(), Instant.EPOCH, Instant.EPOCH),
        ROBOTS_URL, "ForagerBot");
    assertFalse(formFeed.isAllowed("https://example.org/a.php"));
  }

  @Test
  void everyHttpUrlTakesThePathDirectly() {
    assertEquals("/p/1.html", RobotsRules.pathOnly("http://127.1.0.1:8080/p/1.html").getFile());
    assertEquals("/p/1.html?x=1", RobotsRules.pathOnly("https://example.org/p/1.html?x=1").getFile());
    assertEquals("", RobotsRules.pathOnly("https://example.org").getFile());
    assertEquals("/p", RobotsRules.pathOnly("https://[::1]/p").getFile());
    assertEquals("/p", RobotsRules.pathOnly("https://user@example.org/p").getFile());
    assertEquals("/a|b", RobotsRules.pathOnly("https://ex_ample.org/a|b").getFile());
    assertEquals("?q", RobotsRules.pathOnly("https://example.org?q").getFile());
    assertEquals("/a", RobotsRules.pathOnly("https://example.org/a#f").getFile());
    assertNull(RobotsRules.pathOnly("ftp://example.org/a"), "another scheme");
  }
}
