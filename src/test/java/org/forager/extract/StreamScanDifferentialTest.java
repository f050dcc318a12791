package org.forager.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The streaming reader ({@link StreamScan}, what {@link HtmlExtractor} uses) against the jsoup DOM
 * reader it replaced ({@link HtmlExtractor#treeOnly}): the same links in the same order, canonical,
 * robots directives and charset on every page of the browser corpus and on random tag soup, except
 * where the streaming reader is deliberately closer to browsers (listed here, and in
 * docs/extraction.md).
 */
@Timeout(120)
class StreamScanDifferentialTest {

  private static final String PAGE = "https://example.org/dir/page.html";
  private static final HtmlExtractor STREAMED = new HtmlExtractor("ForagerBot");
  private static final HtmlExtractor TREE = HtmlExtractor.treeOnly("ForagerBot");

  /** Corpus pages where the readers differ, and how: links only the streamed reader has, links only the tree has. */
  private static final Map<String, List<List<String>>> CLOSER_TO_BROWSERS = Map.of(
      // A <select> keeps the elements in it (HTML since 2025, Chromium); jsoup drops them.
      "tree-construction-oddities.html", List.of(List.of("https://example.org/dir/in-select-option.html"), List.of()),
      // jsoup ends a body script at the "</script>" of a double-escaped "<!-- <script>" section.
      "script-double-escaping.html", List.of(List.of(), List.of("https://example.org/dir/in-script-after-inner-script.html")),
      // A tag cut off by the end of the input is dropped; jsoup keeps "<iframe src=" (a frame of the page itself).
      "tag-cut-off-after-equals-sign.html", List.of(List.of(), List.of("https://example.org/dir/page.html")),
      // A <title> (RCDATA) without an end tag runs to the end of the page; jsoup ends it at the next tag.
      "title-without-end-tag.html", List.of(List.of(), List.of("https://example.org/dir/hidden-by-title.html")));

  @Test
  void streamedReadsTheCorpusAsTheTreeDoes() throws Exception {
    Path corpus = corpus();
    Properties contentTypes = new Properties();
    try (InputStream in = Files.newInputStream(corpus.resolve("content-types.properties"))) {
      contentTypes.load(in);
    }
    List<Path> pages;
    try (Stream<Path> files = Files.list(corpus)) {
      pages = files.filter(p -> p.toString().endsWith(".html")).sorted().toList();
    }
    assertTrue(pages.size() >= 40, "corpus: " + pages.size());
    for (Path page : pages) {
      String name = page.getFileName().toString();
      byte[] body = Files.readAllBytes(page);
      Optional<String> type = Optional.of(contentTypes.getProperty(name, "text/html"));
      ExtractedPage streamed = STREAMED.extract(PAGE, body, type, List.of(), List.of());
      ExtractedPage tree = TREE.extract(PAGE, body, type, List.of(), List.of());
      List<List<String>> expected = CLOSER_TO_BROWSERS.getOrDefault(name, List.of(List.of(), List.of()));
      assertEquals(expected, List.of(minus(streamed.links(), tree.links()), minus(tree.links(), streamed.links())), name);
      if (!CLOSER_TO_BROWSERS.containsKey(name)) assertEquals(tree, streamed, name);
      else assertEquals(tree.canonical(), streamed.canonical(), name);
    }
  }

  /** Bits of HTML that make tag soup: the tags and syntax the two readers read, and some they skip. */
  private static final List<String> SOUP = List.of(
      "<a href=", "<A HREF=", "<a rel=nofollow href=", "<area href=", "<frame src=", "<iframe src=",
      "<iframe srcdoc=", "<base href=", "<link rel=canonical href=", "<meta name=robots content=",
      "<meta name=ForagerBot content=", "<meta http-equiv=refresh content=", "<meta http-equiv=Refresh>",
      "0;url=", "5, ", "\"", "'", "=", ">", "/>", "<", "</", "</a>", " ", "\n", "\t", "\r\n",
      "<html>", "<head>", "</head>", "<body>", "</body>", "</html>", "<!--", "-->", "--!>", "<!-->", "<!DOCTYPE html>",
      "<?xml?>", "<![CDATA[", "]]>", "<script>", "</script>", "<style>", "</style>", "<textarea>", "</textarea>",
      "<title>", "</title>", "<noscript>", "</noscript>", "<template>", "</template>", "<svg>", "</svg>",
      "<math>", "</math>", "<foreignObject>", "</foreignObject>", "<desc>", "<mi>", "</mi>", "<mtext>",
      "<annotation-xml encoding=text/html>", "<table>", "</table>", "<tr>", "<td>", "</td>", "<th>", "<caption>",
      "<tbody>", "<p>", "</p>", "<div>", "</div>", "<span>", "</span>", "<b>", "</b>", "<br>", "</br>",
      "<font color=red>", "<img src=", "<xmp>", "</xmp>", "<noframes>", "<ul><li>", "<h1>", "<form>",
      "&amp;", "&amp", "&amp_", "&not-", "&lt;", "&#", "&#x41;", "&#0;", "&#x80;", "&#xD800;", "&nbsp", "&",
      ";", "\u0000", "noindex", "nofollow", "none", "text", "é", "例", "a.html", "/b?q=é", "../c", "#top",
      "http://other.example/x", "//cdn.example/y", "javascript:x()", "mailto:a@b", " z.html ");

  @Test
  void streamedReadsTagSoupAsTheTreeDoes() {
    SplittableRandom random = new SplittableRandom(Long.getLong("soup.seed", 15));
    List<String> differences = new ArrayList<>();
    int compared = 0;
    int differing = 0;
    for (int round = 0; round < Integer.getInteger("soup.rounds", 30_000); round++) {
      StringBuilder html = new StringBuilder();
      int tokens = 1 + random.nextInt(40);
      for (int t = 0; t < tokens; t++) html.append(SOUP.get(random.nextInt(SOUP.size())));
      String soup = closed(html.toString());
      if (readDifferentlyOnPurpose(soup)) continue;
      compared++;
      byte[] body = soup.getBytes(StandardCharsets.UTF_8);
      Optional<String> type = Optional.of("text/html; charset=utf-8");
      ExtractedPage streamed = STREAMED.extract(PAGE, body, type, List.of(), List.of());
      ExtractedPage tree = TREE.extract(PAGE, body, type, List.of(), List.of());
      if (!streamed.equals(tree)) differing++;
      if (!streamed.equals(tree) && differences.size() < 10) {
        differences.add(soup.replace("\n", "\\n") + "\n   streamed " + streamed + "\n   tree     " + tree);
      }
    }
    assertTrue(compared > 10_000, "compared " + compared);
    int d = differing;
    int c = compared;
    assertEquals(List.of(), differences, () -> d + " of " + c + " differ\n" + String.join("\n", differences));
  }

  /**
   * {@code soup} with every tag and raw text left open closed: jsoup keeps a tag cut off by the end of
   * the input after an {@code =}, and ends a {@code <title>} or {@code <textarea>} without an end tag
   * at the next tag; the streamed reader does as browsers (see {@link #CLOSER_TO_BROWSERS}).
   */
  static String closed(String soup) {
    return soup + " x>\n</textarea></title></iframe></style></xmp></noframes></script>";
  }

  /**
   * Soup the two readers read differently on purpose, the streamed one as browsers: an {@code <a>} in a
   * {@code <select>} (jsoup drops it), a double-escaped script in the body (jsoup ends it early), a
   * {@code <head>} in SVG or MathML (HTML ends foreign content there, jsoup does not), and a legacy
   * reference before {@code -} or {@code _} in an {@code <a>} jsoup clones (adoption agency: the clone's
   * value is not decoded); and, found by {@code HtmlExtractorFuzz#streamedMatchesTree}, a U+FFFF (jsoup's
   * reader takes it for the end of the input) and a {@code <plaintext>} in a {@code <noscript>} (jsoup
   * reads what follows as markup), a noscript in a template ({@link #noscriptClosingTemplate}), an SVG in a
   * noscript ({@link #svgInNoscript}), an end tag name cut short by {@code <} ({@link
   * #END_TAG_NAME_THEN_LT}), a self-closing raw text element in a noscript ({@link #SELF_CLOSING_RAW_TEXT}),
   * and a srcdoc document that leaves a title or textarea open or ends in a cut tag ({@link
   * #srcdocLeftOpen}).
   */
  static boolean readDifferentlyOnPurpose(String soup) {
    String lower = soup.toLowerCase(java.util.Locale.ROOT);
    int foreign = Math.min(index(lower, "<svg"), index(lower, "<math"));
    int script = lower.indexOf("<script");
    return lower.indexOf("<head", foreign) >= 0 && foreign < lower.length()
        || !AttributeValues.terminateLegacyReferences(soup).equals(soup)
        || lower.contains("<select")
        || soup.indexOf('\uFFFF') >= 0
        || lower.contains("<noscript") && lower.indexOf("<plaintext", lower.indexOf("<noscript")) >= 0
        || noscriptClosingTemplate(lower)
        || svgInNoscript(lower)
        || END_TAG_NAME_THEN_LT.matcher(lower).find()
        || selfClosingRawTextInNoscript(lower)
        || srcdocLeftOpen(lower)
        || script >= 0 && lower.indexOf("<!--", script) >= 0;
  }

  /**
   * An end tag's name cut short by {@code <} ({@code </none</xmp>}): in raw text, RCDATA or a script
   * HTML reads the {@code <} again, so the {@code </xmp>} after it ends the element; jsoup does not.
   */
  private static final java.util.regex.Pattern END_TAG_NAME_THEN_LT = java.util.regex.Pattern.compile("</[a-z][^\\s/>]*<");

  /**
   * A raw text or RCDATA element's start tag marked self-closing ({@code <iframe/>}): HTML ignores the
   * mark and reads what follows as the element's text up to its end tag, as jsoup does in the body; in a
   * noscript jsoup reads it as markup.
   */
  private static final java.util.regex.Pattern SELF_CLOSING_RAW_TEXT =
      java.util.regex.Pattern.compile("<(iframe|xmp|textarea|title|style|noembed|noframes)(\\s[^>]*)?/>");

  private static boolean selfClosingRawTextInNoscript(String lower) {
    java.util.regex.Matcher m = SELF_CLOSING_RAW_TEXT.matcher(lower);
    while (m.find()) {
      int noscript = lower.lastIndexOf("<noscript", m.start());
      if (noscript >= 0 && opensBeforeClose(lower, m.group(), noscript)) return true;
    }
    return false;
  }

  /**
   * An {@code iframe srcdoc} whose document is left open at its end, as {@link #closed} closes a page:
   * a {@code <title>} or {@code <textarea>} (its {@code <} written as it is or as {@code &lt;}) not closed, whose rest
   * HTML reads as text and jsoup ends at the next tag; or a start tag cut off after an {@code =}, which
   * HTML drops and jsoup keeps.
   */
  private static boolean srcdocLeftOpen(String lower) {
    for (int at = lower.indexOf("srcdoc="); at >= 0; at = lower.indexOf("srcdoc=", at + 1)) {
      int start = at + "srcdoc=".length();
      char quote = start < lower.length() ? lower.charAt(start) : ' ';
      int end = quote == '"' || quote == '\'' ? lower.indexOf(quote, start + 1) : -1;
      String value = lower.substring(start, end < 0 ? lower.length() : end).replace("&lt;", "<").replace("&gt;", ">");
      for (String element : List.of("title", "textarea")) {
        int open = value.indexOf("<" + element);
        if (open >= 0 && value.indexOf("</" + element, open) < 0) return true;
      }
      int lastTag = value.lastIndexOf('<');
      if (lastTag >= 0 && value.indexOf('>', lastTag) < 0 && value.indexOf('=', lastTag) >= 0) return true;
    }
    return false;
  }

  /**
   * A {@code </template>} while a {@code <noscript>} opened in a template is open: HTML (scripting off)
   * closes the template there; jsoup keeps a noscript's end tags to what it opened and reads on inside
   * the template.
   */
  private static boolean noscriptClosingTemplate(String lower) {
    for (int noscript = lower.indexOf("<noscript"); noscript >= 0; noscript = lower.indexOf("<noscript", noscript + 1)) {
      if (templatesOpenAt(lower, noscript) > 0 && opensBeforeClose(lower, "</template", noscript)) return true;
    }
    return false;
  }

  /**
   * How many templates are open at {@code at}: their start tags less their end tags before it, each a
   * tag of its own (in {@code <b</template>} the end tag is the name and an attribute of a start tag
   * {@code b<}; found by {@code HtmlExtractorFuzz#streamedMatchesTree}, as were nested templates).
   */
  private static int templatesOpenAt(String lower, int at) {
    int open = 0;
    for (int i = lower.indexOf("template"); i >= 0 && i < at; i = lower.indexOf("template", i + 1)) {
      boolean start = i >= 1 && lower.charAt(i - 1) == '<';
      boolean end = i >= 2 && lower.startsWith("</", i - 2);
      if (!start && !end) continue;
      int tag = start ? i - 1 : i - 2;
      if (lower.lastIndexOf('>', tag - 1) < lower.lastIndexOf('<', tag - 1)) continue; // inside another tag
      open = start ? open + 1 : Math.max(0, open - 1);
    }
    return open;
  }

  /**
   * An {@code <svg>} while a noscript is open: jsoup reads its elements as HTML there ({@code <svg><base>}
   * is a base).
   */
  private static boolean svgInNoscript(String lower) {
    for (int noscript = lower.indexOf("<noscript"); noscript >= 0; noscript = lower.indexOf("<noscript", noscript + 1)) {
      if (opensBeforeClose(lower, "<svg", noscript)) return true;
    }
    return false;
  }

  /** Whether {@code tag} comes after the noscript at {@code noscript} and before its first {@code </noscript}. */
  private static boolean opensBeforeClose(String lower, String tag, int noscript) {
    int at = lower.indexOf(tag, noscript);
    int close = lower.indexOf("</noscript", noscript);
    return at >= 0 && (close < 0 || at < close);
  }

  private static int index(String s, String part) {
    int at = s.indexOf(part);
    return at < 0 ? s.length() : at;
  }

  private static List<String> minus(List<String> a, List<String> b) {
    return a.stream().filter(x -> !b.contains(x)).toList();
  }

  private static Path corpus() throws URISyntaxException {
    return Path.of(StreamScanDifferentialTest.class.getResource("browser/content-types.properties").toURI()).getParent();
  }
}
