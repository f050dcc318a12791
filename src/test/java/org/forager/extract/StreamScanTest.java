package org.forager.extract;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The streaming reader where it differs from the jsoup DOM it replaced (each case closer to browsers),
 * where it hands a page to the tree, and its cost on hostile pages.
 */
class StreamScanTest {

  private static final String PAGE = "https://example.org/dir/page.html";
  private static final HtmlExtractor EXTRACTOR = new HtmlExtractor("ForagerBot");

  private static List<String> links(String html) {
    return EXTRACTOR.extract(PAGE, html.getBytes(UTF_8), Optional.empty(), List.of(), List.of()).links();
  }

  private static String url(String path) {
    return "https://example.org/dir/" + path;
  }

  @Test
  void aLinkInsideSelectOptionIsKept() {
    // jsoup drops the tag (HTML's old "in select" mode); browsers keep it since the customizable select.
    assertEquals(List.of(url("in-option.html"), url("after.html")),
        links("<select><option><a href=in-option.html>x</a></option></select><a href=after.html>y</a>"));
  }

  @Test
  void aDoubleEscapedScriptInTheBodyGivesNoJunkLink() {
    // jsoup ended the script at the inner "</script>", and read the rest of the script as markup.
    String html = "<body><script><!-- document.write('<script>x()</script>'); "
        + "var s = '<a href=\"junk.html\">'; --></script><a href=real.html>r</a>";
    assertEquals(List.of(url("real.html")), links(html));
  }

  @Test
  void aFosterParentedLinkComesBeforeTheTable() {
    assertEquals(List.of(url("before.html"), url("stray.html"), url("cell.html"), url("after.html")),
        links("<a href=before.html></a><table><tr><td><a href=cell.html></a></td></tr>"
            + "<a href=stray.html></a></table><a href=after.html></a>"));
  }

  @Test
  void aTitleWithoutEndTagHidesTheRestOfThePageAsInBrowsers() {
    // HTML: RCDATA runs to the end of the input (a blank page in browsers); jsoup ends it at the next tag.
    assertEquals(List.of(url("before.html")), links("<a href=before.html></a><title>t<a href=hidden.html>"));
  }

  @Test
  void aTagCutOffAfterItsEqualsSignIsDropped() {
    // HTML: end of input in a tag drops it; jsoup kept "<iframe src=" with an empty value (the page itself).
    assertEquals(List.of(url("a.html")), links("<a href=a.html></a><iframe src="));
  }

  @Test
  void aSelfClosingIframeInANoscriptStillHoldsTextUpToItsEndTag() {
    // HTML ignores the "/" of a raw text element's start tag, in a noscript too; jsoup read on as markup there.
    assertEquals(List.of(url("after.html")),
        links("<noscript><iframe/><a href=hidden.html>x</a></iframe></noscript><a href=after.html>y</a>"));
  }

  @Test
  void aSrcdocDocumentLeftOpenIsReadAsBrowsersDo() {
    // Its unclosed title runs to its own end, and a tag cut off at its end is dropped; jsoup read both.
    assertEquals(List.of(url("after.html")),
        links("<iframe srcdoc=\"<title>t<iframe src=hidden.html>\"></iframe><a href=after.html>y</a>"));
    assertEquals(List.of(url("after.html")),
        links("<iframe srcdoc=\"<p>x<iframe src=\"></iframe><a href=after.html>y</a>"));
  }

  @Test
  void aLinkOpenInATemplateBeforeAnObjectIsMadeAgainAfterTheTemplate() {
    // The template's end clears the object's marker, not its own: HTML then reconstructs the <a> around
    // the text after it, in the page (Chromium: <body><a href="hidden.html">text</a>); the tree reads it.
    assertEquals(List.of(url("hidden.html")), links("<template><a href=hidden.html><object></template>text"));
    assertEquals(List.of(), links("<template><a href=hidden.html><object></object></template>text"));
    // A table cell or caption puts a marker too (found by HtmlExtractorFuzz#streamedMatchesTree).
    assertEquals(List.of(url("hidden.html")), links("<template><a href=hidden.html><table><td></template>text"));
    assertEquals(List.of(url("hidden.html")), links("<template><a href=hidden.html><table><caption></template>text"));
    assertEquals(List.of(), links("<template><a href=hidden.html><table><td></td></table></template>text"));
  }

  @Test
  void anEndTagDoesNotCloseATemplateNestedInItsElement() {
    // </b> inside the inner template closes nothing in HTML (Chromium: the link stays in the outer
    // template's content); read as closing the b, it took the inner template with it, and the next
    // </template> seemed to end the outer one, so the link counted as the page's.
    String html = "<template><b><template></b></template><a href=inside.html>y</a></template><p>z";
    assertFalse(StreamScan.of(html, "ForagerBot").isPresent());
    assertEquals(List.of(), links(html));
    assertEquals(List.of(url("after.html")), links(html + "<a href=after.html>w</a>"));
    assertEquals(List.of(), links("<template><div><template></div></template><a href=x>y</a></template>"));
    assertEquals(List.of(), links("<template><table><template></table></template><a href=x>y</a></template>"));
  }

  @Test
  void aTemplateEndsAtItsEndTagWithANoscriptOpenInIt() {
    // Scripting off, the noscript is an ordinary element of the template's content and </template> ends
    // the template; jsoup keeps the noscript open and the link in the template. "<b</template>" is a
    // start tag b< with an attribute "template", not the template's end.
    assertEquals(List.of(url("after.html")), links("<template><noscript></template><a href=after.html>y</a>"));
    assertEquals(List.of(url("after.html")),
        links("<template><b</template><noscript></template><a href=after.html>y</a>"));
    assertEquals(List.of(url("after.html")),
        links("<template><template></template><noscript></template><a href=after.html>y</a>"));
  }

  @Test
  void aNoncharacterUffffDoesNotEndThePage() {
    // jsoup's reader takes U+FFFF (UTF-8 EF BF BF) for the end of the input: the tag was cut off there.
    assertEquals(List.of(url("%EF%BF%BFi"), url("after.html")), links("<a href=\uFFFFi>x</a><a href=after.html>y</a>"));
  }

  @Test
  void ordinaryPagesAreReadWithoutATree() throws IOException, URISyntaxException {
    Set<String> needTree = Set.of("cdata-outside-foreign-content.html", "frameset-after-explicit-body-is-ignored.html",
        "frameset-after-text-is-ignored.html", "frameset-page.html", "frameset-replaces-body.html",
        "svg-links.html", "template-declarative-shadow-root.html");
    Path corpus = Path.of(StreamScanTest.class.getResource("browser/content-types.properties").toURI()).getParent();
    try (Stream<Path> files = Files.list(corpus)) {
      for (Path page : files.filter(p -> p.toString().endsWith(".html")).toList()) {
        String name = page.getFileName().toString();
        String html = Files.readString(page, java.nio.charset.StandardCharsets.ISO_8859_1);
        assertEquals(!needTree.contains(name), StreamScan.of(html, "ForagerBot").isPresent(), name);
      }
    }
  }

  @Test
  void framesetsMathMlAndDeclarativeShadowRootsAreLeftToTheTree() {
    assertFalse(StreamScan.of("<frameset><frame src=a.html></frameset>", "ForagerBot").isPresent());
    assertFalse(StreamScan.of("<math><a href=a.html></a></math>", "ForagerBot").isPresent());
    assertFalse(StreamScan.of("<div><template shadowrootmode=open><a href=a></a></template></div>", "ForagerBot").isPresent());
    assertTrue(StreamScan.of("<div><template><a href=a></a></template></div><svg><a href=b></a></svg>", "ForagerBot").isPresent());
  }

  @Test
  void anSvgFosterParentedInTemplateContentIsLeftToTheTreeAsAnHtmlElementIs() {
    // A row open without a cell in a template: what starts next is foster-parented, and jsoup's tree
    // parts from HTML's there (TemplateContent); an <svg> was read on as template content.
    assertFalse(StreamScan.of("<template><tr><svg><a href=a></a></svg></template>", "ForagerBot").isPresent());
    assertFalse(StreamScan.of("<template><tr><b><a href=a></a></b></template>", "ForagerBot").isPresent());
    assertTrue(StreamScan.of("<template><tr><td><svg><a href=a></a></svg></td></tr></template>", "ForagerBot").isPresent());
  }

  @Test
  @Timeout(10)
  void hostilePagesCostLinearTime() {
    int n = 100_000;
    // Comments never closed by "-->", each ended by "--!>"; and the other way round.
    assertEquals(List.of(url("end.html")), links("<!-- x --!>".repeat(n) + "<a href=end.html>"));
    assertEquals(List.of(), links("<!-- x ".repeat(n) + "<a href=end.html>"));
    // Links foster-parented before a table with many links in its cells: past a bound, the tree's job.
    String table = "<table><tr><td>" + "<a href=c></a>".repeat(n) + "</td></tr>" + "<a href=f></a>".repeat(n) + "</table>";
    assertFalse(StreamScan.of(table, "ForagerBot").isPresent());
    // Deep SVG, then end tags that match nothing: the first one hands the page to the tree.
    assertFalse(StreamScan.of("<svg>" + "<g>".repeat(n) + "<a href=g></a>" + "</x>".repeat(n), "ForagerBot").isPresent());
    assertTrue(StreamScan.of("<svg>" + "<g>".repeat(n) + "<a href=g></a>" + "</g>".repeat(n), "ForagerBot").isPresent());
  }
}
