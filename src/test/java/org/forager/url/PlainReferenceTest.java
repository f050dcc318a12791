package org.forager.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The links resolved by concatenation must be exactly what the parser makes of them. */
class PlainReferenceTest {

  private static final String BASE = "http://127.1.0.5:8080/dir/page.html?x=/y";

  private static final List<String> BASES = List.of(BASE, "https://example.org/", "http://example.org/a/b/",
      "https://xn--fa-hia.de/a/b/c.html", "http://[::1]:81/x?q", "http://example.org/a/b?c/d");

  @ParameterizedTest
  @CsvSource({
      "/a/b.html, http://127.1.0.5:8080/a/b.html",
      "/, http://127.1.0.5:8080/",
      "/a?b=c&d=/e?f, http://127.1.0.5:8080/a?b=c&d=/e?f",
      "c.html, http://127.1.0.5:8080/dir/c.html",
      "c/d.html?q=1, http://127.1.0.5:8080/dir/c/d.html?q=1",
      "http://127.1.0.5:8080/z, http://127.1.0.5:8080/z",
      "http://127.1.0.5:8080, http://127.1.0.5:8080/",
      "/a/.b/c., http://127.1.0.5:8080/a/.b/c.",
      "/~user/it's, http://127.1.0.5:8080/~user/it's",
  })
  void joinsWhatThePathKeeps(String href, String expected) {
    assertEquals(expected, PlainReference.resolve(BASE, href));
    assertEquals(expected, UrlParser.parse(BASE, href, StandardCharsets.UTF_8).orElseThrow());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "//host/a", "/\\host/a", "?q", "#f", "/a#f", "/a?", "/./a", "/a/..", "./a", "..",
      "a:b", "mailto:x", "http:foo", "HTTP://127.1.0.5:8080/a", "http://127.1.0.5:80801/a",
      "http://127.1.0.5:8080?q", "http://other/a", "/a%2e", "/a b", " /a", "/a\t", "/caf\u00e9", "/a\\b",
      "/a?it's", "/a^b", "/{a}"})
  void leavesEverythingElseToTheParser(String href) {
    assertNull(PlainReference.resolve(BASE, href), href);
  }

  @Test
  void aBaseThatIsNoHttpUrlJoinsNothing() {
    assertNull(PlainReference.resolve("ftp://example.org/a", "/b"));
    assertNull(PlainReference.resolve("http://example.org", "/b"));
  }

  /** Random references of the characters that matter, against several bases and encodings. */
  @Test
  void agreesWithTheParserOnRandomReferences() {
    String[] pieces = {"/", "/", "a", "B", "7", ".", "..", "-", "_", "~", "?", "#", "%2e", "%41", "%", ":", "@",
        "'", "!", "$", "&", "=", "+", ",", ";", "(", "*", " ", "\t", "\\", "\u00e9", "^", "|", "[", "http:",
        "http://127.1.0.5:8080", "https://example.org", "//", "x.html", "index"};
    List<Charset> encodings = List.of(StandardCharsets.UTF_8, Charset.forName("windows-1252"),
        Charset.forName("Shift_JIS"));
    Random random = new Random(15);
    int joined = 0;
    for (int k = 0; k < 200_000; k++) {
      StringBuilder href = new StringBuilder();
      int length = random.nextInt(6);
      for (int p = 0; p < length; p++) href.append(pieces[random.nextInt(pieces.length)]);
      String base = BASES.get(random.nextInt(BASES.size()));
      Charset encoding = encodings.get(random.nextInt(encodings.size()));
      String plain = PlainReference.resolve(base, href.toString());
      if (plain == null) continue;
      joined++;
      assertEquals(UrlParser.parse(base, href.toString(), PercentEncoding.outputEncoding(encoding)).orElse(null),
          plain, "resolve(" + base + ", " + href + ") in " + encoding);
    }
    assertTrue(joined > 20_000, "only " + joined + " references joined");
  }
}
