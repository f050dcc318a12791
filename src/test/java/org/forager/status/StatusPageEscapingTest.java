package org.forager.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.forager.config.CrawlConfig;
import org.forager.crawl.Crawler;
import org.forager.fetch.Outcome;
import org.forager.record.CrawlAction;
import org.forager.testweb.Chromium;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crawled strings are attacker-chosen (issue 12, item 12): URLs and the messages of failed fetches
 * reach {@code /api/status} escaped and the page as text, and run nothing there.
 */
@Timeout(180)
class StatusPageEscapingTest {

  /** Each would change the page if it ran: its title, a mark on its body. */
  private static final String SCRIPT = "<script>document.title='PWNED'</script>";
  private static final String IMG = "<img src=x onerror=\"document.body.dataset.pwned='1'\">";
  /** What the hostile server sends instead of a status line; the fetcher's message quotes it. */
  private static final String GARBAGE = SCRIPT + IMG + " \"double\" 'single' \u0001\u001b[31m\u007f\u0085 end";
  private static final ObjectMapper STRICT = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  void hostileUrlsAndServerMessagesAreShownAsTextAndRunNothing() throws Exception {
    Optional<Chromium> found = Chromium.find(tmp);
    if (found.isEmpty()) System.err.println("StatusPageEscapingTest skipped: " + Chromium.notFound("run the status page's browser test"));
    Assumptions.assumeTrue(found.isPresent(), () -> Chromium.notFound("run the status page's browser test"));

    try (GarbageOrigin hostile = new GarbageOrigin(GARBAGE);
        TestSite site = TestSite.start().robots("User-agent: *\nAllow: /\n");
        StatusServer status = StatusServer.start("127.0.0.1", 0)) {
      // Pages that are not there (404), with the payloads in their paths.
      site.html("/", "<!doctype html><body>" + link("/a" + SCRIPT) + link("/b\"" + IMG)
          + link("/c'%01%1B%7F\u0001\u2028"));
      CrawlConfig config = TestCrawl.config(tmp.resolve("data"), List.of(site.url("/"), hostile.url("/")),
          "limits: { fetch_timeout: 5s, max_retries: 0 }\n");
      try (Crawler crawler = Crawler.open(config, status::timed).listener(status.listener()).quiet(true)) {
        crawler.run();
      }
      StatusClient client = new StatusClient(status.uri());
      HttpResponse<String> response = client.get("/api/status");
      assertEscaped(response.body());
      JsonNode errors = STRICT.readTree(response.body()).get("recent_errors");
      List<String> shown = new ArrayList<>();
      errors.forEach(e -> {
        shown.add(e.get("url").asText());
        shown.add(e.get("message").asText());
      });
      assertTrue(shown.stream().anyMatch(s -> s.contains(SCRIPT) && s.contains(IMG) && s.contains("\u007f\u0085")),
          "the server's garbage is quoted in a message: " + shown);
      assertTrue(shown.stream().filter(s -> s.startsWith(site.url("/"))).count() >= 3, "the three 404s: " + shown);

      String dom = found.get().dumpDom(status.uri(), 2500);
      assertTrue(Long.parseLong(attribute(dom, "body", "data-updates")) >= 1, "the page rendered the JSON:\n" + dom);
      assertEquals("Forager: crawl status", title(dom), "no script of theirs ran");
      assertFalse(dom.contains("data-pwned"), "no handler of theirs ran");
      assertFalse(dom.contains("<img"), "no element of theirs was made");
      for (String text : shown) assertTrue(dom.contains(asHtmlText(text)), "shown literally: " + text + "\n" + dom);
    }
  }

  @Test
  void everyControlCharacterAndMarkupCharacterIsEscapedInTheJson() throws Exception {
    StringBuilder nasty = new StringBuilder("<>&'\"\\/");
    for (char c = 0; c < 0x20; c++) nasty.append(c);
    for (char c = 0x7f; c <= 0x9f; c++) nasty.append(c);
    nasty.append("\u2028\u2029 é 😀");
    try (StatusServer status = StatusServer.start("127.0.0.1", 0)) {
      status.listener().action(new CrawlAction(Instant.now(), CrawlAction.Kind.PAGE, "http://x.example/" + nasty,
          Outcome.NETWORK_ERROR, 0, Optional.empty(), 0, 1, Optional.empty(), Optional.empty(), 1, 0,
          Optional.of("network: " + nasty)));
      String body = new StatusClient(status.uri()).get("/api/status").body();
      assertEscaped(body);
      JsonNode error = STRICT.readTree(body).get("recent_errors").get(0);
      assertEquals("http://x.example/" + nasty, error.get("url").asText(), "the same string once parsed");
      assertEquals("network: " + nasty, error.get("message").asText());
    }
  }

  /** Valid JSON to a strict parser, and none of the characters a reader could take for markup or a break. */
  private static void assertEscaped(String json) throws Exception {
    STRICT.copy().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).readTree(json);
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      boolean raw = c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029' || "<>&'".indexOf(c) >= 0;
      if (raw) throw new AssertionError(String.format("U+%04X raw in the JSON at %d: %s", (int) c, i, json));
    }
  }

  private static String link(String href) {
    return "<a href=\"" + href.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;") + "\">x</a>";
  }

  /** How Chromium's DOM dump writes a text node. */
  private static String asHtmlText(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\u00a0", "&nbsp;");
  }

  private static String title(String dom) {
    Matcher m = Pattern.compile("<title>([^<]*)</title>").matcher(dom);
    if (!m.find()) throw new AssertionError("no <title> in:\n" + dom);
    return m.group(1);
  }

  private static String attribute(String dom, String tag, String name) {
    Matcher element = Pattern.compile("<" + tag + "\\b[^>]*>").matcher(dom);
    if (!element.find()) throw new AssertionError("no <" + tag + "> in:\n" + dom);
    Matcher value = Pattern.compile("\\b" + Pattern.quote(name) + "=\"([^\"]*)\"").matcher(element.group());
    if (!value.find()) throw new AssertionError("no " + name + " in " + element.group());
    return value.group(1);
  }
}
