package org.forager.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.forager.testweb.TestSite;
import org.forager.url.UrlNormalizer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The links {@link HtmlExtractor} finds in a corpus of pages ({@code src/test/resources/org/forager/extract/browser},
 * each named after what it probes) against those headless Chromium sees in the same pages served on loopback,
 * scripting off (how: {@link BrowserLinks}). The browser's links go through Forager's documented
 * normalizations first: only http(s), {@link UrlNormalizer#normalize}, {@code rel=nofollow} left out, each
 * URL once (order is not compared). Every page must agree except those in {@link #DELIBERATE}, whose
 * difference must be exactly the one written there (docs/extraction.md gives the reasons). Skipped
 * without Chromium. Writes the comparison to {@code target/browser-links.txt}.
 */
@Timeout(180)
class ExtractorBrowserComparisonTest {

  /** Where the pages are served: two levels deep, so that {@code ../} means something. */
  private static final String DIR = "/corpus/dir/";
  private static final HtmlExtractor EXTRACTOR = new HtmlExtractor("ForagerBot");

  /**
   * Pages where Forager deliberately differs: the page, then the URLs only Forager has and those only the
   * browser has (paths on the test site's origin; {@code ORIGIN} stands for it).
   */
  private static final Map<String, List<List<String>>> DELIBERATE = Map.of(
      // The HTML Standard: an unparseable base is ignored. Chromium resolves nothing against it.
      "base-unparseable.html", List.of(List.of("ORIGIN/corpus/dir/relative-under-bad-base.html"), List.of()),
      // A closed shadow root is shown, but no script (so not the harness) can read it.
      "template-declarative-shadow-root.html", List.of(List.of("ORIGIN/corpus/dir/closed-shadow.html"), List.of()),
      // Undeclared valid UTF-8 is read as UTF-8; Chromium guesses (here the parent frame's windows-1252).
      "utf-8-undeclared.html", List.of(List.of("ORIGIN/caf%C3%A9/?q=caf%C3%A9"), List.of("ORIGIN/caf%C3%83%C2%A9/?q=caf%C3%A9")));

  @TempDir Path tmp;

  @Test
  void foragerFindsTheLinksChromiumShowsOnEveryPageOfTheCorpus() throws Exception {
    Optional<BrowserLinks> found = BrowserLinks.find(tmp);
    if (found.isEmpty()) System.err.println("ExtractorBrowserComparisonTest skipped: " + BrowserLinks.notFound());
    Assumptions.assumeTrue(found.isPresent(), BrowserLinks::notFound);

    Path corpus = corpus();
    Properties contentTypes = new Properties();
    try (InputStream in = Files.newInputStream(corpus.resolve("content-types.properties"))) {
      contentTypes.load(in);
    }
    List<String> names;
    try (Stream<Path> files = Files.list(corpus)) {
      names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".html")).sorted().toList();
    }
    try (TestSite site = TestSite.start()) {
      List<String> paths = new ArrayList<>();
      for (String name : names) {
        byte[] body = Files.readAllBytes(corpus.resolve(name));
        String type = contentTypes.getProperty(name, "text/html");
        site.route(DIR + name, ex -> TestSite.respond(ex, 200, type, body));
        paths.add(DIR + name);
      }
      String harness = BrowserLinks.harness(paths);
      byte[] harnessBytes = harness.getBytes(StandardCharsets.US_ASCII);
      site.route("/harness.html", ex -> TestSite.respond(ex, 200, "text/html; charset=windows-1252", harnessBytes));
      List<BrowserLinks.Document> seen = found.get().read(URI.create(site.url("/harness.html")));
      assertEquals(names.size(), seen.size());

      StringBuilder report = new StringBuilder();
      List<String> unexplained = new ArrayList<>();
      int agreeing = 0;
      for (int i = 0; i < names.size(); i++) {
        String name = names.get(i);
        byte[] body = Files.readAllBytes(corpus.resolve(name));
        String type = contentTypes.getProperty(name, "text/html");
        ExtractedPage page = EXTRACTOR.extract(site.url(DIR + name), body, Optional.of(type), List.of(), List.of());
        SortedSet<String> forager = shortened(site, page.links());
        SortedSet<String> browser = shortened(site, browserLinks(seen.get(i)));
        SortedSet<String> onlyForager = minus(forager, browser);
        SortedSet<String> onlyBrowser = minus(browser, forager);
        report.append(name).append(" (").append(seen.get(i).charset()).append(", ")
            .append(page.charset()).append("): ").append(forager.size()).append(" links");
        if (onlyForager.isEmpty() && onlyBrowser.isEmpty()) {
          agreeing++;
          report.append(", same\n");
          continue;
        }
        report.append("\n  only Forager: ").append(onlyForager).append("\n  only Chromium: ").append(onlyBrowser).append('\n');
        List<List<String>> expected = DELIBERATE.get(name);
        if (expected == null || !expected.equals(List.of(List.copyOf(onlyForager), List.copyOf(onlyBrowser)))) {
          unexplained.add(name);
        }
      }
      report.insert(0, "Chromium agreement: " + agreeing + "/" + names.size() + " pages the same\n");
      Files.createDirectories(Path.of("target"));
      Files.writeString(Path.of("target", "browser-links.txt"), report);
      System.out.println(report);
      assertTrue(unexplained.isEmpty(), "pages that differ from Chromium without a written reason: " + unexplained
          + "\n" + report);
      assertEquals(DELIBERATE.size(), names.size() - agreeing, "a deliberate difference is gone: update DELIBERATE and docs/extraction.md\n" + report);
    }
  }

  /** The browser's followable http(s) links, frames and srcdoc documents' links, after Forager's normalizations. */
  private static List<String> browserLinks(BrowserLinks.Document doc) {
    List<String> links = new ArrayList<>();
    for (BrowserLinks.Link link : doc.links()) {
      if (!Tokens.contains(link.rel(), "nofollow")) UrlNormalizer.normalize(link.url()).ifPresent(links::add);
    }
    for (String frame : doc.frames()) UrlNormalizer.normalize(frame).ifPresent(links::add);
    for (BrowserLinks.Document srcdoc : doc.srcdoc()) links.addAll(browserLinks(srcdoc));
    return links;
  }

  private static SortedSet<String> shortened(TestSite site, List<String> urls) {
    SortedSet<String> set = new TreeSet<>();
    for (String url : urls) set.add(url.startsWith(site.origin()) ? "ORIGIN" + url.substring(site.origin().length()) : url);
    return set;
  }

  private static SortedSet<String> minus(SortedSet<String> a, SortedSet<String> b) {
    SortedSet<String> rest = new TreeSet<>(a);
    rest.removeAll(b);
    return rest;
  }

  private static Path corpus() throws URISyntaxException {
    return Path.of(ExtractorBrowserComparisonTest.class.getResource("browser").toURI());
  }
}
