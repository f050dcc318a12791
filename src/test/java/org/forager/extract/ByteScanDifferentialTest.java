package org.forager.extract;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.URISyntaxException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The streaming reader on a page's bytes ({@link ByteMarkup}, for UTF-8 and single-byte encodings) against
 * the same reader on the page decoded first ({@link StringMarkup}, as before issue 15): the same {@link
 * DocumentScan} (link targets as written and in order, srcdoc documents, base, canonical, robots), the same
 * hand-over to the tree, and the same text for it, on the browser corpus and on byte soup full of what a
 * byte reader could get wrong: non-ASCII UTF-8, invalid UTF-8, windows-1252 high bytes, character
 * references, CRs, NULs, tags, values and comments cut off by the end.
 */
@Timeout(120)
class ByteScanDifferentialTest {

  private static final String TOKEN = "ForagerBot";

  /** Encodings read as bytes: UTF-8 and single-byte ones, among them some with bytes Java leaves undefined. */
  private static final List<Charset> CHARSETS = Stream.of("UTF-8", "windows-1252", "windows-1251", "KOI8-R",
      "ISO-8859-7", "x-windows-874", "windows-1255").map(Charset::forName).toList();

  @Test
  void bytesAreReadAsTheirDecodedTextOnTheCorpus() throws Exception {
    List<Path> pages;
    try (Stream<Path> files = Files.list(corpus())) {
      pages = files.filter(p -> p.toString().endsWith(".html")).sorted().toList();
    }
    assertTrue(pages.size() >= 40, "corpus: " + pages.size());
    for (Path page : pages) {
      byte[] body = Files.readAllBytes(page);
      // The page as its own charset rules read it, and as every other encoding read as bytes.
      Charsets.Decision decision = Charsets.detect(body, Optional.empty());
      if (decision.encoding().asciiCompatible()) compare(body, decision.bomLength(), decision.charset(), page.toString());
      for (Charset charset : CHARSETS) compare(body, 0, charset, page + " as " + charset);
    }
  }

  /** Pieces of soup: markup, and the text of values, as bytes, some of them not valid in any encoding. */
  private static final List<byte[]> MARKUP = new ArrayList<>();
  private static final List<byte[]> TEXT = new ArrayList<>();
  private static final List<byte[]> VALUE_TAGS = new ArrayList<>();

  static {
    for (String markup : List.of("<a href=", "<A HREF=", "<a rel=nofollow href=", "<area href=", "<frame src=",
        "<iframe src=", "<iframe srcdoc=", "<base href=", "<link rel=canonical href=", "<LINK REL=Canonical HREF=",
        "<meta name=robots content=", "<meta name=foragerbot content=", "<svg>", "</svg>", "<svg><a xlink:href=",
        "<template>", "</template>", "<table>", "<td>", "<noscript>", "</noscript>", "<head>", "</head>", "<body>",
        "<title>", "</title>", "<textarea>", "</textarea>", "<script>", "</script>", "<style>", "</style>", "<!--",
        "-->", "--!>", "<!-->", "<!DOCTYPE html>", "<?x>", "<![CDATA[", "]]>", "<math>", "<frameset>", "<plaintext>",
        "<", "</", ">", "/>", "=", "\"", "'", " ", "\t", "\n", "\r", "\r\n", "\f", "\u0000")) {
      MARKUP.add(markup.getBytes(UTF_8));
      if (markup.endsWith("=")) VALUE_TAGS.add(markup.getBytes(UTF_8));
    }
    for (String text : List.of("&", "&amp;", "&amp", "&amp_", "&not-", "&eacute;", "&eacute", "&#233;", "&#x80;",
        "&#x9F;", "&#0;", "&#xD800;", "&#1114112;", "&#", "&#x;", "&notin;", "&nbsp", ";", "#", "?q=", "a.html", "/b/",
        "../c", "http://other.example/x", "noindex", "nofollow", "none", "é", "例", "😀", "ß", "\u00A0", "€", "\uFEFF",
        "\uFFFD", "\uFFFF", "\u0000", "\r")) {
      TEXT.add(text.getBytes(UTF_8));
    }
    HexFormat hex = HexFormat.of();
    // Invalid UTF-8: lone continuations, cut-off and overlong sequences, surrogates, bytes never used;
    // and windows-1252 high bytes, some of them undefined there.
    for (String bytes : List.of("80", "bf", "c3", "e2", "e282", "f0", "f09f", "f09f98", "c0af", "e080af", "eda080",
        "f4908080", "f5", "ff", "fe", "c328", "e228a1", "e9", "fc", "81", "8d", "9f", "a0", "c3a9c3", "e9e9")) {
      TEXT.add(hex.parseHex(bytes));
    }
  }

  @Test
  void bytesAreReadAsTheirDecodedTextOnByteSoup() {
    SplittableRandom random = new SplittableRandom(Long.getLong("soup.seed", 15));
    int rounds = Integer.getInteger("soup.rounds", 20_000);
    int nonAsciiValues = 0;
    int replacedValues = 0;
    for (int round = 0; round < rounds; round++) {
      ByteArrayOutputStream soup = new ByteArrayOutputStream();
      // Sometimes a UTF-8 byte order mark, which the reader skips.
      int bom = random.nextInt(8) == 0 ? 3 : 0;
      if (bom > 0) soup.writeBytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
      int pieces = 1 + random.nextInt(48);
      for (int p = 0; p < pieces; p++) {
        if (random.nextInt(4) == 0) {
          // A whole tag with a value of text pieces, quoted or not, closed or not.
          soup.writeBytes(VALUE_TAGS.get(random.nextInt(VALUE_TAGS.size())));
          String quote = List.of("\"", "'", "").get(random.nextInt(3));
          soup.writeBytes(quote.getBytes(UTF_8));
          for (int t = random.nextInt(5); t >= 0; t--) soup.writeBytes(TEXT.get(random.nextInt(TEXT.size())));
          soup.writeBytes((random.nextInt(8) == 0 ? "" : quote + ">").getBytes(UTF_8));
        } else {
          List<byte[]> kind = random.nextBoolean() ? TEXT : MARKUP;
          soup.writeBytes(kind.get(random.nextInt(kind.size())));
        }
      }
      byte[] body = soup.toByteArray();
      Charset charset = CHARSETS.get(random.nextInt(CHARSETS.size()));
      if (bom > 0) charset = UTF_8;
      Optional<DocumentScan> scan = compare(body, bom, charset, HexFormat.of().formatHex(body) + " as " + charset);
      if (scan.isPresent()) {
        String values = String.join(" ", scan.get().hrefs()) + scan.get().baseHref().orElse("");
        if (values.chars().anyMatch(c -> c >= 0x80 && c != 0xFFFD)) nonAsciiValues++;
        if (values.indexOf('\uFFFD') >= 0) replacedValues++;
      }
    }
    // The soup must reach what it is for: values with non-ASCII text, and with malformed bytes in them.
    assertTrue(nonAsciiValues > rounds / 5, "pages with non-ASCII values: " + nonAsciiValues);
    assertTrue(replacedValues > rounds / 10, "pages with U+FFFD in values: " + replacedValues);
  }

  @Test
  void pagesHandedToTheTreeAreDecodedWhole() {
    byte[] body = "<frameset><frame src=\"caf\u00e9.html\"></frameset>".getBytes(UTF_8);
    ByteMarkup bytes = new ByteMarkup(body, 0, UTF_8);
    assertTrue(StreamScan.of(bytes, TOKEN).isEmpty());
    assertEquals(new String(body, UTF_8), bytes.text(bytes.start, bytes.end));
  }

  /** Compares the two readings of {@code body} from {@code start} in {@code charset}; returns the bytes' one. */
  private static Optional<DocumentScan> compare(byte[] body, int start, Charset charset, String what) {
    assertTrue(ByteMarkup.canRead(charset), charset.name());
    List<Object> readings = readings(body, start, charset);
    assertEquals(readings.get(0), readings.get(1), what);
    return StreamScan.of(new ByteMarkup(body, start, charset), TOKEN);
  }

  /**
   * What the reader makes of the page decoded first, and of its bytes: the {@link DocumentScan} (links,
   * srcdocs, base, canonical, robots), or when the page goes to the tree, the text the tree reads.
   */
  static List<Object> readings(byte[] body, int start, Charset charset) {
    String text = new String(body, start, body.length - start, charset);
    ByteMarkup bytes = new ByteMarkup(body, start, charset);
    return List.of(reading(new StringMarkup(text)), reading(bytes));
  }

  private static Object reading(Markup markup) {
    return StreamScan.of(markup, TOKEN)
        .<Object>map(scan -> List.of(List.copyOf(scan.hrefs()), scan.srcdocs(), scan.baseHref(), scan.canonicalHref(),
            scan.robots()))
        .orElseGet(() -> "to the tree: " + markup.text(markup.start, markup.end));
  }

  private static Path corpus() throws URISyntaxException {
    return Path.of(ByteScanDifferentialTest.class.getResource("browser/content-types.properties").toURI()).getParent();
  }
}
