package org.forager.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** One test group per rule in docs/url-normalization.md. */
class UrlNormalizerTest {

  private static final String BASE = "https://example.org/dir/page.html?x=1";

  private static void normalizes(String input, String expected) {
    assertEquals(Optional.of(expected), UrlNormalizer.normalize(input), "normalize(" + input + ")");
  }

  private static void rejects(String input) {
    assertEquals(Optional.empty(), UrlNormalizer.normalize(input), "normalize(" + input + ")");
  }

  private static void resolves(String href, String expected) {
    assertEquals(Optional.of(expected), UrlNormalizer.resolve(BASE, href), "resolve(" + href + ")");
  }

  @Nested
  class Whitespace {
    @Test
    void leadingAndTrailingControlsAndSpacesAreStripped() {
      normalizes(" \t\u0000\u001f http://example.com/a \r\n\u000b", "http://example.com/a");
    }

    @Test
    void tabsAndNewlinesAnywhereAreRemoved() {
      normalizes("ht\ttp://exa\nmple.com/p\ra\tth?q\n=1", "http://example.com/path?q=1");
    }

    @Test
    void innerSpaceIsEncodedNotRemoved() {
      normalizes("http://example.com/a b?c d", "http://example.com/a%20b?c%20d");
    }

    @Test
    void backslashIsASlash() {
      normalizes("http:\\\\example.com\\a\\b", "http://example.com/a/b");
    }
  }

  @Nested
  class SchemeHostPort {
    @Test
    void schemeAndHostAreLowerCased() {
      normalizes("HTTPS://WWW.Example.COM/Path", "https://www.example.com/Path");
    }

    @Test
    void defaultPortsAreRemoved() {
      normalizes("http://example.com:80/", "http://example.com/");
      normalizes("https://example.com:443/", "https://example.com/");
      normalizes("http://example.com:0080/", "http://example.com/");
    }

    @Test
    void otherPortsAreKept() {
      normalizes("http://example.com:443/", "http://example.com:443/");
      normalizes("https://example.com:8443", "https://example.com:8443/");
      normalizes("http://example.com:/", "http://example.com/");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://example.com:65536/", "http://example.com:-1/", "http://example.com:8o/",
        "http://example.com:99999999999999999999/", "http://example.com: 80/"})
    void invalidPortsAreRejected(String url) {
      rejects(url);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp://example.com/", "mailto:a@example.com", "javascript:alert(1)", "data:,x",
        "file:///etc/passwd", "ws://example.com/", "example.com/path", "", "http://", "https:", "//example.com/"})
    void anythingButAnAbsoluteHttpUrlIsRejected(String url) {
      rejects(url);
    }
  }

  @Nested
  class Hosts {
    @Test
    void internationalNamesBecomePunycode() {
      normalizes("http://Bücher.example/", "http://xn--bcher-kva.example/");
      normalizes("http://你好你好/", "http://xn--6qqa088eba/");
      normalizes("http://www.foo\u3002bar.com/", "http://www.foo.bar.com/");
    }

    @Test
    void hostIsPercentDecodedBeforeDomainToAscii() {
      normalizes("http://%62%C3%BCcher.example/", "http://xn--bcher-kva.example/");
      normalizes("http://EX%41MPLE.com/", "http://example.com/");
    }

    @Test
    void sharpSAndFinalSigmaAreKeptNotMappedAsInIdna2003() {
      // java.net.IDN (IDNA2003) gave fass.example, another site; UTS #46 non-transitional keeps the ß.
      normalizes("https://faß.example/", "https://xn--fa-hia.example/");
      normalizes("https://FASS.example/", "https://fass.example/");
      normalizes("http://ελλάς.gr/", "http://xn--hxarsa0b.gr/");
    }

    @Test
    void joinersAreCheckedNotDeletedAsInIdna2003() {
      // ZWNJ is valid after a virama (CheckJoiners) and must be kept; alone between Latin letters it fails.
      normalizes("http://\u0915\u094d\u200c\u0937.example/", "http://xn--11b2ezcs70k.example/");
      rejects("http://a\u200cb.example/");
    }

    @Test
    void validAsciiPunycodeHostsAreKeptNotDropped() {
      // IDNA2003 refused these as malformed; they are real hosts (UTS #46 / URL Standard accept them).
      normalizes("http://xn--fa-hia.de/", "http://xn--fa-hia.de/");
      normalizes("http://XN--NXASMM1C.gr/", "http://xn--nxasmm1c.gr/");
      normalizes("https://xn--72czcrhaj7cpt0ed1dxb4mb1s1.blogspot.com/", "https://xn--72czcrhaj7cpt0ed1dxb4mb1s1.blogspot.com/");
    }

    @Test
    void anAllAsciiHostIsOnlyLowerCasedEvenWithBogusPunycode() {
      // URL Standard after whatwg/url PR 914 (2026): an ASCII domain never fails domain to ASCII.
      normalizes("http://xn--pokxncvks/", "http://xn--pokxncvks/");
      normalizes("http://a.XN--/", "http://a.xn--/");
    }

    @Test
    void nonAsciiHostsWithInvalidPunycodeOrBidiAreRejected() {
      rejects("http://\u00e9.xn--pokxncvks/");
      rejects("http://\u05d0a.example/"); // CheckBidi: a right-to-left label with a Latin letter
      rejects("http://\u2615.xn--/");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://a b/", "http://a<b/", "http://a>b/", "http://a^b/", "http://a|b/", "http://a%b/",
        "http://a%25b/", "http://a%00b/", "http://a%2Fb/", "http://[a]/", "http://a]/", "http://\u00ad/",
        "http://\ufdd0.com/", "http://user@/", "http://:80/"})
    void forbiddenOrEmptyHostsAreRejected(String url) {
      rejects(url);
    }

    @Test
    void aNonAsciiLabelOverAThousandCharsIsRejectedNotThrown() {
      // The JDK's Punycode encoder threw a bare RuntimeException past 1000 UTF-16 units (found by
      // UrlNormalizerFuzz), ICU's throws ICUInputTooLongException; normalize must reject the host.
      rejects("http://" + "\u00e9".repeat(1001) + "/");
      rejects("http://a." + "\u00e9".repeat(5000) + ".example/");
      assertEquals(Optional.empty(), UrlNormalizer.resolve(BASE, "//" + "\u00e9".repeat(1001) + "/x"));
    }

    @Test
    void allowedOddCharactersStay() {
      normalizes("http://a_b-c.example/", "http://a_b-c.example/");
      normalizes("http://a..b/", "http://a..b/");
    }

    @ParameterizedTest
    @CsvSource({
        "http://0x7f.1/, http://127.0.0.1/",
        "http://127.1/, http://127.0.0.1/",
        "http://2130706433/, http://127.0.0.1/",
        "http://0177.0.0.1/, http://127.0.0.1/",
        "http://0x7F000001/, http://127.0.0.1/",
        "http://192.168.257/, http://192.168.1.1/",
        "http://1.2.3.4./, http://1.2.3.4/",
        "http://%31%32%37.0.0.1/, http://127.0.0.1/",
        "http://example.1com/, http://example.1com/",
        "http://0x7f.0.0.0x7g/, http://0x7f.0.0.0x7g/"})
    void ipv4NumberFormsAreCanonical(String input, String expected) {
      normalizes(input, expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://256.0.0.1/", "http://1.2.3.4.5/", "http://4294967296/", "http://0x100000000/",
        "http://1.2.3.09/", "http://foo.0x4/", "http://foo.123/", "http://1..2/"})
    void badIpv4IsRejected(String url) {
      rejects(url);
    }

    @ParameterizedTest
    @CsvSource({
        "http://[2001:DB8:0:0:0:0:0:1]/, http://[2001:db8::1]/",
        "http://[0:0:0:0:0:0:0:1]:80/, http://[::1]/",
        "http://[1:0:0:2:0:0:0:3]/, http://[1:0:0:2::3]/",
        "http://[1:0:0:2:0:0:3:4]/, http://[1::2:0:0:3:4]/",
        "http://[::ffff:192.168.0.1]/, http://[::ffff:c0a8:1]/",
        "http://[1:0:1:0:1:0:1:0]/, http://[1:0:1:0:1:0:1:0]/",
        "https://[::1]:8443/x, https://[::1]:8443/x"})
    void ipv6IsCompressedAsWhatwgSerializesIt(String input, String expected) {
      normalizes(input, expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://[::1/", "http://[1::2::3]/", "http://[1:2:3:4:5:6:7:8:9]/", "http://[::1.2.3]/",
        "http://[g::1]/", "http://[::1]x/", "http://[]/"})
    void badIpv6IsRejected(String url) {
      rejects(url);
    }
  }

  @Nested
  class Userinfo {
    @Test
    void credentialsAreDropped() {
      normalizes("http://user:secret@example.com/a", "http://example.com/a");
      normalizes("https://user@example.com:8443/", "https://example.com:8443/");
      normalizes("http://a@b@example.com/", "http://example.com/");
      normalizes("http://:@example.com/", "http://example.com/");
    }

    @Test
    void resolvedCredentialsAreDroppedToo() {
      resolves("//user:pw@other.org/x", "https://other.org/x");
    }
  }

  @Nested
  class Paths {
    @Test
    void emptyPathIsSlash() {
      normalizes("http://example.com", "http://example.com/");
      normalizes("http://example.com?q", "http://example.com/?q");
    }

    @Test
    void dotSegmentsAreRemoved() {
      normalizes("http://example.com/a/./b/../c", "http://example.com/a/c");
      normalizes("http://example.com/a/b/..", "http://example.com/a/");
      normalizes("http://example.com/../../x", "http://example.com/x");
      normalizes("http://example.com/a/.", "http://example.com/a/");
      normalizes("http://example.com/a/..b/.c", "http://example.com/a/..b/.c");
    }

    @Test
    void encodedDotSegmentsAreRemoved() {
      normalizes("http://example.com/a/%2e/b/%2E%2e/c", "http://example.com/a/c");
      normalizes("http://example.com/a/b/.%2E/c", "http://example.com/a/c");
      normalizes("http://example.com/a/b/%2e./c", "http://example.com/a/c");
    }

    @Test
    void pathIsPercentEncodedWithThePathSet() {
      normalizes("http://example.com/a b\"<>`{}^|", "http://example.com/a%20b%22%3C%3E%60%7B%7D%5E|");
      normalizes("http://example.com/é/你", "http://example.com/%C3%A9/%E4%BD%A0");
      normalizes("http://example.com/\ud83d\udca9", "http://example.com/%F0%9F%92%A9");
      normalizes("http://example.com/\ud83d", "http://example.com/%EF%BF%BD");
      normalizes("http://example.com/a;b=c:d@e!$&'()*+,", "http://example.com/a;b=c:d@e!$&'()*+,");
    }

    @Test
    void doubleSlashesAreKept() {
      normalizes("http://example.com//a//b/", "http://example.com//a//b/");
    }
  }

  @Nested
  class Queries {
    @Test
    void queryIsEncodedWithTheSpecialQuerySet() {
      normalizes("http://example.com/?a='b c\"<>", "http://example.com/?a=%27b%20c%22%3C%3E");
      normalizes("http://example.com/?`{}^|?", "http://example.com/?`{}^|?");
      normalizes("http://example.com/?q=é", "http://example.com/?q=%C3%A9");
    }

    @Test
    void parametersKeepTheirOrderAndForm() {
      normalizes("http://example.com/?b=2&a=1&a=&c", "http://example.com/?b=2&a=1&a=&c");
      normalizes("http://example.com/?a=1+2", "http://example.com/?a=1+2");
    }

    @Test
    void emptyQueryIsDropped() {
      normalizes("http://example.com/?", "http://example.com/");
      normalizes("http://example.com/p?#frag", "http://example.com/p");
      resolves("?", "https://example.org/dir/page.html");
    }

    @Test
    void queryOfOnlyAQuestionMarkIsNotEmpty() {
      normalizes("http://example.com/??", "http://example.com/??");
    }
  }

  @Nested
  class QueryEncoding {
    private final Charset windows1252 = Charset.forName("windows-1252");
    private final Charset sjis = Charset.forName("windows-31j");

    private void resolves(String href, Charset encoding, String expected) {
      Optional<String> url = UrlNormalizer.resolve(BASE, href, encoding);
      assertEquals(Optional.of(expected), url, href + " in " + encoding);
      assertEquals(url, UrlNormalizer.normalize(expected), "a fixed point");
    }

    @Test
    void theQueryIsEncodedInTheDocumentEncodingThePathInUtf8() {
      resolves("/caf\u00e9?q=caf\u00e9", windows1252, "https://example.org/caf%C3%A9?q=caf%E9");
      resolves("?q=\u6771\u4eac", sjis, "https://example.org/dir/page.html?q=%93%8C%8B%9E");
      resolves("http://other.example/?q=\u20ac", windows1252, "http://other.example/?q=%80");
    }

    @Test
    void aCharacterTheEncodingLacksBecomesAPercentEncodedNumericReference() {
      resolves("?q=\u6771&r=1", windows1252, "https://example.org/dir/page.html?q=%26%2326481%3B&r=1");
      resolves("?q=\ud83d\ude00", sjis, "https://example.org/dir/page.html?q=%26%23128512%3B");
      // A lone surrogate is U+FFFD first, which windows-1252 lacks too.
      resolves("?q=\ud800", windows1252, "https://example.org/dir/page.html?q=%26%2365533%3B");
    }

    @Test
    void aLoneSurrogateIsWrittenAsUfffdInAnEncodingThatHasIt() {
      // gb18030 has U+FFFD (84 31 A4 37): the standard encodes the scalar value string, so its bytes;
      // U+1F600 is 94 39 FC 36.
      Charset gb18030 = Charset.forName("GB18030");
      resolves("?q=\ud800x\ud83d\ude00", gb18030, "https://example.org/dir/page.html?q=%841%A47x%949%FC6");
      resolves("?q=\ufffd", gb18030, "https://example.org/dir/page.html?q=%841%A47");
    }

    @Test
    void asciiEscapesAndTheQuerySetAreAsInUtf8() {
      resolves("?a=%7e%e9 'x'\u00e9", windows1252, "https://example.org/dir/page.html?a=~%E9%20%27x%27%E9");
    }

    @Test
    void utf16AndUtf8DocumentsUseUtf8() {
      resolves("?q=\u00e9", StandardCharsets.UTF_16LE, "https://example.org/dir/page.html?q=%C3%A9");
      resolves("?q=\u00e9", StandardCharsets.UTF_8, "https://example.org/dir/page.html?q=%C3%A9");
      assertEquals(UrlNormalizer.resolve(BASE, "?q=\u00e9"), UrlNormalizer.resolve(BASE, "?q=\u00e9", StandardCharsets.UTF_8));
    }

    @Test
    void iso2022JpKeepsItsEscapeSequences() {
      // The encoder switches to JIS X 0208 and back; ESC is percent-encoded, the JIS bytes are ASCII.
      resolves("?q=\u3042", Charset.forName("ISO-2022-JP"), "https://example.org/dir/page.html?q=%1B$B$%22%1B(B");
    }
  }

  @Nested
  class Escapes {
    @Test
    void hexDigitsAreUpperCased() {
      normalizes("http://example.com/a%2fb%c3%a9?x=%2f%3d", "http://example.com/a%2Fb%C3%A9?x=%2F%3D");
    }

    @Test
    void unreservedEscapesAreDecoded() {
      normalizes("http://example.com/%7euser/%41%62%2D%2e%5F?q=%7E%31", "http://example.com/~user/Ab-._?q=~1");
    }

    @Test
    void reservedEscapesStayEncoded() {
      normalizes("http://example.com/a%2Fb%3F%23%25?x=%26%3D%2B", "http://example.com/a%2Fb%3F%23%25?x=%26%3D%2B");
    }

    @Test
    void strayPercentSignsStay() {
      normalizes("http://example.com/100%/a%zz?p=%", "http://example.com/100%/a%zz?p=%");
    }

    @Test
    void decodingNeverForgesANewEscape() {
      // "%%34" + "1" would become "%41" if %34 were decoded, and a second pass would change it again.
      normalizes("http://example.com/%%341", "http://example.com/%%341");
      normalizes("http://example.com/%4%31", "http://example.com/%4%31");
      normalizes("http://example.com/%%7e", "http://example.com/%~");
    }
  }

  @Nested
  class Fragments {
    @Test
    void fragmentIsDropped() {
      normalizes("http://example.com/a?b#c", "http://example.com/a?b");
      normalizes("http://example.com/#", "http://example.com/");
      normalizes("http://example.com#a?b/c", "http://example.com/");
    }
  }

  @Nested
  class Resolving {
    @Test
    void relativeReferences() {
      resolves("other.html", "https://example.org/dir/other.html");
      resolves("./a/../b", "https://example.org/dir/b");
      resolves("../up", "https://example.org/up");
      resolves("../../../../up", "https://example.org/up");
      resolves("/root", "https://example.org/root");
      resolves("sub/", "https://example.org/dir/sub/");
      resolves(".", "https://example.org/dir/");
      resolves("..", "https://example.org/");
    }

    @Test
    void absoluteAndSchemeRelativeReferences() {
      resolves("http://Other.org:80/x#y", "http://other.org/x");
      resolves("//cdn.example.net/lib.js", "https://cdn.example.net/lib.js");
      resolves("\\\\cdn.example.net\\lib.js", "https://cdn.example.net/lib.js");
      resolves("///cdn.example.net/x", "https://cdn.example.net/x");
    }

    @Test
    void sameSchemeWithoutSlashesIsRelative() {
      resolves("https:other", "https://example.org/dir/other");
      resolves("http:other", "http://other/");
    }

    @Test
    void queryAndFragmentOnlyReferences() {
      resolves("?page=2", "https://example.org/dir/page.html?page=2");
      resolves("#section", "https://example.org/dir/page.html?x=1");
      resolves("", "https://example.org/dir/page.html?x=1");
      resolves("   ", "https://example.org/dir/page.html?x=1");
    }

    @Test
    void strayWhitespaceAsFoundInHtml() {
      resolves("\n   /a/b c.html\t\n", "https://example.org/a/b%20c.html");
      resolves(" ht\ntps://x.org/ ", "https://x.org/");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mailto:me@example.org", "javascript:void(0)", "data:text/html,hi", "tel:+123",
        "ftp://example.org/f", "http://", "http://a b/", "//", "https://[::1"})
    void linksThatAreNotHttpGiveNothing(String href) {
      assertEquals(Optional.empty(), UrlNormalizer.resolve(BASE, href), href);
    }

    @Test
    void baseWithoutQueryOrPathDepth() {
      assertEquals(Optional.of("http://h/x"), UrlNormalizer.resolve("http://h/", "x"));
      assertEquals(Optional.of("http://h/x"), UrlNormalizer.resolve("http://h/", "../x"));
      assertEquals(Optional.of("http://h:8080/a/y"), UrlNormalizer.resolve("http://h:8080/a/b", "y"));
      assertEquals(Optional.of("http://[::1]:8080/y"), UrlNormalizer.resolve("http://[::1]:8080/", "y"));
    }

    @Test
    void nonHttpBaseCountsAsNone() {
      assertEquals(Optional.of("http://a.org/"), UrlNormalizer.resolve("about:blank", "http://a.org"));
      assertEquals(Optional.empty(), UrlNormalizer.resolve("about:blank", "/relative"));
    }
  }

  @Nested
  class Origins {
    @ParameterizedTest
    @CsvSource({
        "HTTP://Example.COM:80/a?b#c, http://example.com, http, example.com, 80",
        "https://example.com:443, https://example.com, https, example.com, 443",
        "https://example.com:8443/x, https://example.com:8443, https, example.com, 8443",
        "http://user:pw@Bücher.example/, http://xn--bcher-kva.example, http, xn--bcher-kva.example, 80",
        "http://0x7f.1:8080/, http://127.0.0.1:8080, http, 127.0.0.1, 8080",
        "http://[0:0::1]:81/, http://[::1]:81, http, [::1], 81",
        "https://[2001:db8::1]/, https://[2001:db8::1], https, [2001:db8::1], 443"})
    void originOfANormalizedUrl(String input, String serialized, String scheme, String host, int port) {
      String url = UrlNormalizer.normalize(input).orElseThrow();
      Origin origin = Origin.ofUrl(url);
      assertEquals(new Origin(scheme, host, port), origin);
      assertEquals(serialized, origin.toString());
      assertTrue(origin.contains(url), url);
      assertTrue(url.startsWith(origin + "/"), url);
    }
  }

  @Nested
  class Robustness {
    @Test
    void randomInputNeverThrowsAndResultsAreFixedPoints() {
      Random random = new Random(20261121);
      String alphabet = "ab:/\\?#@[]%.25eE0x7fF \t\n\u00e9\u00df\u3002\ud83d\ude00-_~'\"<>^|{}`";
      String[] prefixes = {"http://", "https://", "//", "/", "", "http:", "HTTP://h", "https://[::1]"};
      for (int i = 0; i < 20_000; i++) {
        StringBuilder s = new StringBuilder(prefixes[random.nextInt(prefixes.length)]);
        int length = random.nextInt(24);
        for (int j = 0; j < length; j++) s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        String input = s.toString();
        Optional<String> resolved = UrlNormalizer.resolve(BASE, input);
        resolved.ifPresent(url -> assertEquals(resolved, UrlNormalizer.normalize(url), "not a fixed point: " + input));
        Optional<String> normalized = UrlNormalizer.normalize(input);
        normalized.ifPresent(url -> {
          assertEquals(normalized, UrlNormalizer.normalize(url), "not a fixed point: " + input);
          Origin.ofUrl(url);
        });
      }
    }
  }
}
