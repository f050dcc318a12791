package org.forager.extract;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_16LE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.forager.config.CrawlConfig;
import org.forager.url.UrlNormalizer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Behaviour of the public extractor API, one nested class per rule. */
class HtmlExtractorTest {

  static final String PAGE = "https://example.org/dir/page.html";
  static final HtmlExtractor EXTRACTOR = new HtmlExtractor("ForagerBot");

  /** The expected form of a URL, whatever the normalizer's exact rules. */
  static String norm(String url) {
    return UrlNormalizer.normalize(url).orElseThrow();
  }

  static ExtractedPage html(String html) {
    return EXTRACTOR.extract(PAGE, html.getBytes(UTF_8), Optional.empty(), List.of(), List.of());
  }

  static ExtractedPage withHeaders(String html, List<String> xRobotsTag, List<String> link) {
    return EXTRACTOR.extract(PAGE, html.getBytes(UTF_8), Optional.empty(), xRobotsTag, link);
  }

  static ExtractedPage bytes(byte[] body, String contentType) {
    return EXTRACTOR.extract(PAGE, body, Optional.ofNullable(contentType), List.of(), List.of());
  }

  @Nested
  class Links {

    @Test
    void relativeAbsoluteAndSchemeRelativeLinksAreResolvedAgainstThePage() {
      ExtractedPage page = html("""
          <a href="a.html">a</a>
          <a href="/root">root</a>
          <a href="../up">up</a>
          <a href="https://other.example/x">other</a>
          <a href="//cdn.example.net/lib">scheme-relative</a>
          <a href="http://plain.example/">http</a>
          """);
      assertEquals(List.of(
          norm("https://example.org/dir/a.html"),
          norm("https://example.org/root"),
          norm("https://example.org/up"),
          norm("https://other.example/x"),
          norm("https://cdn.example.net/lib"),
          norm("http://plain.example/")), page.links());
    }

    @Test
    void targetsThatAreNotHttpAreDropped() {
      ExtractedPage page = html("""
          <a href="mailto:someone@example.org">mail</a>
          <a href="javascript:void(0)">js</a>
          <a href="tel:+123">tel</a>
          <a href="ftp://example.org/file">ftp</a>
          <a href="data:text/html,hi">data</a>
          <a href="/kept">kept</a>
          """);
      assertEquals(List.of(norm("https://example.org/kept")), page.links());
    }

    @Test
    void linksKeepDocumentOrderAndAppearOnce() {
      ExtractedPage page = html("""
          <a href="/b">b</a><a href="/a">a</a><a href="/b">b again</a>
          <a href="https://example.org/a">a absolute</a><a href="/c">c</a>
          """);
      assertEquals(List.of(
          norm("https://example.org/b"), norm("https://example.org/a"), norm("https://example.org/c")),
          page.links());
    }

    @Test
    void theFirstMetaRefreshTargetIsALinkResolvedAgainstTheBase() {
      ExtractedPage page = html("""
          <html><head><base href="/b/"><META HTTP-EQUIV="Refresh" CONTENT="0; URL='next.html'">
          <meta http-equiv=refresh content="5;url=/second">
          </head><body><a href="/a">a</a></body></html>""");
      assertEquals(List.of(norm("https://example.org/b/next.html"), norm("https://example.org/a")), page.links());
    }

    @Test
    void aMetaRefreshInTheBodyOrAFramesetCountsOneInATemplateOrAPlainReloadDoesNot() {
      assertEquals(List.of(norm("https://example.org/moved")),
          html("<p>This page has moved.<meta http-equiv=refresh content=\"3, /moved\">").links());
      // A frameset is read from jsoup's tree.
      assertEquals(List.of(norm("https://example.org/moved"), norm("https://example.org/f")),
          html("<head><meta http-equiv=refresh content=\"0;url=/moved\"></head><frameset><frame src=/f></frameset>")
              .links());
      assertEquals(List.of(), html("<template><meta http-equiv=refresh content=\"0;url=/t\"></template>").links());
      assertEquals(List.of(), html("<meta http-equiv=refresh content=\"30\"><meta http-equiv=refresh content=\"0;url=/x\">")
          .links());
    }

    @Test
    void aMalformedRefreshOrOneWhoseUrlDoesNotResolveDoesNotHideTheNext() {
      for (String first : List.of("<meta http-equiv=refresh>", "<meta http-equiv=refresh content=''>",
          "<meta http-equiv=refresh content='abc'>", "<meta http-equiv=refresh content='0;url=javascript:go()'>",
          "<meta http-equiv=refresh content='0;url=http://exa mple.org/'>",
          "<meta http-equiv=refresh content='0;url=https://[::1/'>")) {
        assertEquals(List.of(norm("https://example.org/second"), norm("https://example.org/a")),
            html("<head>" + first + "<meta http-equiv=refresh content='0;url=/second'></head><a href=/a>a</a>").links(),
            first);
      }
    }

    @Test
    void aRefreshThatParsesToAnotherSchemeOrAnOverlongUrlEndsTheSearch() {
      // A browser goes there (HTML: "will declaratively refresh" is set once the URL parses), so the
      // later refresh is not followed either: no refresh link at all.
      int maxUrlLength = CrawlConfig.Limits.defaults().maxUrlLength();
      for (String first : List.of("mailto:someone@example.org", "ftp://files.example.org/a", "data:text/html,hi",
          "foo://host:8080/x", "foo:opaque path", "FILE:///etc/passwd", "file://localhost/x", "file://C:/x", "foo://",
          "https://example.org/" + "a".repeat(maxUrlLength))) {
        assertEquals(List.of(norm("https://example.org/a")),
            html("<meta http-equiv=refresh content='0;url=" + first + "'>"
                + "<meta http-equiv=refresh content='0;url=/second'><a href=/a>a</a>").links(), first);
      }
    }

    @Test
    void aRefreshWhoseUrlDoesNotParseInAnySchemeIsSkipped() {
      for (String first : List.of("ftp://exa mple.org/", "ws://[::1/", "foo://a b/", "foo://h:99999/", "foo://h:8x/",
          "foo://[zz]/", "foo://a|b/", "http://exa mple.org/", "file://a b/", "file://h:80/", "file://[::1/", "foo://:80/",
          "mailto://u@", "foo://u@:80/", "data://@")) {
        assertEquals(List.of(norm("https://example.org/second"), norm("https://example.org/a")),
            html("<meta http-equiv=refresh content='0;url=" + first + "'>"
                + "<meta http-equiv=refresh content='0;url=/second'><a href=/a>a</a>").links(), first);
      }
    }

    @Test
    void aRefreshUnderABaseOfAnotherSchemeParsesAsABrowserParsesIt() {
      // Under a base with an opaque path a relative URL does not parse: skipped.
      assertEquals(List.of(norm("https://example.org/second")),
          html("<base href='mailto:x'><meta http-equiv=refresh content='0;url=next'>"
              + "<meta http-equiv=refresh content='0;url=https://example.org/second'>").links());
      // Under an ftp: base it parses (to ftp:): a browser goes there; "ftp:" too, relative to the base.
      for (String first : List.of("next", "ftp:", "ftp:?q")) {
        assertEquals(List.of(),
            html("<base href='ftp://files.example.org/'><meta http-equiv=refresh content='0;url=" + first + "'>"
                + "<meta http-equiv=refresh content='0;url=https://example.org/second'>").links(), first);
      }
      // A base that does not parse is no base: the page's URL is.
      for (String base : List.of("foo://h:99999/", "ftp://", "ftp://a b/", "file://h:80/")) {
        assertEquals(List.of(norm("https://example.org/second"), norm("https://example.org/dir/a")),
            html("<base href='" + base + "'><meta http-equiv=refresh content='0;url=/second'><a href=a>a</a>").links(),
            base);
      }
    }

    @Test
    void aRefreshToSpacesGoesToTheBaseAndAnEmptyOneReloads() {
      assertEquals(List.of(norm("https://example.org/other/")),
          html("<base href=/other/><meta http-equiv=refresh content=\"0; url=' '\">").links());
      assertEquals(List.of(),
          html("<base href=/other/><meta http-equiv=refresh content=\"0; url=''\">"
              + "<meta http-equiv=refresh content='0;url=/second'>").links());
    }

    @Test
    void theRefreshTargetComesFirstAndOnce() {
      assertEquals(List.of(norm("https://example.org/moved"), norm("https://example.org/a")),
          html("<a href=/a>a</a><a href=/moved>m</a><meta http-equiv=refresh content='0;url=/moved'>").links());
    }

    @Test
    void areaFrameAndIframeTargetsAreLinks() {
      ExtractedPage page = html("""
          <html><head></head>
          <frameset><frame src="/frame1"><frame src="frame2"></frameset>
          </html>""");
      assertEquals(List.of(norm("https://example.org/frame1"), norm("https://example.org/dir/frame2")),
          page.links());

      ExtractedPage body = html("""
          <map name="m"><area href="/area" shape="rect" coords="0,0,1,1"></map>
          <iframe src="/iframe"></iframe>
          <img src="/image.png"><script src="/script.js"></script><link rel="stylesheet" href="/s.css">
          """);
      assertEquals(List.of(norm("https://example.org/area"), norm("https://example.org/iframe")), body.links());
    }

    @Test
    void anchorsWithoutHrefAreNotLinksButAnEmptyHrefIsResolvedLikeAnyOther() {
      ExtractedPage page = html("<a name=top>top</a><a href=''>self</a>");
      // What "" resolves to is the normalizer's business (RFC 3986: the page itself).
      assertEquals(List.of(UrlNormalizer.resolve(PAGE, "").orElseThrow()), page.links());
    }

    @Test
    void relNofollowLinksAreLeftOutWhateverTheCaseAndOtherTokens() {
      ExtractedPage page = html("""
          <a href="/1" rel="nofollow">1</a>
          <a href="/2" rel="NoFollow">2</a>
          <a href="/3" rel="noopener  nofollow external">3</a>
          <area href="/4" rel="nofollow">
          <a href="/5" rel="nofollowme">5 (not the token)</a>
          <a href="/6" rel="external">6</a>
          <a href="/1">1 followed elsewhere</a>
          """);
      assertEquals(List.of(
          norm("https://example.org/5"), norm("https://example.org/6"), norm("https://example.org/1")),
          page.links());
    }

    @Test
    void baseHrefIsResolvedAgainstThePageAndAppliesToEveryLinkEvenEarlierOnes() {
      ExtractedPage page = html("""
          <html><head><base href="/other/base/"><base href="https://ignored.example/"></head>
          <body><a href="x">x</a><a href="/abs">abs</a><iframe src="../f"></iframe></body></html>
          """);
      assertEquals(List.of(
          norm("https://example.org/other/base/x"),
          norm("https://example.org/abs"),
          norm("https://example.org/other/f")), page.links());

      ExtractedPage late = html("<a href='x'>x</a><base href='https://cdn.example.net/b/'>");
      assertEquals(List.of(norm("https://cdn.example.net/b/x")), late.links());
    }

    @Test
    void aBaseThatIsNotHttpIsIgnored() {
      ExtractedPage page = html("<base href='javascript:alert(1)'><a href='x'>x</a>");
      assertEquals(List.of(norm("https://example.org/dir/x")), page.links());
    }

    @Test
    void aBaseOfAnotherSchemeLeavesOnlyAbsoluteHttpLinks() {
      // Was ignored, so that relative links resolved against the page: browsers resolve them to ftp:.
      ExtractedPage page = html("<base href='ftp://files.example/pub/'><a href='x'>x</a><a href='//cdn.example/y'>y</a>"
          + "<a href='http:z'>z</a><a href='https://other.example/w'>w</a>");
      assertEquals(List.of(norm("http://z/"), norm("https://other.example/w")), page.links());
    }

    @Test
    void aBaseWithoutHrefDoesNotHideALaterOne() {
      ExtractedPage page = html("<base target=_blank><base href='/b/'><a href='x'>x</a>");
      assertEquals(List.of(norm("https://example.org/b/x")), page.links());
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void aPageWithTenThousandLinksGivesThemAllInOrder() {
      StringBuilder html = new StringBuilder("<html><body><ul>");
      for (int i = 0; i < 10_000; i++) html.append("<li><a href=\"/p/").append(i).append("\">").append(i).append("</a>");
      html.append("</ul></body></html>");
      ExtractedPage page = html(html.toString());
      assertEquals(10_000, page.links().size());
      assertEquals(norm("https://example.org/p/0"), page.links().get(0));
      assertEquals(norm("https://example.org/p/9999"), page.links().get(9_999));
    }

    @Test
    void theLinkListIsImmutable() {
      List<String> links = html("<a href=/a>a</a>").links();
      assertThrows(UnsupportedOperationException.class, () -> links.add("x"));
    }
  }

  @Nested
  class Canonical {

    @Test
    void noCanonicalGivesEmpty() {
      assertEquals(Optional.empty(), html("<a href=/a>a</a>").canonical());
    }

    @Test
    void linkTagInTheHeadAbsoluteOrRelative() {
      assertEquals(Optional.of(norm("https://example.org/canon")),
          html("<head><link rel=canonical href='https://example.org/canon'></head>").canonical());
      assertEquals(Optional.of(norm("https://example.org/dir/canon")),
          html("<head><link rel='Canonical' href='canon'></head>").canonical());
    }

    @Test
    void linkTagIsResolvedAgainstTheDocumentBase() {
      assertEquals(Optional.of(norm("https://example.org/b/canon")),
          html("<head><base href='/b/'><link rel=canonical href='canon'></head>").canonical());
    }

    @Test
    void theFirstCanonicalTagCounts() {
      assertEquals(Optional.of(norm("https://example.org/first")), html("""
          <head><link rel=canonical href=/first><link rel=canonical href=/second></head>""").canonical());
    }

    @Test
    void aCanonicalTagInTheBodyIsIgnored() {
      assertEquals(Optional.empty(),
          html("<html><head></head><body><p>hi</p><link rel=canonical href=/evil></body></html>").canonical());
    }

    @Test
    void aCanonicalThatIsNotHttpIsIgnored() {
      assertEquals(Optional.empty(), html("<head><link rel=canonical href='mailto:x@example.org'></head>").canonical());
    }

    @Test
    void linkHeaderAloneRelativeToThePage() {
      ExtractedPage page = withHeaders("<p>hi", List.of(), List.of("<canon>; rel=\"canonical\""));
      assertEquals(Optional.of(norm("https://example.org/dir/canon")), page.canonical());
    }

    @Test
    void linkHeaderInUtf8IsReadAsUtf8() {
      String asRead = new String("</caf\u00e9>; rel=canonical".getBytes(UTF_8), ISO_8859_1);
      ExtractedPage page = withHeaders("<p>hi", List.of(), List.of(asRead));
      assertEquals(Optional.of("https://example.org/caf%C3%A9"), page.canonical());
    }

    @Test
    void linkHeaderIgnoresTheDocumentBase() {
      ExtractedPage page = withHeaders("<base href=/b/>", List.of(), List.of("<canon>; rel=canonical"));
      assertEquals(Optional.of(norm("https://example.org/dir/canon")), page.canonical());
    }

    @Test
    void linkHeaderWinsOverTheTag() {
      ExtractedPage page = withHeaders("<head><link rel=canonical href=/from-tag></head>", List.of(),
          List.of("<https://example.org/preload.css>; rel=preload, <https://example.org/from-header>; rel=\"alternate canonical\""));
      assertEquals(Optional.of(norm("https://example.org/from-header")), page.canonical());
    }

    @Test
    void aLinkHeaderWithoutCanonicalLeavesTheTag() {
      ExtractedPage page = withHeaders("<head><link rel=canonical href=/from-tag></head>", List.of(),
          List.of("</style.css>; rel=preload; as=style"));
      assertEquals(Optional.of(norm("https://example.org/from-tag")), page.canonical());
    }
  }

  @Nested
  class Robots {

    @Test
    void noDirectivesByDefault() {
      ExtractedPage page = html("<a href=/a>a</a>");
      assertFalse(page.noindex());
      assertFalse(page.nofollow());
    }

    @Test
    void genericMetaNoindex() {
      ExtractedPage page = html("<meta name=robots content=noindex><a href=/a>a</a>");
      assertTrue(page.noindex());
      assertFalse(page.nofollow());
      assertEquals(1, page.links().size());
    }

    @Test
    void metaNofollowEmptiesTheLinksWhereverTheTagIs() {
      ExtractedPage page = html("<a href=/a>a</a><p>text</p><meta name='ROBOTS' content='NOFOLLOW'>");
      assertFalse(page.noindex());
      assertTrue(page.nofollow());
      assertEquals(List.of(), page.links());
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "noindex,nofollow", "noindex nofollow", " NoIndex ,  NoFollow ", "index, none"})
    void metaBothDirectives(String content) {
      ExtractedPage page = html("<meta name=robots content='" + content + "'><a href=/a>a</a>");
      assertTrue(page.noindex());
      assertTrue(page.nofollow());
      assertEquals(List.of(), page.links());
    }

    @Test
    void metaForOurProductTokenAppliesWhateverTheCase() {
      ExtractedPage page = html("<meta name='foragerbot' content='noindex'><meta name='FORAGERBOT' content='nofollow'>");
      assertTrue(page.noindex());
      assertTrue(page.nofollow());
    }

    @Test
    void metaForAnotherBotDoesNotApply() {
      ExtractedPage page = html("<meta name=googlebot content=none><meta name=description content=noindex><a href=/a>a</a>");
      assertFalse(page.noindex());
      assertFalse(page.nofollow());
      assertEquals(1, page.links().size());
    }

    @Test
    void theMostRestrictiveWins() {
      ExtractedPage page = html("<meta name=robots content='index, follow'><meta name=ForagerBot content=noindex>");
      assertTrue(page.noindex());
      assertFalse(page.nofollow());
    }

    @Test
    void genericXRobotsTag() {
      ExtractedPage page = withHeaders("<a href=/a>a</a>", List.of("noindex, nofollow"), List.of());
      assertTrue(page.noindex());
      assertTrue(page.nofollow());
      assertEquals(List.of(), page.links());
    }

    @Test
    void xRobotsTagForUs() {
      ExtractedPage page = withHeaders("<a href=/a>a</a>", List.of("foragerBOT: noindex"), List.of());
      assertTrue(page.noindex());
      assertFalse(page.nofollow());
      assertEquals(1, page.links().size());
    }

    @Test
    void xRobotsTagForAnotherBotDoesNotApply() {
      ExtractedPage page = withHeaders("<a href=/a>a</a>", List.of("googlebot: noindex, nofollow"), List.of());
      assertFalse(page.noindex());
      assertFalse(page.nofollow());
    }

    @Test
    void severalXRobotsTagHeadersAddUp() {
      ExtractedPage page = withHeaders("<p>x", List.of("googlebot: none", "ForagerBot: nofollow", "noindex"), List.of());
      assertTrue(page.noindex());
      assertTrue(page.nofollow());
    }

    @Test
    void headerAndMetaAddUp() {
      ExtractedPage page = withHeaders("<meta name=robots content=nofollow>", List.of("noindex"), List.of());
      assertTrue(page.noindex());
      assertTrue(page.nofollow());
    }
  }

  @Nested
  class CharsetRules {

    static final String LATIN = "<a href='/caf\u00e9'>caf\u00e9</a>";
    static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

    static byte[] concat(byte[] a, byte[] b) {
      byte[] all = new byte[a.length + b.length];
      System.arraycopy(a, 0, all, 0, a.length);
      System.arraycopy(b, 0, all, a.length, b.length);
      return all;
    }

    static void assertCafeLink(ExtractedPage page) {
      assertEquals(List.of(norm("https://example.org/caf\u00e9")), page.links());
    }

    @Test
    void utf8WhenNothingIsDeclared() {
      ExtractedPage page = bytes(LATIN.getBytes(UTF_8), null);
      assertEquals(UTF_8, page.charset());
      assertCafeLink(page);
    }

    @Test
    void headerCharset() {
      ExtractedPage page = bytes(LATIN.getBytes(ISO_8859_1), "text/html; charset=ISO-8859-1");
      assertEquals(WINDOWS_1252, page.charset());
      assertCafeLink(page);
    }

    @Test
    void metaCharset() {
      ExtractedPage page = bytes(("<meta charset=iso-8859-1>" + LATIN).getBytes(ISO_8859_1), "text/html");
      assertEquals(WINDOWS_1252, page.charset());
      assertCafeLink(page);
    }

    @Test
    void metaHttpEquivContentType() {
      String html = "<html><head><meta http-equiv='Content-Type' content='text/html; charset=windows-1252'>"
          + "</head><body>" + LATIN;
      ExtractedPage page = bytes(html.getBytes(ISO_8859_1), null);
      assertEquals(Charset.forName("windows-1252"), page.charset());
      assertCafeLink(page);
    }

    @Test
    void headerWinsOverAConflictingMeta() {
      ExtractedPage page = bytes(("<meta charset=utf-8>" + LATIN).getBytes(ISO_8859_1), "text/html;charset=ISO-8859-1");
      assertEquals(WINDOWS_1252, page.charset());
      assertCafeLink(page);
    }

    @Test
    void utf8BomWinsOverHeaderAndMeta() {
      byte[] body = concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
          ("<meta charset=iso-8859-1>" + LATIN).getBytes(UTF_8));
      ExtractedPage page = bytes(body, "text/html; charset=iso-8859-1");
      assertEquals(UTF_8, page.charset());
      assertCafeLink(page);
    }

    @Test
    void utf16LittleEndianBom() {
      byte[] body = concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, LATIN.getBytes(UTF_16LE));
      ExtractedPage page = bytes(body, "text/html; charset=utf-8");
      assertEquals(UTF_16LE, page.charset());
      assertCafeLink(page);
    }

    @Test
    void anUnknownHeaderCharsetFallsBackToTheMeta() {
      ExtractedPage page = bytes(("<meta charset=latin1>" + LATIN).getBytes(ISO_8859_1), "text/html; charset=x-no-such-thing");
      assertEquals(WINDOWS_1252, page.charset());
      assertCafeLink(page);
    }

    @ParameterizedTest
    @ValueSource(strings = {"text/html; charset=", "text/html; charset=\"\"", "text/html; charset=utf 8!!", "charset"})
    void unknownOrIllegalNamesFallBackToUtf8(String contentType) {
      ExtractedPage page = bytes(("<meta charset='no such'>" + LATIN).getBytes(UTF_8), contentType);
      assertEquals(UTF_8, page.charset());
      assertCafeLink(page);
    }

    static byte[] bytesOf(int... values) {
      byte[] b = new byte[values.length];
      for (int i = 0; i < b.length; i++) b[i] = (byte) values[i];
      return b;
    }

    static List<String> linksOf(byte[] href, String contentType) {
      return bytes(concat(concat("<a href='".getBytes(UTF_8), href), "'>x</a>".getBytes(UTF_8)), contentType).links();
    }

    @Test
    void latin1LabelMeansWindows1252SoCurlyQuotesInPathsAreKept() {
      // Java's ISO-8859-1 made 0x93 a C1 control; on the web it is windows-1252's left double quote.
      byte[] href = concat("/a".getBytes(UTF_8), bytesOf(0x93, 'b', 0x94));
      assertEquals(List.of(norm("https://example.org/a\u201cb\u201d")), linksOf(href, "text/html; charset=iso-8859-1"));
    }

    @Test
    void usAsciiLabelMeansWindows1252NotReplacementCharacters() {
      byte[] href = concat("/caf".getBytes(UTF_8), bytesOf(0xE9));
      assertEquals(List.of(norm("https://example.org/caf\u00e9")), linksOf(href, "text/html; charset=us-ascii"));
    }

    @Test
    void shiftJisLabelDecodesWindows31jCharacters() {
      // 0x87 0x40 is the circled digit one, in windows-31j (the standard's Shift_JIS) but not in Java's Shift_JIS.
      byte[] href = concat("/".getBytes(UTF_8), bytesOf(0x87, 0x40));
      assertEquals(List.of(norm("https://example.org/\u2460")), linksOf(href, "text/html; charset=shift_jis"));
    }

    @Test
    void gb2312LabelIsGbkDecodedAsGb18030() {
      // 0x81 0x40 is in GBK's extension, not in GB2312 proper (Java's GB2312 gave U+FFFD).
      byte[] href = concat("/".getBytes(UTF_8), bytesOf(0x81, 0x40));
      assertEquals(List.of(norm("https://example.org/\u4e02")), linksOf(href, "text/html; charset=gb2312"));
    }

    @Test
    void eucKrLabelIsWindows949() {
      // 0x81 0x41 is outside EUC-KR proper, in windows-949's extension (U+AC02).
      byte[] href = concat("/".getBytes(UTF_8), bytesOf(0x81, 0x41));
      assertEquals(List.of(norm("https://example.org/\uac02")), linksOf(href, "text/html; charset=euc-kr"));
    }

    @Test
    void undeclaredBytesThatAreNotUtf8AreWindows1252() {
      ExtractedPage page = bytes(LATIN.getBytes(ISO_8859_1), "text/html");
      assertEquals(WINDOWS_1252, page.charset());
      assertCafeLink(page);
    }

    @Test
    void theQueryOfAWindows1252PageIsEncodedInWindows1252AndThePathInUtf8() {
      ExtractedPage page = bytes("<a href='/caf\u00e9?q=caf\u00e9'>x</a>".getBytes(ISO_8859_1), "text/html; charset=windows-1252");
      assertEquals(List.of("https://example.org/caf%C3%A9?q=caf%E9"), page.links());
    }

    @Test
    void theQueryOfAShiftJisPageIsEncodedInShiftJis() {
      Charset sjis = Charset.forName("windows-31j");
      ExtractedPage page = bytes("<a href='/\u6771\u4eac?q=\u6771\u4eac'>x</a>".getBytes(sjis), "text/html; charset=Shift_JIS");
      assertEquals(List.of("https://example.org/%E6%9D%B1%E4%BA%AC?q=%93%8C%8B%9E"), page.links());
    }

    @Test
    void aCharacterTheEncodingLacksBecomesAnEncodedNumericReference() {
      // Written as an entity on a windows-1252 page: the browser sends &#26481; percent-encoded.
      ExtractedPage page = bytes("<a href='/s?q=&#26481;x'>x</a>".getBytes(ISO_8859_1), "text/html; charset=windows-1252");
      assertEquals(List.of("https://example.org/s?q=%26%2326481%3Bx"), page.links());
    }

    @Test
    void theQueryOfAGbkPageUsesTheGbkEncoderNotGb18030() {
      ExtractedPage page = bytes("<a href='/s?q=&euro;'>x</a>".getBytes(ISO_8859_1), "text/html; charset=gbk");
      assertEquals(List.of("https://example.org/s?q=%80"), page.links());
    }

    @Test
    void theQueryOfAUtf16PageIsEncodedInUtf8() {
      byte[] body = concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, "<a href='/s?q=caf\u00e9'>x</a>".getBytes(UTF_16LE));
      assertEquals(List.of("https://example.org/s?q=caf%C3%A9"), bytes(body, null).links());
    }

    @Test
    void baseAndCanonicalQueriesAreInTheDocumentEncodingToo() {
      String html = "<head><base href='/b/?x=\u00e9'><link rel=canonical href='?c=\u00e9'></head><a href=''>self</a>";
      ExtractedPage page = bytes(html.getBytes(ISO_8859_1), "text/html; charset=windows-1252");
      assertEquals(List.of("https://example.org/b/?x=%E9"), page.links());
      assertEquals(Optional.of("https://example.org/b/?c=%E9"), page.canonical());
    }

    @Test
    void invalidUtf8IsReplacedNotFatal() {
      byte[] body = concat("<a href='/ok'>".getBytes(UTF_8), new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, '<', '/', 'a', '>'});
      ExtractedPage page = bytes(body, "text/html; charset=utf-8");
      assertEquals(List.of(norm("https://example.org/ok")), page.links());
    }
  }

  /** What a browser sees, pinned case by case (the corpus in ExtractorBrowserComparisonTest has more). */
  @Nested
  class AsABrowserSees {

    @Test
    void linksInsideTemplateAreNotCandidates() {
      ExtractedPage page = html("<template><a href='/products/{{ handle }}?view=quick'>q</a><iframe src='/f'></iframe>"
          + "<template><a href='/nested'>n</a></template></template><table><template><tr><td><a href='/t'>t</a>"
          + "</template></table><a href='real'>r</a>");
      assertEquals(List.of(norm("https://example.org/dir/real")), page.links());
    }

    @Test
    void aBaseInsideTemplateDoesNotRebaseThePage() {
      ExtractedPage page = html("<head><template><base href='https://evil.example/'></template>"
          + "<link rel=canonical href='c'></head><a href='x'>x</a>");
      assertEquals(List.of(norm("https://example.org/dir/x")), page.links());
      assertEquals(Optional.of(norm("https://example.org/dir/c")), page.canonical());
    }

    @Test
    void aDeclarativeShadowRootIsShownButItsBaseBasesNothing() {
      ExtractedPage page = html("<div><template shadowrootmode=open><base href='https://evil.example/'>"
          + "<a href='shadow'>s</a></template><a href='light'>l</a></div>"
          + "<a><template shadowrootmode=closed><a href='/not-a-host'>x</a></template></a>");
      assertEquals(List.of(norm("https://example.org/dir/shadow"), norm("https://example.org/dir/light")), page.links());
    }

    @Test
    void svgLinksWithXlinkHrefOrHrefAreFound() {
      ExtractedPage page = html("<svg><a xlink:href='xl'><text>1</text></a><a href='h'><text>2</text></a>"
          + "<a href='both' xlink:href='not-this'><text>3</text></a><a><text>none</text></a>"
          + "<a href='nf' rel=nofollow><text>4</text></a></svg>");
      assertEquals(List.of(norm("https://example.org/dir/xl"), norm("https://example.org/dir/h"),
          norm("https://example.org/dir/both")), page.links());
    }

    @Test
    void elementsOfOtherNamespacesAreNotLinksOrBases() {
      ExtractedPage page = html("<svg><base href='https://evil.example/'/><iframe src='/svg-iframe'/></svg>"
          + "<math><a href='/mathml'>m</a></math><a href='x'>x</a>");
      assertEquals(List.of(norm("https://example.org/dir/x")), page.links());
    }

    @Test
    void srcdocDocumentsAreReadAgainstTheParentsBaseAndSrcIsNotRequested() {
      ExtractedPage page = html("<base href='/b/'><iframe src='not-loaded' srcdoc=\"<a href='s'>s</a>"
          + "<iframe srcdoc='<a href=nested>n</a>'></iframe>\"></iframe>"
          + "<iframe srcdoc=\"<base href='/own/'><a href='o?q=&eacute;'>o</a>\"></iframe><a href='p'>p</a>");
      assertEquals(List.of(norm("https://example.org/b/p"), norm("https://example.org/b/s"),
          norm("https://example.org/b/nested"), norm("https://example.org/own/o?q=%C3%A9")), page.links());
    }

    @Test
    void srcdocLinksFollowTheParentsNofollow() {
      ExtractedPage page = html("<meta name=robots content=nofollow><iframe srcdoc=\"<a href='s'>s</a>\"></iframe>");
      assertEquals(List.of(), page.links());
    }

    @Test
    void anAInNoscriptInTheHeadIsALinkWithScriptingOff() {
      ExtractedPage page = html("<head><noscript><link rel=stylesheet href=s.css><a href='ns'>x</a></noscript></head>");
      assertEquals(List.of(norm("https://example.org/dir/ns")), page.links());
    }

    @Test
    void aCanonicalAfterAnElementThatEndsTheHeadInNoscriptIsInTheBody() {
      ExtractedPage broken = html("<head><noscript><img src=x></noscript><link rel=canonical href='c'></head>");
      assertEquals(Optional.empty(), broken.canonical());
      ExtractedPage fine = html("<head><noscript><link rel=stylesheet href=s><style></style></noscript>"
          + "<link rel=canonical href='c'></head>");
      assertEquals(Optional.of(norm("https://example.org/dir/c")), fine.canonical());
    }

    @Test
    void textInANoscriptInTheHeadEndsTheHeadAndABaseClosesTheNoscriptForBothReaders() {
      String text = "<head><noscript>Enable JavaScript</noscript><link rel=canonical href='c'></head>";
      String blank = "<head><noscript> \n</noscript><link rel=canonical href='c'></head>";
      // A <base> closes the noscript and stays in the head, and so does the canonical link after it.
      String based = "<head><noscript><base href=/><link rel=canonical href='c'></noscript></head>";
      // jsoup keeps a <head> or <html> in a noscript as an element; HTML ignores the tag.
      String nestedEnds = "<head><noscript><head><div></div></noscript><link rel=canonical href=/c></head>";
      String nestedText = "<head><noscript><html>text</noscript><link rel=canonical href=/c></head>";
      String nestedBase = "<head><noscript><head><base href=/b/><link rel=canonical href=c></noscript></head>";
      // A link in the noscript is not the head's, even under the <html><head> jsoup nests there.
      String nestedHead = "<head><noscript><html><head><link rel=canonical href=c></noscript></head>";
      String inNoscript = "<head><noscript><link rel=canonical href=c></noscript></head>";
      for (HtmlExtractor reader : List.of(EXTRACTOR, HtmlExtractor.treeOnly("ForagerBot"))) {
        for (String notTheHeads : List.of(nestedHead, inNoscript)) {
          assertEquals(Optional.empty(),
              reader.extract(PAGE, notTheHeads.getBytes(UTF_8), Optional.empty(), List.of(), List.of()).canonical(), notTheHeads);
        }
        assertEquals(Optional.of(norm("https://example.org/c")),
            reader.extract(PAGE, based.getBytes(UTF_8), Optional.empty(), List.of(), List.of()).canonical());
        for (String ended : List.of(nestedEnds, nestedText)) {
          assertEquals(Optional.empty(),
              reader.extract(PAGE, ended.getBytes(UTF_8), Optional.empty(), List.of(), List.of()).canonical(), ended);
        }
        assertEquals(Optional.of(norm("https://example.org/b/c")),
            reader.extract(PAGE, nestedBase.getBytes(UTF_8), Optional.empty(), List.of(), List.of()).canonical());
        assertEquals(Optional.empty(),
            reader.extract(PAGE, text.getBytes(UTF_8), Optional.empty(), List.of(), List.of()).canonical());
        assertEquals(Optional.of(norm("https://example.org/dir/c")),
            reader.extract(PAGE, blank.getBytes(UTF_8), Optional.empty(), List.of(), List.of()).canonical());
      }
    }

    @Test
    void commentsEndingInBangOrEmptyAndBogusCommentsHideOnlyWhatTheyHide() {
      ExtractedPage page = html("<!-- x --!><a href='a'>a</a><!--><a href='b'>b</a><!---><a href='c'>c</a>"
          + "</3 <a href='hidden'> > <a href='d'>d</a><? <a href='pi'> ?><a href='e'>e</a>");
      assertEquals(List.of("a", "b", "c", "d", "e").stream().map(p -> norm("https://example.org/dir/" + p)).toList(),
          page.links());
    }

    @Test
    void aTagCutOffByTheEndOfTheFileIsNotALink() {
      assertEquals(List.of(norm("https://example.org/dir/x")), html("<a href='x'>x</a><p><a href=\"cut\"").links());
      assertEquals(List.of(norm("https://example.org/dir/x")), html("<a href='x'>x</a><a href=\"cut>text").links());
    }

    @Test
    void numericReferenceZeroIsTheReplacementCharacter() {
      assertEquals(List.of(norm("https://example.org/dir/a?z=%EF%BF%BD")), html("<meta charset=utf-8><a href='a?z=&#0;'>").links());
    }

    @Test
    void legacyReferencesWithoutSemicolonBeforeDashOrUnderscoreAreDecoded() {
      ExtractedPage page = html("<meta charset=utf-8><a href='/e?a=1&amp_b=2'>1</a><a href='/e?a=1&not-b'>2</a>"
          + "<a href='/e?a=1&reg_id=3'>3</a><a href='/e?a=1&amp;amp_b=4'>4</a><a href='/e?a=1&copy=5&notit=6'>5</a>");
      assertEquals(List.of(norm("https://example.org/e?a=1&_b=2"), norm("https://example.org/e?a=1%C2%AC-b"),
          norm("https://example.org/e?a=1%C2%AE_id=3"), norm("https://example.org/e?a=1&amp_b=4"),
          norm("https://example.org/e?a=1&copy=5&notit=6")), page.links());
    }

    @Test
    void cdataOutsideForeignContentIsABogusCommentEndingAtTheFirstGreaterThan() {
      ExtractedPage page = html("<![CDATA[ x > <a href='visible'>v</a> ]]><svg><![CDATA[<a href='hidden'>]]></svg>");
      assertEquals(List.of(norm("https://example.org/dir/visible")), page.links());
    }

    @Test
    void aFramesetReplacesAnImpliedBodyWithNoContentYet() {
      ExtractedPage page = html("<a href='gone'></a><frameset><frame src='f'></frameset>");
      assertEquals(List.of(norm("https://example.org/dir/f")), page.links());
      // An explicit <body> tag (or text) makes the body stay.
      assertEquals(List.of(norm("https://example.org/dir/kept")),
          html("<body><a href='kept'></a><frameset><frame src='f'></frameset>").links());
    }

    @Test
    void aScriptDoubleEscapedInTheHeadHidesItsMarkup() {
      ExtractedPage page = html("<script><!--<script></script><a href='hidden'></script><a href='shown'>");
      assertEquals(List.of(norm("https://example.org/dir/shown")), page.links());
    }

    @Test
    void anUndeclaredAsciiPageEncodesReferencesInTheQueryAsWindows1252() {
      ExtractedPage page = html("<a href='/q?x=&eacute;'>e</a>");
      assertEquals(List.of(norm("https://example.org/q?x=%E9")), page.links());
    }
  }

  @Nested
  class Garbage {

    @Test
    void emptyBody() {
      ExtractedPage page = bytes(new byte[0], null);
      assertEquals(List.of(), page.links());
      assertEquals(Optional.empty(), page.canonical());
      assertFalse(page.noindex());
      assertFalse(page.nofollow());
      // No bytes are all ASCII: windows-1252, as a browser decides (an undeclared all-ASCII page).
      assertEquals(Charset.forName("windows-1252"), page.charset());
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void randomBytesNeverThrow() {
      Random random = new Random(42);
      for (int i = 0; i < 200; i++) {
        byte[] body = new byte[random.nextInt(20_000)];
        random.nextBytes(body);
        String contentType = i % 2 == 0 ? null : "text/html; charset=" + (i % 3 == 0 ? "utf-16" : "shift_jis");
        assertDoesNotThrow(() -> bytes(body, contentType));
      }
    }

    @Test
    void aLinkWithANonAsciiHostOverAThousandCharsIsSkippedNotThrown() {
      // Found by UrlNormalizerFuzz: the normalizer threw on such a host, and extract with it.
      String huge = "http://" + "\u00e9".repeat(1001) + "/";
      ExtractedPage page = withHeaders("<a href='" + huge + "'>x</a><a href='/kept'>k</a>",
          List.of(), List.of("<" + huge + ">; rel=canonical"));
      assertEquals(List.of(norm("https://example.org/kept")), page.links());
      assertEquals(Optional.empty(), page.canonical());
    }

    @Test
    void truncatedHtmlStillGivesWhatItCan() {
      ExtractedPage page = html("<html><head><meta name=robots content=noindex><body><a href='/a'>a</a><a href=\"/b");
      assertTrue(page.noindex());
      assertTrue(page.links().contains(norm("https://example.org/a")));
    }

    @Test
    void truncatedMetaCharsetDoesNotThrow() {
      // No declaration found: the undeclared all-ASCII rule, windows-1252 (not latin1 read from the cut-off tag).
      Charset windows1252 = Charset.forName("windows-1252");
      assertEquals(windows1252, bytes("<meta charset=\"utf-16be".getBytes(ISO_8859_1), null).charset());
      assertEquals(windows1252, bytes("<!-- <meta charset=utf-16be>".getBytes(ISO_8859_1), null).charset());
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void deeplyNestedTagsDoNotOverflowTheStack() {
      String html = "<div>".repeat(100_000) + "<a href=/deep>deep</a>";
      assertEquals(List.of(norm("https://example.org/deep")), html(html).links());
    }

    @Test
    void garbageHeaders() {
      ExtractedPage page = withHeaders("<a href=/a>a</a>",
          List.of(":::,,,", ": noindex", "unavailable_after: 25 Jun 2010 15:00:00 PST", ""),
          List.of("<<<;;;,,,", "<", ">; rel=canonical", "<unclosed; rel=canonical", "<x>; rel=\"canonical"));
      assertFalse(page.nofollow());
      assertEquals(1, page.links().size());
    }

    @Test
    void aPageUrlThatIsNotAnHttpUrlGivesNoLinksButKeepsTheDirectives() {
      for (String pageUrl : List.of("not a url", "ftp://example.org/", "")) {
        ExtractedPage page = EXTRACTOR.extract(pageUrl,
            "<head><link rel=canonical href=https://example.org/c></head><a href='https://example.org/abs'>a</a>"
                .getBytes(UTF_8), Optional.empty(), List.of("noindex"), List.of());
        assertEquals(List.of(), page.links());
        assertEquals(Optional.empty(), page.canonical());
        assertTrue(page.noindex());
      }
    }

    @Test
    void hrefsThatDoNotParseAreDropped() {
      ExtractedPage page = html("<a href='http://[::1'>x</a><a href='http://'>y</a><a href='/ok'>ok</a>");
      assertEquals(List.of(norm("https://example.org/ok")), page.links());
    }
  }

  @Test
  void productTokenMustBeOneToken() {
    assertThrows(IllegalArgumentException.class, () -> new HtmlExtractor(""));
    assertThrows(IllegalArgumentException.class, () -> new HtmlExtractor("Forager Bot"));
    assertThrows(IllegalArgumentException.class, () -> new HtmlExtractor("ForagerBot:"));
    assertThrows(NullPointerException.class, () -> new HtmlExtractor(null));
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void oneExtractorServesManyThreads() throws Exception {
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < 4; t++) {
      int id = t;
      threads.add(Thread.ofPlatform().start(() -> {
        try {
          for (int i = 0; i < 200; i++) {
            String path = "/t" + id + "/" + i;
            ExtractedPage page = html("<meta name=ForagerBot content=noindex><a href='" + path + "'>x</a>");
            assertEquals(List.of(norm("https://example.org" + path)), page.links());
            assertTrue(page.noindex());
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      }));
    }
    for (Thread thread : threads) thread.join();
    assertEquals(List.of(), failures);
  }
}
