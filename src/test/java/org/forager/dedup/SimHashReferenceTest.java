package org.forager.dedup;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.stream.Stream;
import org.forager.store.Concurrently;
import org.junit.jupiter.api.Test;

/**
 * {@link SimHash} gives exactly the values of {@link SimHashReference}, the implementation before
 * session 7's optimisation, on every path: stored simhashes of earlier crawls must stay comparable.
 */
class SimHashReferenceTest {

  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  /** Pieces of HTML soup around the edges the reader handles: tags, raw text, references, case. */
  private static final String[] PIECES = {"harbour", "Town", "WORD", "x1", "42", "a", "Zz9", " ", "  ", ", ",
      "\n", "\t", ".", "-", "_", "'", "<p>", "</p>", "<b class=\"x\">", "<a href='/x?a=1&amp;b=2'>", "</a>",
      "<!-- c -->", "<!--", "--", "-->", "<!doctype html>", "<br/>", "<", ">", "</", "<script>",
      "<script type=\"module\">var a = 'b c d';", "</script>", "<SCRIPT>", "</Script >", "<scripts>",
      "<script", "</scrip", "<style>p{color:red}", "</style>", "<STYLE media=x>", "</style", "<stylex>",
      "<textarea>", "&amp;", "&#233;", "&#x41;", "&eacute", "&été;", "&", "&;", "#", ";", "&&",
      "ÉTÉ", "straße", "naïve", "Ünïcode", "東京", "日本語", "ǅ", "İ", "ß", "Σσς", "µ", "ª", "º", "×",
      "Œuvre", "Ÿ", "Ⅻ", "٣", "𝔘𝔫𝔦", "😀", "\u00a0", "\u2028", "\ufeff", "\ufffd"};

  /** Bytes that are no well-formed UTF-8, and edges of the well-formed ranges. */
  private static final byte[][] BYTES = {{(byte) 0xC3}, {(byte) 0xE3, (byte) 0x81}, {(byte) 0x80},
      {(byte) 0xBF}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xC1, (byte) 0xBF}, {(byte) 0xC2, (byte) 0x80},
      {(byte) 0xC2, (byte) 0xAA}, {(byte) 0xDF, (byte) 0xBF}, {(byte) 0xE0, (byte) 0x80, (byte) 0x80},
      {(byte) 0xE0, (byte) 0x9F, (byte) 0xBF}, {(byte) 0xE0, (byte) 0xA0, (byte) 0x80},
      {(byte) 0xED, (byte) 0x9F, (byte) 0xBF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
      {(byte) 0xED, (byte) 0xBF, (byte) 0xBF}, {(byte) 0xEE, (byte) 0x80, (byte) 0x80},
      {(byte) 0xEF, (byte) 0xBF, (byte) 0xBF}, {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
      {(byte) 0xF0, (byte) 0x9F}, {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80},
      {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0x80},
      {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
      {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xFE}, {(byte) 0xFF},
      {(byte) 0x00}, {(byte) 0x7F}, {(byte) 0x9C}, {(byte) 0x8A}};

  @Test
  void randomSoupsHaveTheReferenceValues() {
    Random random = new Random(20261124);
    int present = 0;
    for (int round = 0; round < 20_000; round++) {
      byte[] bytes = switch (round % 4) {
        case 0 -> randomBytes(random);
        case 1 -> soup(random, 1 + random.nextInt(80));
        case 2 -> {
          String text = textOfCodePoints(random);
          assertEquals(SimHashReference.ofText(text), SimHash.ofText(text), text);
          yield text.getBytes(UTF_8);
        }
        default -> soup(random, 200 + random.nextInt(400));
      };
      if (assertSameValues(bytes)) present++;
    }
    assertTrue(present > 10_000, "most soups have enough words: " + present);
  }

  @Test
  void longReferenceNamesAroundTheLimitHaveTheReferenceValues() {
    // A reference's name is read for at most 31 characters (not bytes): names of 25 to 40 of them.
    Random random = new Random(15);
    String[] letters = {"a", "Z", "7", "é", "東", "#", "😀"};
    for (int round = 0; round < 2_000; round++) {
      StringBuilder page = new StringBuilder("one two three ");
      for (int k = 0; k < 4; k++) {
        page.append(random.nextBoolean() ? "&" : "x&");
        for (int length = 25 + random.nextInt(16); length > 0; length--) {
          page.append(letters[random.nextInt(letters.length)]);
        }
        page.append(random.nextBoolean() ? ";" : " ").append("word").append(k).append(' ');
      }
      assertSameValues(page.toString().getBytes(UTF_8));
    }
  }

  @Test
  void wordsOfEveryKindAcrossManyBlocksHaveTheReferenceValues() {
    // The UTF-8 reading notes 1,024 words at a time, loads their last 12 bytes in one loop and fixes
    // the long ASCII words and the words hashed char by char after it: all kinds in one block and
    // across blocks, next to tags, references and comments.
    Random random = new Random(1024);
    String letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    String[] others = {"é", "東京", "ß", "Σ", "😀", "\u00a0"};
    String[] between = {" ", "  ", "\n", "<b>", "</a> ", "&amp;", "&", "<!-- x -->", "<script>a b c</script>", ", "};
    for (int round = 0; round < 12; round++) {
      StringBuilder page = new StringBuilder();
      for (int k = 1_500 + random.nextInt(3_000); k > 0; k--) {
        int kind = random.nextInt(10);
        int length = kind < 5 ? 1 + random.nextInt(8) : kind < 7 ? 9 + random.nextInt(4)
            : kind < 9 ? 13 + random.nextInt(60) : 64 + random.nextInt(80);
        for (int c = 0; c < length; c++) page.append(letters.charAt(random.nextInt(letters.length())));
        if (random.nextInt(6) == 0) page.append(others[random.nextInt(others.length)]); // a word going on
        page.append(between[random.nextInt(between.length)]);
      }
      assertTrue(assertSameValues(page.toString().getBytes(UTF_8)));
    }
  }

  @Test
  void asciiPagesInOtherCharsetsHaveTheReferenceValues() {
    // A page of ASCII alone, in a charset that decodes ASCII as ASCII, is read as UTF-8 bytes: the
    // charsets that do and some that do not (ISO-2022's escapes switch sets, EBCDIC, UTF-16), on
    // pages of ASCII with escapes and shifts in them.
    List<Charset> charsets = Stream.of("windows-1252", "windows-1250", "windows-1251", "windows-1256",
            "ISO-8859-1", "ISO-8859-2", "ISO-8859-5", "ISO-8859-15", "US-ASCII", "KOI8-R", "ISO-2022-JP",
            "ISO-2022-KR", "ISO-2022-CN", "IBM037", "UTF-16", "UTF-16LE", "Shift_JIS", "EUC-JP", "GB18030")
        .filter(Charset::isSupported).map(Charset::forName).toList();
    assertTrue(charsets.size() >= 15, charsets.toString());
    String[] ascii = Stream.concat(Stream.of(PIECES).filter(p -> p.chars().allMatch(c -> c < 0x80)),
        Stream.of("\u001b$B", "\u001b(B", "\u001b$)C", "\u000e", "\u000f", "\u001b$A", "~{", "~}", "+AGEAYQ-"))
        .toArray(String[]::new);
    Random random = new Random(1252);
    for (int round = 0; round < 400; round++) {
      StringBuilder page = new StringBuilder();
      for (int k = 1 + random.nextInt(120); k > 0; k--) page.append(ascii[random.nextInt(ascii.length)]);
      byte[] bytes = page.toString().getBytes(UTF_8);
      for (Charset charset : charsets) {
        assertEquals(SimHashReference.ofHtml(bytes, charset), SimHash.ofHtml(bytes, charset),
            () -> charset + " " + HexFormat.of().formatHex(bytes));
      }
    }
  }

  @Test
  void aByteAboveAsciiAnywhereInAPageInWindows1252HasTheReferenceValue() {
    // The check for ASCII alone reads 64 bytes at a time, then the rest one by one: an é (0xE9 in
    // windows-1252, a letter there, no UTF-8) in the middle of a word at every place of the page.
    String text = "<p>Harbour town woke early, the fishing boats came back with the tide; merchants argued "
        + "about herring, children ran between the carts, and the bell rang twelve times at noon";
    byte[] page = text.getBytes(UTF_8);
    Charset windows1252 = Charset.forName("windows-1252");
    long ascii = SimHash.ofHtml(page, windows1252).orElseThrow();
    assertEquals(SimHashReference.ofHtml(page, windows1252).orElseThrow(), ascii);
    int changed = 0;
    for (int at = 0; at < page.length; at++) {
      byte[] marked = page.clone();
      marked[at] = (byte) 0xE9;
      OptionalLong expected = SimHashReference.ofHtml(marked, windows1252);
      assertEquals(expected, SimHash.ofHtml(marked, windows1252), "é at " + at);
      if (!expected.equals(OptionalLong.of(ascii))) changed++; // empty when it ate the first '>'
    }
    assertTrue(changed > page.length / 2, "an é in a word changes the simhash: " + changed);
  }

  @Test
  void asciiWordsOfEveryLengthAtEveryOffsetHaveTheReferenceValues() {
    // The UTF-8 reading takes 64 bytes at a time and words of up to 12 bytes from the 12 before their
    // end: words around those sizes, from the page's first byte on, ended by every kind of byte.
    String letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    String[] ends = {" ", "<b>", "&amp;", "é", "\u00a0", ".", "&", "<"};
    for (int offset = 0; offset < 70; offset++) {
      for (int length = 1; length <= 140; length += length < 20 ? 1 : 7) {
        StringBuilder page = new StringBuilder(" ".repeat(offset));
        for (int k = 0; k < length; k++) page.append(letters.charAt((k * 7 + offset) % letters.length()));
        page.append(ends[(offset + length) % ends.length]).append("two three four ".repeat(1 + length % 5));
        assertSameValues(page.toString().getBytes(UTF_8));
      }
    }
  }

  @Test
  void aBlockFilledToItsLastWordInOneSpanHasTheReferenceValue() {
    // 64 bytes of text hold at most 32 words: one-letter words bring the Java reading's block of 1,024
    // words to its very end in one span, and a word read char by char (accented) or another span must
    // still find room. Both readings, native and Java, for every block position of the accented word.
    for (int words = 1_900; words < 2_200; words++) {
      byte[] page = ("a ".repeat(words) + "é").getBytes(UTF_8);
      int n = words;
      assertEquals(SimHashReference.ofHtml(page, UTF_8), Utf8Html.simhash(page), () -> n + " words");
      assertEquals(SimHashReference.ofHtml(page, UTF_8), SimHash.ofHtml(page, UTF_8), () -> n + " words");
    }
    // Past the native reading's limit (256 KiB): the Java reading, whatever the build.
    byte[] large = ("a b ".repeat(70_000) + "é").getBytes(UTF_8);
    assertEquals(SimHashReference.ofHtml(large, UTF_8), SimHash.ofHtml(large, UTF_8));
  }

  @Test
  void longTextsHaveTheReferenceValues() {
    // Counts past 255 and 65535 features per bit, and odd and even totals (a tie leaves a bit clear).
    Random random = new Random(7);
    for (int words : new int[] {254, 255, 256, 257, 258, 1_000, 70_000, 140_003}) {
      StringBuilder text = new StringBuilder();
      for (int k = 0; k < words; k++) text.append(random.nextInt(words / 2 + 1)).append(k % 7 == 0 ? "<i> " : " ");
      assertSameValues(text.toString().getBytes(UTF_8));
      assertSameValues(("<p>" + text.toString().replace("<i>", "</p><p>")).getBytes(UTF_8));
    }
    String repeated = "same words again ".repeat(50_000);
    assertSameValues(repeated.getBytes(UTF_8));
  }

  @Test
  void theTestPagesHaveTheReferenceValues() throws IOException, URISyntaxException {
    Path resources = Path.of(getClass().getResource("/").toURI());
    List<Path> files;
    try (Stream<Path> walk = Files.walk(resources)) {
      files = walk.filter(Files::isRegularFile)
          .filter(p -> p.toString().matches(".*\\.(html|htm|xml|txt|md|json)$")).toList();
    }
    int pages = 0;
    for (Path file : files) {
      assertSameValues(Files.readAllBytes(file));
      if (file.toString().endsWith(".html")) pages++;
    }
    assertTrue(pages >= 40, "the HTML corpus under src/test/resources: " + pages);
  }

  @Test
  void pagesComputedAtOnceOnManyThreadsHaveTheReferenceValues() throws Exception {
    // The buffers are pooled (Workspace): concurrent computations must never share one.
    Random random = new Random(11);
    List<byte[]> pages = new ArrayList<>();
    for (int k = 0; k < 64; k++) pages.add(soup(random, 50 + random.nextInt(2_000)));
    List<OptionalLong> expected = pages.stream().map(p -> SimHashReference.ofHtml(p, UTF_8)).toList();
    Concurrently.run(8, thread -> {
      for (int round = 0; round < 20; round++) {
        for (int k = 0; k < pages.size(); k++) {
          int page = (k + thread * 7) % pages.size();
          assertEquals(expected.get(page), SimHash.ofHtml(pages.get(page), UTF_8), "page " + page);
          String text = new String(pages.get(page), ISO_8859_1);
          assertEquals(SimHashReference.ofText(text), SimHash.ofText(text), "text of page " + page);
        }
      }
    });
  }

  /** Asserts every path's value; whether the UTF-8 one had enough words for a simhash. */
  static boolean assertSameValues(byte[] bytes) {
    String hex = bytes.length <= 4096 ? HexFormat.of().formatHex(bytes) : bytes.length + " bytes";
    for (Charset charset : List.of(UTF_8, ISO_8859_1, WINDOWS_1252)) {
      assertEquals(SimHashReference.ofHtml(bytes, charset), SimHash.ofHtml(bytes, charset),
          () -> charset + " " + hex);
      String decoded = new String(bytes, charset);
      assertEquals(SimHashReference.ofText(decoded), SimHash.ofText(decoded), () -> "text " + charset + " " + hex);
    }
    return SimHashReference.ofHtml(bytes, UTF_8).isPresent();
  }

  private static byte[] randomBytes(Random random) {
    byte[] bytes = new byte[random.nextInt(300)];
    random.nextBytes(bytes);
    if (random.nextBoolean()) {
      // Mostly ASCII letters and spaces, so some words form between the random bytes.
      for (int k = 0; k < bytes.length; k++) if (random.nextInt(4) > 0) bytes[k] = (byte) "ab Zc9 <>&;#"
          .charAt(random.nextInt(12));
    }
    return bytes;
  }

  private static byte[] soup(Random random, int pieces) {
    ByteArrayOutputStream page = new ByteArrayOutputStream();
    for (int k = 0; k < pieces; k++) {
      if (random.nextInt(8) == 0) page.writeBytes(BYTES[random.nextInt(BYTES.length)]);
      else page.writeBytes(PIECES[random.nextInt(PIECES.length)].getBytes(UTF_8));
    }
    return page.toByteArray();
  }

  /** Random code points from the whole range, surrogates alone included, and spaces. */
  private static String textOfCodePoints(Random random) {
    StringBuilder text = new StringBuilder();
    for (int k = random.nextInt(120); k > 0; k--) {
      int kind = random.nextInt(10);
      if (kind == 0) text.append(' ');
      else if (kind == 1) text.append((char) (0xD800 + random.nextInt(0x800)));
      else if (kind < 5) text.appendCodePoint(random.nextInt(0x80));
      else if (kind < 7) text.appendCodePoint(random.nextInt(0x800));
      else if (kind < 9) text.appendCodePoint(random.nextInt(0x10000));
      else text.appendCodePoint(random.nextInt(Character.MAX_CODE_POINT + 1));
    }
    return text.toString();
  }
}
