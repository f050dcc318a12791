package org.forager.dedup;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.forager.dedup.SimHashReferenceTest.assertSameValues;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Words with letters of two or three UTF-8 bytes (most European text has them) have the values of
 * {@link SimHashReference}: the UTF-8 reading hashes their ASCII runs apart from their other chars,
 * so every way a word mixes the two, every sequence, well-formed or not, and every place in the
 * 64-byte spans the reading takes, from the page's first bytes to its last.
 */
class MultiByteWordsReferenceTest {

  /** Letters and digits of two bytes (Latin-1, Latin Extended, Greek, Cyrillic, Armenian, Hebrew, Arabic, N'Ko). */
  private static final String[] TWO_BYTE_LETTERS = {"é", "É", "ß", "ñ", "ç", "ÿ", "µ", "ª", "º", "ő", "Ő", "ł",
      "Ł", "ș", "ı", "İ", "ǅ", "ǈ", "α", "Σ", "ς", "ά", "ж", "Ж", "ё", "Ђ", "ա", "Ա", "א", "ع", "٣", "߀", "ߊ"};

  /** Chars of two bytes that are no letters: they end a word. */
  private static final String[] TWO_BYTE_OTHERS = {"×", "÷", "«", "»", "\u00a0", "¿", "§", "\u0301", "\u05be"};

  private static final String[] THREE_BYTE = {"東", "ア", "ﬀ", "Ⅻ", "ᴀ", "\u2013", "\u201c", "\ufeff", "\ufffd"};

  private static final String[] FOUR_BYTE = {"𝔘", "😀", "𐐀"};

  /** Malformed: lone leads and continuations, overlong, truncated, surrogates. */
  private static final byte[][] BROKEN = {{(byte) 0xC3}, {(byte) 0xA9}, {(byte) 0xC0, (byte) 0xAF},
      {(byte) 0xC1, (byte) 0x81}, {(byte) 0xE3, (byte) 0x81}, {(byte) 0xE0, (byte) 0x80, (byte) 0xAF},
      {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF0, (byte) 0x9F}, {(byte) 0xFF}};

  private static final String ASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

  private static final String[] BETWEEN = {" ", " ", " ", "\n", ", ", ". ", "<b>", "</i> ", "&amp;", "&", "&é;", "-"};

  @Test
  void everyTwoByteSequenceInAWordHasTheReferenceValue() {
    // Between ASCII letters, after them and before them; at every offset of a span, near the end too.
    for (int lead = 0xC0; lead <= 0xDF; lead++) {
      for (int second = 0; second < 256; second++) {
        byte[] sequence = {(byte) lead, (byte) second};
        int at = (lead * 7 + second) % 80;
        assertSameValues(page(at, "one two ab", sequence, "cd three", second % 3 == 0));
        assertSameValues(page(at, "one two abcdefghijklmn", sequence, " three four", second % 3 == 1));
        assertSameValues(page(at, "one two ", sequence, "abcdefghijklmnopq three", second % 3 == 2));
      }
    }
  }

  @Test
  void everyThreeByteSequenceInAWordHasTheReferenceValue() {
    for (int lead = 0xE0; lead <= 0xEF; lead++) {
      for (int second = 0x7F; second <= 0xC0; second++) {
        for (int third = 0x7F; third <= 0xC0; third++) {
          byte[] sequence = {(byte) lead, (byte) second, (byte) third};
          assertSameValues(page((second + third) % 80, "one two xy", sequence, "z three", third % 2 == 0));
        }
      }
    }
  }

  @Test
  void wordsMixingAsciiRunsAndOtherCharsAtEveryOffsetHaveTheReferenceValues() {
    // An ASCII run of 0 to 70 bytes, then one to three other chars, then another run, ended by every
    // kind of byte: the runs cross the span's edges and the 12 bytes the columns hash.
    int[] runs = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 20, 63, 64, 70};
    String[] others = {"é", "ÉŐ", "жжж", "東", "é東", "ß\u0301", "\u00a0", "😀", "éa", "éaé"};
    String[] ends = {" ", "<b>", "&amp;", "é", "\u00a0", "東", "😀", ".", ""};
    int pages = 0;
    for (int offset = 0; offset < 70; offset += 3) {
      for (int before : runs) {
        for (int after : runs) {
          String other = others[(offset + before + after) % others.length];
          String end = ends[(offset + 3 * before + after) % ends.length];
          String word = ascii(before, offset) + other + ascii(after, offset + before);
          boolean last = (before + after) % 4 == 0;
          String text = " ".repeat(offset) + "one two " + word + end + (last ? "" : " three four" + " ".repeat(offset));
          if (assertSameValues(text.getBytes(UTF_8))) pages++;
        }
      }
    }
    assertTrue(pages > 3_000, "pages with a simhash: " + pages);
  }

  @Test
  void pagesDenseInMultiByteLettersHaveTheReferenceValues() {
    // From a few accented letters a word, as in French or German text, to Greek and Cyrillic words.
    Random random = new Random(0xC3A9);
    for (int round = 0; round < 2_000; round++) {
      double other = new double[] {0.03, 0.1, 0.3, 0.7, 1.0}[round % 5];
      ByteArrayOutputStream page = new ByteArrayOutputStream();
      for (int words = random.nextInt(400); words > 0; words--) {
        int length = random.nextInt(10) == 0 ? 13 + random.nextInt(70) : 1 + random.nextInt(12);
        for (int c = 0; c < length; c++) {
          if (random.nextDouble() >= other) page.write(ASCII.charAt(random.nextInt(ASCII.length())));
          else page.writeBytes(otherChar(random));
        }
        if (words > 1 || random.nextBoolean()) page.writeBytes(BETWEEN[random.nextInt(BETWEEN.length)].getBytes(UTF_8));
      }
      assertSameValues(page.toByteArray());
    }
  }

  private static byte[] otherChar(Random random) {
    int kind = random.nextInt(20);
    if (kind < 14) return TWO_BYTE_LETTERS[random.nextInt(TWO_BYTE_LETTERS.length)].getBytes(UTF_8);
    if (kind < 16) return TWO_BYTE_OTHERS[random.nextInt(TWO_BYTE_OTHERS.length)].getBytes(UTF_8);
    if (kind < 18) return THREE_BYTE[random.nextInt(THREE_BYTE.length)].getBytes(UTF_8);
    if (kind < 19) return FOUR_BYTE[random.nextInt(FOUR_BYTE.length)].getBytes(UTF_8);
    return BROKEN[random.nextInt(BROKEN.length)];
  }

  /** {@code length} ASCII letters and digits, which ones chosen by {@code seed}. */
  private static String ascii(int length, int seed) {
    StringBuilder run = new StringBuilder();
    for (int k = 0; k < length; k++) run.append(ASCII.charAt((seed + 7 * k) % ASCII.length()));
    return run.toString();
  }

  /** {@code sequence} between two texts, {@code offset} spaces in; at the page's end or 70 spaces from it. */
  private static byte[] page(int offset, String before, byte[] sequence, String after, boolean atTheEnd) {
    ByteArrayOutputStream page = new ByteArrayOutputStream();
    page.writeBytes(" ".repeat(offset).getBytes(UTF_8));
    page.writeBytes(before.getBytes(UTF_8));
    page.writeBytes(sequence);
    page.writeBytes(after.getBytes(UTF_8));
    if (!atTheEnd) page.writeBytes(" ".repeat(70).getBytes(UTF_8));
    return page.toByteArray();
  }
}
