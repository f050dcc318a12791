package org.forager.dedup;

/**
 * The characters words are made of, letters and digits ({@link Character#isLetterOrDigit(char)}),
 * and the lower case words are hashed in ({@link Character#toLowerCase(char)}). Stateless.
 */
final class WordChars {

  /** What {@link #lowerCase} returns for any other character: no letter or digit lower-cases to it. */
  static final int NONE = 0;

  /**
   * Per byte value, the lower case of an ASCII letter or digit, else {@link #NONE} (for every byte of
   * a multi-byte UTF-8 sequence too): one load instead of six comparisons per character.
   */
  private static final byte[] ASCII = new byte[256];

  static {
    for (char c = '0'; c <= '9'; c++) ASCII[c] = (byte) c;
    for (char c = 'a'; c <= 'z'; c++) {
      ASCII[c] = (byte) c;
      ASCII[Character.toUpperCase(c)] = (byte) c;
    }
  }

  /**
   * Per two-byte UTF-8 sequence, by the low 5 bits of its lead and the low 6 of its second byte (the
   * char it encodes), the lower case of a letter or digit, else {@link #NONE}: one load instead of the
   * Character methods' table walks, for most non-ASCII letters of European text. The chars below
   * 0x80, encoded by the overlong leads C0 and C1, are {@code NONE}: those decode to U+FFFD.
   */
  private static final char[] TWO_BYTES = new char[1 << 11];

  static {
    for (char c = 0x80; c < TWO_BYTES.length; c++) TWO_BYTES[c] = (char) lowerCase(c);
  }

  private WordChars() {}

  /** The lower case of {@code c} if it is a letter or digit, else {@link #NONE}. */
  static int lowerCase(char c) {
    // ASCII first: the text of most pages is, and the Character methods cost a table walk per char.
    if (c < 0x80) return ASCII[c];
    return Character.isLetterOrDigit(c) ? Character.toLowerCase(c) : NONE;
  }

  /**
   * The lower case of the char a two-byte UTF-8 sequence encodes if it is a letter or digit, else
   * {@link #NONE}: {@code lead} C0 to DF, {@code second} a continuation byte (80 to BF).
   */
  static int twoByteLowerCase(int lead, int second) {
    return TWO_BYTES[(lead & 0x1F) << 6 | (second & 0x3F)];
  }

  /** The lower case of {@code b} if it is an ASCII letter or digit, else {@link #NONE}. */
  static int asciiLowerCase(byte b) {
    return ASCII[b & 0xFF];
  }
}
