package org.forager.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.forager.config.CrawlConfig;
import org.forager.crawl.Crawler;
import org.forager.testweb.Chromium;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page in a real browser (headless Chromium) during a real crawl of three test sites: it
 * loads, draws its chart, and its numbers move between two looks. Skipped when no Chromium is
 * installed. Leaves a screenshot in {@code target/status-page.png}.
 */
@Timeout(180)
class StatusPageBrowserTest {

  private static final Path SCREENSHOT = Path.of("target", "status-page.png");

  @TempDir Path tmp;

  @Test
  void thePageLoadsDrawsItsChartAndFollowsTheCrawl() throws Exception {
    Optional<Chromium> found = Chromium.find(tmp);
    if (found.isEmpty()) System.err.println("StatusPageBrowserTest skipped: " + Chromium.notFound("run the status page's browser test"));
    Assumptions.assumeTrue(found.isPresent(), () -> Chromium.notFound("run the status page's browser test"));
    Chromium chromium = found.get();

    Gate first = new Gate(Gate.linking(pages("/news/", 12)));
    Gate second = new Gate(Gate.linking("/news/last"));
    try (TestSite news = site(12, "/news/").route("/hold", first).route("/news/last", second);
        TestSite shop = site(25, "/item/").route("/broken", ex -> TestSite.respond(ex, 500, "text/plain", "boom"))
            .robots("User-agent: *\nDisallow: /item/2\nCrawl-delay: 0.4\n");
        TestSite blog = site(25, "/post/");
        StatusServer status = StatusServer.start("127.0.0.1", 0)) {
      news.linking("/", with(pages("/news/", 12), "/hold"));
      for (int i = 0; i < 12; i++) news.linking("/news/" + i, "/news/last");
      shop.linking("/", with(pages("/item/", 25), "/broken", "/missing"));
      CrawlConfig config = TestCrawl.config(tmp.resolve("data"),
          List.of(news.url("/"), shop.url("/"), blog.url("/")),
          "politeness: { min_delay: 150ms, max_delay: 2s, response_time_factor: 0 }\n"
              + "limits: { fetch_timeout: 60s, max_retries: 0 }\n");
      StatusClient client = new StatusClient(status.uri());

      try (Crawler crawler = Crawler.open(config, status::timed).listener(status.listener()).quiet(true)) {
        CompletableFuture<?> run = CompletableFuture.runAsync(() -> {
          try {
            crawler.run();
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
        });
        first.awaitArrival();
        client.awaitStatus(s -> s.get("rate").size() >= 3, "three rate samples for the chart");
        String before = chromium.dumpDom(status.uri(), 2500);

        first.open();
        second.awaitArrival();
        long actionsBefore = attribute(before, "body", "data-actions");
        client.awaitStatus(s -> s.get("totals").get("actions").asLong() > actionsBefore + 5, "more actions");
        String after = chromium.dumpDom(status.uri(), 2500);
        chromium.screenshot(status.uri(), 2500, SCREENSHOT);
        second.open();
        crawler.stop();
        run.get();

        for (String dom : List.of(before, after)) {
          assertTrue(attribute(dom, "body", "data-updates") >= 1, "the page rendered the JSON:\n" + dom);
          assertTrue(dom.contains("<span id=\"state\" class=\"running\">running</span>"), dom);
          assertTrue(attribute(dom, "canvas", "data-points") >= 3, "the chart has its points:\n" + dom);
          // A blank 1200-pixel-wide canvas is a PNG of a few hundred bytes; axes, labels and a line are more.
          assertTrue(attribute(dom, "canvas", "data-image-length") > 5_000, "something was drawn:\n" + dom);
          assertTrue(dom.contains(news.origin()) && dom.contains(shop.origin()), "the origins are listed");
        }
        long actionsAfter = attribute(after, "body", "data-actions");
        assertTrue(actionsAfter > actionsBefore, "numbers change: " + actionsBefore + " then " + actionsAfter);
        assertTrue(after.contains(shop.url("/broken")), "the failure is listed:\n" + after);
        assertTrue(after.contains("BLOCKED_BY_ROBOTS_TXT"), "outcomes are listed");
        assertTrue(Files.size(SCREENSHOT) > 10_000, "a screenshot of the page");
        JsonNode last = client.status();
        assertEquals(3, last.get("totals").get("origins").asInt());
      }
    }
  }

  private static TestSite site(int pages, String prefix) throws java.io.IOException {
    TestSite site = TestSite.start().robots("User-agent: *\nAllow: /\n");
    site.linking("/", pages(prefix, pages));
    for (String page : pages(prefix, pages)) site.linking(page);
    return site;
  }

  private static String[] pages(String prefix, int n) {
    String[] pages = new String[n];
    for (int i = 0; i < n; i++) pages[i] = prefix + i;
    return pages;
  }

  private static String[] with(String[] pages, String... more) {
    List<String> all = new ArrayList<>(List.of(pages));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  /** A whole-number attribute of the first element with that tag in a DOM dump. */
  private static long attribute(String dom, String tag, String name) {
    Matcher element = Pattern.compile("<" + tag + "\\b[^>]*>").matcher(dom);
    if (!element.find()) throw new AssertionError("no <" + tag + "> in:\n" + dom);
    Matcher value = Pattern.compile("\\b" + Pattern.quote(name) + "=\"(\\d+)\"").matcher(element.group());
    if (!value.find()) throw new AssertionError("no " + name + " in " + element.group());
    return Long.parseLong(value.group(1));
  }
}
