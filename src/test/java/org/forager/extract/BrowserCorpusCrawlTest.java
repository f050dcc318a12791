package org.forager.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.forager.testweb.TestCrawl;
import org.forager.testweb.TestSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Corpus pages of {@link ExtractorBrowserComparisonTest} crawled for real: the crawl requests the links a
 * browser shows (SVG links, srcdoc documents' links, a link in head noscript) and nothing that only
 * template content or a template's base would have given.
 */
@Timeout(60)
class BrowserCorpusCrawlTest {

  @TempDir Path tmp;

  @Test
  void aCrawlFollowsWhatTheBrowserShowsAndNotTemplateContent() throws Exception {
    Path corpus = Path.of(BrowserCorpusCrawlTest.class.getResource("browser").toURI());
    try (TestSite site = TestSite.start().robots("User-agent: *\nAllow: /\n")) {
      for (String page : List.of("template-content-is-not-the-page.html", "svg-links.html", "iframe-srcdoc.html",
          "noscript-in-head.html")) {
        byte[] body = Files.readAllBytes(corpus.resolve(page));
        site.route("/corpus/dir/" + page, ex -> TestSite.respond(ex, 200, "text/html", body));
      }
      site.linking("/", "/corpus/dir/template-content-is-not-the-page.html", "/corpus/dir/svg-links.html",
          "/corpus/dir/iframe-srcdoc.html", "/corpus/dir/noscript-in-head.html");
      TestCrawl.run(TestCrawl.config(tmp.resolve("data"), List.of(site.url("/")), "limits: { fetch_timeout: 2s, max_retries: 0 }\n"));

      Set<String> requested = new TreeSet<>(site.paths());
      for (String shown : List.of("/corpus/dir/real.html", "/corpus/dir/in-table.html", "/corpus/dir/svg-xlink-href.html",
          "/corpus/dir/svg-href.html", "/corpus/dir/svg-both-href.html", "/corpus/base-dir/srcdoc-relative.html",
          "/srcdoc-own-base/own-base.html", "/corpus/base-dir/nested-srcdoc.html", "/corpus/dir/noscript-head-link.html")) {
        assertTrue(requested.contains(shown), shown + " was not requested: " + requested);
      }
      for (String hidden : List.of("/from-template", "/frame-in-template", "/template-in-table",
          "/products/%7B%7B%20handle%20%7D%7D?view=quick", "/corpus/dir/mathml-href.html",
          "/corpus/base-dir/src-ignored-when-srcdoc.html")) {
        assertTrue(!requested.contains(hidden), hidden + " was requested");
      }
      assertEquals(0, requested.stream().filter(p -> p.contains("{{")).count());
    }
  }
}
