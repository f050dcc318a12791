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

  private WordChars() {}

  /** The lower case of {@code c} if it is a letter or digit, else {@link #NONE}. */
  static int lowerCase(char c) {
    // ASCII first: the text of most pages is, and the Character methods cost a table walk per char.
    if (c < 0x80) return ASCII[c];
    return Character.isLetterOrDigit(c) ? Character.toLowerCase(c) : NONE;
  }

  /** The lower case of {@code b} if it is an ASCII letter or digit, else {@link #NONE}. */
  static int asciiLowerCase(byte b) {
    return ASCII[b & 0xFF];
  }
}
