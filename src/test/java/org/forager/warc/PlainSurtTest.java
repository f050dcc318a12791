package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.forager.url.UrlNormalizer;
import org.forager.url.WptUrlHrefs;
import org.junit.jupiter.api.Test;
import org.netpreserve.jwarc.URIs;

/**
 * The CDXJ index's URL key is jwarc's SURT (what pywb and jwarc look records up by): the direct
 * computation for plain URLs must give jwarc's string for every URL it takes, and leave the others to
 * jwarc.
 */
class PlainSurtTest {

  private static final List<String> EDGE_CASES = List.of(
      "http://127.1.0.1:8080/p/1.html", "http://example.org", "http://example.org/", "https://example.org:443/a",
      "http://example.org:80/a", "http://example.org:443/a", "https://example.org:80/a", "http://example.org:8080",
      "http://example.org:080/", "http://example.org:/a", "http://www.example.org/a", "http://www2.example.org/",
      "http://www.com/", "http://www/", "http://www2/", "http://wwwx.example.org/", "http://www..example.org/",
      "http://example.org./", "http://.example.org/", "http://a..b/", "http://localhost/", "http://a-b.c-d.e/x",
      "http://example.org/A/B/C.HTML", "http://example.org/a/./b/../c", "http://example.org/../a", "http://example.org/a/..",
      "http://example.org/a//b///c/", "http://example.org/a/", "http://example.org/.", "http://example.org/..",
      "http://example.org/...", "http://example.org/a/.../b", "http://example.org/;x=1", "http://example.org/a:b@c",
      "http://example.org/(abcdefghijklmnopqrstuvwx)/x.aspx", "http://example.org/a(b)", "http://example.org/a)b",
      "http://example.org/a%20b", "http://example.org/a?b=c", "http://example.org/a?", "http://example.org/a#f",
      "http://example.org/caf\u00e9", "http://example.org/a\\b", "http://Example.org/", "http://user@example.org/",
      "http://[::1]/", "http://example.org:8080:90/", "https://EXAMPLE.ORG/", "ftp://example.org/", "HTTP://example.org/",
      "http://xn--caf-dma.example/x", "http://ex_ample.org/", "http://example.org/~joe/", "http://example.org/a'b\"c",
      "http://example.org/{x}|^`", "http://example.org/a b", "http://1.2.3.4:81/x/");

  @Test
  void theKeyIsJwarcsForEveryUrlItTakesAndTheRestGoToJwarc() throws IOException {
    int plain = 0;
    List<String> urls = urls();
    for (String url : urls) {
      String direct = PlainSurt.of(url);
      if (direct != null) {
        assertEquals(URIs.toNormalizedSurt(url), direct, url);
        plain++;
      }
      assertEquals(URIs.toNormalizedSurt(url).replace(" ", "%20").replace("\n", "%0A").replace("\r", "%0D"),
          CdxjLines.urlKey(url), url);
    }
    assertTrue(plain > urls.size() / 2, "most URLs are plain: " + plain + " of " + urls.size());
  }

  @Test
  void onlyPlainUrlsAreComputedDirectly() {
    assertEquals("org,example:8080)/p/1.html", PlainSurt.of("http://www.example.org:8080/p/1.HTML"));
    assertEquals("org,example)/c", PlainSurt.of("https://example.org:443/a/./b/../../c/"));
    assertNull(PlainSurt.of("http://example.org/a?b=c"), "a query");
    assertNull(PlainSurt.of("http://example.org/a%2F"), "an escape");
    assertNull(PlainSurt.of("http://Example.org/"), "an upper-case host");
    assertNull(PlainSurt.of("http://user@example.org/"), "a user");
    assertNull(PlainSurt.of("http://[::1]/"), "an IPv6 address");
    assertNull(PlainSurt.of("http://example.org/(s)/x.aspx"), "what may be a session id");
    assertNull(PlainSurt.of("http://example.org/caf\u00e9"), "a char outside ASCII");
  }

  /** The edge cases, generated URLs of every part a plain URL may have, and the WPT URL data normalized. */
  private static List<String> urls() throws IOException {
    Set<String> urls = new LinkedHashSet<>(EDGE_CASES);
    Random random = new Random(20261130);
    String[] hosts = {"example.org", "www.example.org", "www7.a.b.c", "a", "127.1.3.231", "x-y.z9", "www.www.org"};
    String[] ports = {"", ":80", ":443", ":8080", ":0"};
    String[] segments = {"a", "B", ".", "..", "", "index.html", "%41", "x;y", "a:b", "~u", "_-!*'", "wwW", "..."};
    for (int i = 0; i < 5_000; i++) {
      StringBuilder url = new StringBuilder(random.nextBoolean() ? "http://" : "https://")
          .append(hosts[random.nextInt(hosts.length)]).append(ports[random.nextInt(ports.length)]);
      int depth = random.nextInt(6);
      for (int d = 0; d < depth; d++) url.append('/').append(segments[random.nextInt(segments.length)]);
      if (random.nextInt(10) == 0) url.append('/');
      urls.add(url.toString());
    }
    for (String href : WptUrlHrefs.all()) {
      urls.add(href);
      UrlNormalizer.normalize(href).ifPresent(urls::add);
    }
    return new ArrayList<>(urls);
  }
}
