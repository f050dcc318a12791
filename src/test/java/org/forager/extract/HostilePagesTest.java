package org.forager.extract;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Pages made to exhaust the crawler while their links are read (found by fuzzing, session 51): a
 * {@code <base href>} of a megabyte copied into every relative link, links by the hundred thousand, and
 * markup on which jsoup's tree builder takes quadratic time. Each is bounded; what is read stays what a
 * browser reads wherever the bound does not bite.
 */
class HostilePagesTest {

  private static final String PAGE = "http://example.org/dir/page.html";

  private static ExtractedPage extract(HtmlExtractor extractor, String html) {
    return extractor.extract(PAGE, html.getBytes(UTF_8), Optional.empty(), List.of(), List.of());
  }

  @Test
  void aBaseLongerThanTheUrlLimitServesOnlyTheLinksThatNeedItsOriginAlone() {
    HtmlExtractor extractor = new HtmlExtractor("ForagerBot", 100);
    String longBase = "/" + "a".repeat(200) + "/";
    String[] hrefs = {"rel", "/root", "//other.example/x", "https://abs.example/y", "?q", "#f", "", "../up",
        "http:/slash", "http:rel", "https:other", " \t/spaced", "\\back", "ht\ttp:/tabbed", "mailto:x@example.org"};
    StringBuilder html = new StringBuilder("<base href='" + longBase + "'>");
    for (String href : hrefs) html.append("<a href='").append(href).append("'>x</a>");
    assertEquals(List.of("http://example.org/root", "http://other.example/x", "https://abs.example/y",
        "http://example.org/slash", "https://other/", "http://example.org/spaced", "http://example.org/back",
        "http://example.org/tabbed"), extract(extractor, html.toString()).links());
    // The same base within the limit: every link resolves against it, as a browser's do.
    ExtractedPage within = extract(new HtmlExtractor("ForagerBot", 2048), html.toString());
    assertTrue(within.links().contains("http://example.org" + longBase + "rel"), within.links().toString());
    assertTrue(within.links().contains("http://example.org/up"), within.links().toString());
  }

  @Test
  void aMegabyteBaseUnderAHundredThousandRelativeLinksCostsNoMoreThanTheLinks() {
    // Each relative link resolved would be a copy of the base: 90,000 of them, 90 GB.
    StringBuilder html = new StringBuilder("<base href=/" + "a".repeat(1 << 20) + "/>");
    for (int k = 0; k < 90_000; k++) html.append("<a href=").append(k).append('>');
    html.append("<a href=/kept>");
    assertEquals(List.of("http://example.org/kept"), extract(new HtmlExtractor("ForagerBot"), html.toString()).links());
  }

  @Test
  void linksLongerThanTheUrlLimitAreDropped() {
    HtmlExtractor extractor = new HtmlExtractor("ForagerBot", 40);
    ExtractedPage page = extract(extractor, "<a href='/" + "b".repeat(30) + "'>long</a><a href='/short'>s</a>");
    assertEquals(List.of("http://example.org/short"), page.links());
  }

  @Test
  void aLargePageKeepsLinksUpToItsBudgetOfCharsInTheOrderTheyCome() {
    // 10,000 distinct links of about 1,950 chars under a base within the URL limit: 19.5 M chars, on a
    // page of 2 MiB: the most any page may keep.
    String base = "/" + "c".repeat(1_900) + "/";
    StringBuilder html = new StringBuilder("<base href='" + base + "'>");
    for (int k = 0; k < 10_000; k++) html.append("<a href=").append(k).append('>');
    html.append("<!--").append("p".repeat(2 << 20)).append("-->");
    List<String> links = extract(new HtmlExtractor("ForagerBot"), html.toString()).links();
    long chars = links.stream().mapToLong(String::length).sum();
    assertTrue(chars <= HtmlExtractor.MAX_LINK_CHARS_PER_PAGE, chars + " chars");
    assertTrue(chars > HtmlExtractor.MAX_LINK_CHARS_PER_PAGE - 2_000, chars + " chars: the budget used up");
    for (int k = 0; k < links.size(); k++) assertEquals("http://example.org" + base + k, links.get(k));
  }

  @Test
  void aSmallPageUnderALongBaseKeepsAQuarterMegabyteOfLinks() {
    // 4,000 such links on a page of 52 KB: 4 chars a byte would be 208 K; a page may always keep 256 K.
    String base = "/" + "c".repeat(1_900) + "/";
    StringBuilder html = new StringBuilder("<base href='" + base + "'>");
    for (int k = 0; k < 4_000; k++) html.append("<a href=").append(k).append('>');
    List<String> links = extract(new HtmlExtractor("ForagerBot"), html.toString()).links();
    long chars = links.stream().mapToLong(String::length).sum();
    assertEquals(HtmlExtractor.MIN_LINK_CHARS_PER_PAGE, HtmlExtractor.linkChars(html.length()));
    assertTrue(chars <= HtmlExtractor.MIN_LINK_CHARS_PER_PAGE, chars + " chars");
    assertTrue(chars > HtmlExtractor.MIN_LINK_CHARS_PER_PAGE - 2_000, chars + " chars: the budget used up");
    assertEquals("http://example.org" + base + (links.size() - 1), links.getLast());
  }

  @Test
  void aPageKeepsFourCharsOfLinksAByteOfIt() {
    // The hostile page of session 67: 4,150 links under a 1,990-char base, 75 KB with a comment; and the same padded to 1 MiB.
    String base = "/" + "c".repeat(1_990) + "/";
    StringBuilder html = new StringBuilder("<base href='" + base + "'>");
    for (int k = 0; k < 4_150; k++) html.append("<a href=").append(k).append('>');
    html.append("<!--").append("p".repeat(20_000)).append("-->");
    for (String page : List.of(html.toString(), html + "<!--" + "p".repeat(1 << 20) + "-->")) {
      long budget = HtmlExtractor.linkChars(page.length());
      assertEquals(4L * page.length(), budget);
      long chars = extract(new HtmlExtractor("ForagerBot"), page).links().stream().mapToLong(String::length).sum();
      assertTrue(chars <= budget && chars > budget - 2_100, chars + " chars of " + budget);
    }
  }

  /**
   * A page of 160,000 short links held some 400 bytes of heap a link until written: four such sites ran
   * the default heap out (an attacker's review, session 67). A page keeps 50,000 at most, and says so.
   */
  @Test
  void aPageKeepsFiftyThousandLinksAtMostAndSaysItsLinksWereCut() {
    StringBuilder html = new StringBuilder();
    for (int k = 0; k < 60_000; k++) html.append("<a href=/").append(k).append('>');
    ExtractedPage page = extract(new HtmlExtractor("ForagerBot"), html.toString());
    assertEquals(HtmlExtractor.MAX_LINKS_PER_PAGE, page.links().size());
    assertEquals("http://example.org/49999", page.links().getLast());
    assertEquals(Optional.of(ExtractedPage.LinksCut.PAGE_BUDGET), page.linksCut());
    assertEquals(Optional.empty(), extract(new HtmlExtractor("ForagerBot"), "<a href=/a>a</a>").linksCut());
  }

  @Test
  void aPageTooLargeForTheTreeIsReadToItsEndWithoutIt() {
    // Links foster-parented out of a table, two of them: the page needs jsoup's tree, which puts both
    // before the table, ahead of the link in its cell. Past the tree's budget the streaming reader reads
    // the page to its end instead: every link, the second one where it is written.
    String table = "<table><tr><td><a href=/cell>c</a></td></tr><a href=/first>f</a><a href=/second>s</a></table>"
        + "<a href=/after>a</a>";
    List<String> tree = List.of("http://example.org/first", "http://example.org/second", "http://example.org/cell",
        "http://example.org/after");
    List<String> streamed = List.of("http://example.org/first", "http://example.org/cell",
        "http://example.org/second", "http://example.org/after");
    HtmlExtractor extractor = new HtmlExtractor("ForagerBot");
    String padding = "<p>" + "x".repeat(HtmlExtractor.MAX_TREE_CHARS - 200) + "</p>";
    assertEquals(tree, extract(extractor, padding + table).links(), "within the budget: the tree");
    assertEquals(streamed, extract(extractor, padding + "x".repeat(400) + table).links(), "past it: streamed");
    // A srcdoc document spends the same budget: the page's own tree leaves too little for its frame.
    String frame = "<iframe srcdoc='" + table.replace("'", "&#39;") + "'></iframe>";
    assertEquals(streamed, extract(extractor, padding + "<math></math>" + frame).links().subList(0, 4));
  }

  @Test
  void aUrlLimitBelowOneIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new HtmlExtractor("ForagerBot", 0));
  }
}
