package org.forager.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.io.IOException;
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
 * placeholder host where its own parse would take the URL as it is; the answer must be the library's
 * own, for every URL: hand-picked edge cases and every http(s) URL the web-platform-tests URL data
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

  @Test
  void everyAnswerIsTheLibrarysOwn() throws IOException {
    List<String> urls = urls();
    int fast = 0;
    for (String file : FILES) {
      byte[] body = file.getBytes(StandardCharsets.UTF_8);
      RobotsRules ours = RobotsRules.of(new RobotsTxt(200, body, Instant.EPOCH, Instant.EPOCH), ROBOTS_URL, "ForagerBot");
      BaseRobotRules library = new SimpleRobotRulesParser(Long.MAX_VALUE, 5)
          .parseContent(ROBOTS_URL, body, "text/plain", List.of("foragerbot"));
      for (String url : urls) {
        assertEquals(library.isAllowed(url), ours.isAllowed(url), () -> url + " under\n" + file);
        if (RobotsRules.pathOnly(url) != null) fast++;
      }
    }
    assertTrue(fast > urls.size() * FILES.size() / 2, "most URLs take the path without the library's parse: " + fast);
  }

  @Test
  void onlyAPlainHostAndUriCharsTakeThePathDirectly() {
    assertNotNull(RobotsRules.pathOnly("http://127.1.0.1:8080/p/1.html"));
    assertEquals("/p/1.html?x=1", RobotsRules.pathOnly("https://example.org/p/1.html?x=1").getFile());
    assertEquals("", RobotsRules.pathOnly("https://example.org").getFile());
    assertNull(RobotsRules.pathOnly("https://[::1]/p"), "an IPv6 address");
    assertNull(RobotsRules.pathOnly("https://user@example.org/p"), "a user");
    assertNull(RobotsRules.pathOnly("https://example.org/a|b"), "a char URI refuses");
    assertNull(RobotsRules.pathOnly("https://example.org/a%zz"), "a broken escape");
    assertNull(RobotsRules.pathOnly("https://example.org/a#f"), "a fragment");
    assertNull(RobotsRules.pathOnly("ftp://example.org/a"), "another scheme");
  }
}
