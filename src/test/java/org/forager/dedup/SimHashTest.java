package org.forager.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class SimHashTest {

  private static final String ARTICLE = """
      The harbour town woke early that morning, as the fishing boats came back with the tide and the
      market stalls opened along the quay. Merchants argued about the price of herring, children ran
      between the carts, and an old sailor told anyone who would listen about the storm of the winter
      before, when the lighthouse keeper had kept the lamp burning for three nights without sleep.
      By noon the square was full, the church bell rang twelve times, and the baker sold his last loaf.
      """;

  private static long html(String body) {
    return SimHash.ofHtml(body.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).orElseThrow();
  }

  @Test
  void markupScriptsStylesCommentsAndCaseDoNotChangeTheText() {
    long plain = SimHash.ofText(ARTICLE).orElseThrow();
    String page = "<!doctype html><html><head><style>p { color: red }</style>"
        + "<script>var harbour = 'the fishing boats came back';</script></head><body><!-- a comment -->"
        + "<p class=\"lead\">" + ARTICLE.toUpperCase().replace(" market ", " <b>market</b> ") + "</p></body></html>";
    assertEquals(plain, html(page));
    assertEquals(html("<p>" + ARTICLE + "</p>"), html("<div>" + ARTICLE.replace("\n", " ") + "</div>"));
  }

  @Test
  void aSmallEditIsNearAndAnotherTextIsFar() {
    long original = SimHash.ofText(ARTICLE).orElseThrow();
    long edited = SimHash.ofText(ARTICLE.replace("twelve", "eleven")).orElseThrow();
    long other = SimHash.ofText(ARTICLE.replace("harbour town", "mountain village").replace("herring", "cheese")
        .replace("sailor", "shepherd").replace("lighthouse keeper", "innkeeper").replace("tide", "herds")
        .replace("baker", "miller").replace("church bell", "clock").replace("quay", "road")).orElseThrow();
    long unrelated = SimHash.ofText("Quarterly results: revenue grew by four percent while costs fell, "
        + "and the board approved a dividend of twelve cents per share payable in March.").orElseThrow();
    assertTrue(SimHash.distance(original, edited) <= NearDuplicateIndex.MAX_DISTANCE,
        "one word changed: " + SimHash.distance(original, edited));
    assertTrue(SimHash.distance(original, unrelated) > 10, "unrelated: " + SimHash.distance(original, unrelated));
    assertTrue(SimHash.distance(original, other) > NearDuplicateIndex.MAX_DISTANCE,
        "many edits: " + SimHash.distance(original, other));
  }

  @Test
  void theValueOfAKnownTextStaysTheSameAcrossVersions() {
    // Stored simhashes of earlier crawls are compared with new ones: the function must not drift.
    // Mixed case, accents, a non-Latin script and digits; the value of the first implementation.
    String text = "The harbour town woke early that morning, as the fishing boats came back with the tide; "
        + "Ünïcode Straße ÉTÉ naïve café 東京 日本語 テキスト and 12 34 digits.";
    assertEquals(0x3380400828984090L, SimHash.ofText(text).orElseThrow());
  }

  @Test
  void readingUtf8BytesGivesTheValueOfReadingTheDecodedText() {
    // The UTF-8 fast path must agree with decoding first, on well-formed and broken input alike.
    String[] pieces = {"harbour", "Town", "ÉTÉ", "straße", "東京", "ǅ", "𝔘𝔫𝔦", "😀", " ", "  ", ", ", "\n", "<p>",
        "</p>", "<b class=\"x\">", "<!-- c -->", "<!--", "-->", "<script>var a = 'b c d';</script>", "<SCRIPT>",
        "</Script>", "<style>p{}</style>", "<scriptx>", "<script", "</style", "&amp;", "&#233;", "&eacute", "&été;",
        "&", "#", ";", "<", ">", "42", "x1"};
    byte[][] broken = {{(byte) 0xC3}, {(byte) 0xE3, (byte) 0x81}, {(byte) 0x80}, {(byte) 0xC0, (byte) 0xAF},
        {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xE0, (byte) 0x80, (byte) 0x80}, {(byte) 0xF0, (byte) 0x9F},
        {(byte) 0xFF}, {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}};
    java.util.Random random = new java.util.Random(20261121);
    int compared = 0;
    for (int round = 0; round < 3000; round++) {
      java.io.ByteArrayOutputStream page = new java.io.ByteArrayOutputStream();
      int length = 1 + random.nextInt(60);
      for (int k = 0; k < length; k++) {
        if (random.nextInt(8) == 0) page.writeBytes(broken[random.nextInt(broken.length)]);
        else page.writeBytes(pieces[random.nextInt(pieces.length)].getBytes(StandardCharsets.UTF_8));
      }
      byte[] bytes = page.toByteArray();
      OptionalLong decoded = SimHash.ofDecodedHtml(new String(bytes, StandardCharsets.UTF_8));
      assertEquals(decoded, SimHash.ofHtml(bytes, StandardCharsets.UTF_8), () -> java.util.HexFormat.of().formatHex(bytes));
      if (decoded.isPresent()) compared++;
    }
    assertTrue(compared > 1000, "most random pages have enough words: " + compared);
  }

  @Test
  void tooFewWordsHaveNoSimhash() {
    assertEquals(OptionalLong.empty(), SimHash.ofText(""));
    assertEquals(OptionalLong.empty(), SimHash.ofHtml("<p>two words</p>".getBytes(StandardCharsets.UTF_8),
        StandardCharsets.UTF_8));
    assertTrue(SimHash.ofText("three little words").isPresent());
  }

  @Test
  void theIndexFindsTheEarliestPageWithinThreeBits() {
    NearDuplicateIndex index = new NearDuplicateIndex();
    long a = 0x0123_4567_89AB_CDEFL;
    assertEquals(Optional.empty(), index.nearest(a));
    index.add("https://a.example/far", ~a);
    index.add("https://a.example/first", a ^ 0b111); // three bits from a, all in one quarter
    index.add("https://a.example/second", a);
    assertEquals(Optional.of("https://a.example/first"), index.nearest(a));
    // Four bits, one per quarter: no quarter matches exactly, and it is too far anyway.
    assertEquals(Optional.empty(), index.nearest(a ^ 0x0001_0001_0001_0001L ^ 0b1000));
    assertEquals(Optional.of("https://a.example/second"), index.nearest(a ^ 0x0001_0001_0001_0000L));
  }

  /**
   * The buffers lent from the pool are kept between pages, the page itself is not: a pooled
   * workspace that held on to its last page kept up to one page per workspace (two a core, each up
   * to limits.max_page_bytes) alive in the old generation after its crawl thread was done with it.
   */
  @Test
  void aPageIsNotKeptAliveByThePooledBuffersOnceItsSimhashIsMade() {
    WeakReference<byte[]> page = simhashedPage();
    for (int i = 0; i < 20 && page.get() != null; i++) System.gc();
    assertTrue(page.get() == null, "the page is still reachable after its simhash was made");
  }

  /** A page of 1 MiB whose simhash is made, then dropped by the caller. */
  private static WeakReference<byte[]> simhashedPage() {
    byte[] body = ("<p>" + ARTICLE.repeat(2_600) + "</p>").getBytes(StandardCharsets.UTF_8);
    assertTrue(SimHash.ofHtml(body, StandardCharsets.UTF_8).isPresent());
    return new WeakReference<>(body);
  }
}
