package org.forager.dedup;

import static org.forager.dedup.WordChars.NONE;

/**
 * The letters and digits of UTF-8 bytes, as {@code new String(bytes, UTF_8)} decodes them: a valid
 * one- to three-byte sequence is its BMP char; anything else (a four-byte sequence, whose surrogates
 * are no letters, or malformed bytes, which decode to U+FFFD) is no letter. Stateless.
 */
final class Utf8Chars {

  private Utf8Chars() {}

  /**
   * The lower case of the letter or digit a multi-byte sequence at {@code i} encodes, else
   * {@link WordChars#NONE}.
   */
  static int nonAsciiLowerCase(byte[] b, int i) {
    // Two bytes, as most letters of European scripts are, in a method small enough to inline.
    int lead = b[i] & 0xFF;
    if ((lead & 0xE0) == 0xC0 && i + 1 < b.length && continuation(b[i + 1])) {
      return WordChars.twoByteLowerCase(lead, b[i + 1]);
    }
    return otherLowerCase(b, i);
  }

  /** {@link #nonAsciiLowerCase} of anything but a well-formed two-byte sequence. */
  private static int otherLowerCase(byte[] b, int i) {
    int lead = b[i] & 0xFF;
    if (lead < 0xE0 || lead > 0xEF || i + 2 >= b.length || !continuation(b[i + 1]) || !continuation(b[i + 2])) {
      return NONE;
    }
    int second = b[i + 1] & 0xFF;
    if (lead == 0xE0 && second < 0xA0) return NONE; // overlong
    if (lead == 0xED && second > 0x9F) return NONE; // a surrogate
    return WordChars.lowerCase((char) ((lead & 0x0F) << 12 | (second & 0x3F) << 6 | (b[i + 2] & 0x3F)));
  }

  /** The length of the sequence a letter or digit starts with (only called on one). */
  static int width(byte lead) {
    if (lead >= 0) return 1;
    return (lead & 0xE0) == 0xC0 ? 2 : 3;
  }

  private static boolean continuation(byte b) {
    return (b & 0xC0) == 0x80;
  }
}
